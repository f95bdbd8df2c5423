"""The lobby page: create a game of either edition with only its options, take a seat, add bots (each with its
own name), start it, open the seat's table; a finished game is listed with its winners."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ADMIN_TOKEN, board_at
from tests.browser.people import seat_a_person_and_bots

pytestmark = pytest.mark.browser


def fragment(url: str) -> dict:
    return dict(part.split("=", 1) for part in url.split("#", 1)[1].split("&"))


def test_the_lobby_creates_a_game_seats_a_person_and_bots_and_starts_it(api, open_page, table_server):
    page = open_page(f"{table_server}/table/")
    assert page.locator("body").get_attribute("data-view") == "lobby"
    mayfair = {o["name"] for o in api.get("/catalogue?ruleset=mayfair")["options"] if o["type"] in ("bool", "int")}
    shown = set(page.eval_on_selector_all("#create [data-option]", "xs => xs.map(x => x.dataset.option)"))
    assert shown == mayfair  # the Mayfair edition's options, each named and described
    for name in shown:
        field = page.locator(f"#create [data-option='{name}']").locator("xpath=ancestor::div[1]")
        assert field.locator("label").inner_text().strip() and field.locator(".meaning").inner_text().strip()
    page.select_option("#seats", "3")
    page.locator("input[data-option='flares']").uncheck()
    page.click("#create-game")
    page.wait_for_selector("#seat-form[data-game]")
    game = page.locator("#seat-form").get_attribute("data-game")
    created = api.get(f"/games/{game}")
    assert (created["status"], created["seats"], created["ruleset"], created["options"]["flares"]) == \
        ("lobby", 3, "mayfair", False)

    seat_a_person_and_bots(page, "Ann", "random", 2)
    players = api.get(f"/games/{game}")["players"]
    assert players["red"] == {**players["red"], "name": "Ann", "bot": None}
    bots = [p for p in players.values() if p["bot"]]
    assert [p["bot"] for p in bots] == ["random", "random"]
    assert len({p["name"] for p in players.values()}) == 3  # every seat its own name
    page.click("#start-game")
    page.wait_for_selector("#seat-form[data-status='playing'], #seat-form[data-status='finished']")
    assert api.get(f"/games/{game}")["status"] in ("playing", "finished")

    page.click("#seat-form li[data-colour='red'] a.seat-link")
    page.wait_for_selector("body[data-ready='1'][data-view='table'] #board .board[data-version]")
    assert page.locator("#who").get_attribute("data-player") == "red"
    page.wait_for_selector("#hand li.hand-card")
    assert api.get(f"/games/{game}/prompts", fragment(page.url)["token"])["player"] == "red"  # red's own token


def test_the_lobby_creates_an_ffg_game_with_only_its_options(api, open_page, table_server):
    page = open_page(f"{table_server}/table/", width=390, height=844)
    page.check("#ruleset-ffg")
    page.wait_for_selector("#create fieldset.options[data-ruleset='ffg']")
    ffg = {o["name"] for o in api.get("/catalogue?ruleset=ffg")["options"] if o["type"] in ("bool", "int")}
    shown = set(page.eval_on_selector_all("#create [data-option]", "xs => xs.map(x => x.dataset.option)"))
    assert shown == ffg and "edicts" not in shown and "reverse_cone" not in shown
    page.select_option("#seats", "4")
    sent = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.method == "POST" and r.url.endswith("/games") else None)
    page.click("#create-game")
    page.wait_for_selector("#seat-form[data-game]")
    game = page.locator("#seat-form").get_attribute("data-game")
    assert sent[0]["ruleset"] == "ffg" and set(sent[0]["options"]) <= ffg
    board = api.get(f"/games/{game}")
    assert (board["ruleset"], board["seats"], board["status"]) == ("ffg", 4, "lobby")
    colours = page.eval_on_selector_all("#seat-colour option", "os => os.map(o => o.value).filter(Boolean)")
    assert colours == api.get("/catalogue?ruleset=ffg")["colors"]


def test_a_finished_game_is_listed_with_its_winners(api, open_page, table_server):
    game, _ = api.game(3, options={"flares": False, "edicts": False}, seed="lobby-end", start=False,
                       bots={0: "heuristic", 1: "heuristic", 2: "heuristic"})
    api.post(f"/games/{game}/start", {}, ADMIN_TOKEN)
    import time
    deadline = time.monotonic() + 240
    while api.get(f"/games/{game}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.5)
    board = api.get(f"/games/{game}")
    page = open_page(f"{table_server}/table/")
    row = page.locator(f"table.games tr[data-game='{game}']")
    names = [board["players"][w]["name"] for w in board["winners"]]
    assert "won by " + names[0] in row.inner_text()
    watch = open_page(f"{table_server}/table/#game={game}")
    watch.wait_for_selector(board_at(board["version"]))
    end = watch.locator("#end")
    assert end.is_visible() and end.locator(".winners").get_attribute("data-winners") == ",".join(board["winners"])
    for colour in board["order"]:
        row = end.locator(f"table.final tr[data-player='{colour}']")
        external = sum(1 for planet, tokens in board["planets"].items()
                       if tokens.get(colour) and not planet.startswith(f"{colour}-"))
        assert row.locator("[data-foreign]").get_attribute("data-foreign") == str(external)
