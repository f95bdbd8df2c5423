"""An FFG game made and played from the lobby alone, on a phone: created with the edition's options, one person
and two bots (each with its own name) seated, started, then played to its end by tapping the page: the alien
chosen from its sheet, planets aimed at and ships launched on the board, encounter cards chosen by their faces.
The page speaks only to the API, with the person's seat token (no admin token anywhere); at the end it shows
the winners, how they won and everyone's colonies.

The game is started with the token the lobby keeps for it: the host token POST /games gives (when the
service gives one), else the person's seat token (any seated player may start a full game today).
"""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.conftest import ADMIN_TOKEN, board_at
from tests.browser.people import answer_on_page, seat_a_person_and_bots

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
MAYFAIR_WORDS = re.compile(r"\b(tokens?|cones?|challenges?|compromises?|consolations?|edicts?|bases?|stages?)\b", re.I)


def test_an_ffg_game_is_created_seated_with_bots_and_played_to_its_end_from_the_lobby_on_a_phone(
        api, open_page, table_server, shots):
    page = open_page(f"{table_server}/table/", **PHONE)
    sent = []
    page.on("request", lambda r: sent.append((r.method, r.url, r.headers.get("authorization"))))
    page.check("#ruleset-ffg")
    page.wait_for_selector("#create fieldset.options[data-ruleset='ffg']")
    page.select_option("#seats", "3")
    page.locator("input[data-option='reinforcements']").check()
    page.screenshot(path=str(shots / "ffg-game-lobby.png"), full_page=True)
    page.click("#create-game")
    page.wait_for_selector("#seat-form[data-game]")
    game = page.locator("#seat-form").get_attribute("data-game")
    seat_a_person_and_bots(page, "Ann", "heuristic", 2)
    names = [n.strip() for n in page.locator("#seat-form .seat-name").all_inner_texts()]
    assert len(set(names)) == 3 and names[0] == "Ann"
    page.click("#start-game")
    page.wait_for_selector("#seat-form[data-status='playing']")
    assert api.get(f"/games/{game}")["ruleset"] == "ffg"

    page.click("#seat-form a.seat-link")
    page.wait_for_selector("body[data-ready='1'][data-view='table']")
    token = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))["token"]
    me = api.get(f"/games/{game}/prompts", token)["player"]
    rng = random.Random(game)
    kinds, shot = [], set()
    for _ in range(600):
        board = api.get(f"/games/{game}")
        if board["status"] == "finished":
            break
        if any(p["player"] == me for p in board["pending"]):
            page.wait_for_selector("#status[data-state='yours']", timeout=15000)
            assert page.title().startswith("● Your move")
            prompt = api.get(f"/games/{game}/prompts", token)["prompts"][0]
            if prompt["kind"] == "choose_power" and "alien" not in shot:
                sheets = page.locator(f"fieldset[data-prompt='{prompt['id']}'] .sheet")
                assert sheets.count() == len(prompt["options"][0]["args"]["power"]["values"]) == 2
                page.screenshot(path=str(shots / "ffg-game-alien.png"), full_page=True)
                shot.add("alien")
            answered = answer_on_page(page, api, game, token, rng)
            if answered:
                kinds.append(answered["kind"])
                page.wait_for_function(
                    f"() => !document.querySelector(\"fieldset[data-prompt='{answered['id']}']\")"
                    f" || Number(document.body.dataset.version) > {board['version']}", timeout=15000)
            continue
        page.wait_for_timeout(200)  # the bots' turn
        if "revealed" not in shot and page.locator("#encounter [data-state='resolved']").count():
            page.locator("#encounter").screenshot(path=str(shots / "ffg-game-encounter.png"))
            shot.add("revealed")
    board = api.get(f"/games/{game}")
    assert board["status"] == "finished" and board["winners"], kinds
    assert {"choose_power", "launch", "challenge_card"} <= set(kinds) or "launch" not in kinds
    page.wait_for_selector(board_at(board["version"]), timeout=20000)
    end = page.locator("#end")
    end.wait_for(state="visible")
    assert end.locator(".winners").get_attribute("data-winners") == ",".join(board["winners"])
    assert "(" in end.locator(".winners").inner_text()  # how they won
    assert end.locator("table.final tbody tr").count() == 3
    page.screenshot(path=str(shots / "ffg-game-end.png"), full_page=True)
    # the words of the edition on every label, the status bar included
    visible = page.locator("main").inner_text() + page.locator("#status").inner_text()
    found = [visible[max(0, m.start() - 80):m.end() + 40] for m in MAYFAIR_WORDS.finditer(visible)]
    assert not found, found
    # no admin token was ever sent; the page spoke to the API only
    assert not [s for s in sent if s[2] == f"Bearer {ADMIN_TOKEN}"]
    assert all("/games" in url or "/catalogue" in url or "/table/" in url for _, url, _ in sent)
