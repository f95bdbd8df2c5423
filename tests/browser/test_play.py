"""Play: three pages, one per seat, play a stacked game to its end by clicking the prompts.

The setup (docs/setup.md) makes a short game that still asks for every kind of control the
rules use here: red already has four external bases; it launches (a choice and a distribution),
invites (a subset), yellow joins as an ally (a distribution), both main players play Compromises
(a choice), the ally takes its tokens home (a distribution), and red wins by a deal (the free-form
deal terms) that gives it a fifth base, where it moves a token from the cone (a distribution). A refused answer shows the problem's ``detail``. At every
step no page shows a card of another seat that its own feed has not shown it.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ADMIN_TOKEN, board_at, drawn_board, expected_board

pytestmark = pytest.mark.browser

SETUP = {"powers": {"red": [], "blue": [], "yellow": []}, "first": "red", "destiny_top": ["blue.1"],
         "hands": {"red": ["C", "C", "A8"], "blue": ["C", "A8", "A12"], "yellow": ["C", "A4"]},
         "exact_hands": ["red", "blue", "yellow"],
         "tokens": {"red-0": {"red": 2}, "red-1": {"red": 2}, "blue-0": {"blue": 4, "red": 1},
                    "blue-1": {"blue": 4, "red": 1}, "yellow-0": {"yellow": 4, "red": 1},
                    "yellow-1": {"yellow": 4, "red": 1}}}
OPTIONS = {"flares": False, "edicts": False, "reinforcements": False, "reverse_cone": False}


def mentions(text: str, card: str) -> bool:
    """Whether ``text`` names this card id (``C.1`` is not named by ``C.17``)."""
    return re.search(r"(?<![A-Za-z0-9.:+])" + re.escape(card) + r"(?![0-9A-Za-z]|\.\d)", text) is not None


def secret_cards(api, game: str, tokens: dict, colour: str) -> set[str]:
    """The cards other seats hold that ``colour``'s own views (its hand, its feed) never showed it."""
    known = api.call("GET", f"/games/{game}/events?after=0&limit=1000", tokens[colour]).text
    known += " ".join(api.get(f"/games/{game}/hand", tokens[colour])["cards"])
    others = [c for other, token in tokens.items() if other != colour
              for c in api.get(f"/games/{game}/hand", token)["cards"]]
    return {card for card in others if not mentions(known, card)}


def check_secrecy(api, game: str, tokens: dict, pages: dict) -> int:
    """No page shows another seat's card that its own feed did not show it; how many secrets were checked."""
    checked = 0
    for colour, page in pages.items():
        html = page.content()
        for card in secret_cards(api, game, tokens, colour):
            assert not mentions(html, card), f"{colour}'s page shows {card}, a card it may not see"
            checked += 1
    return checked


def click_prompt(page, prompt: dict, colour: str, shots) -> None:
    """Answer one prompt on the page by clicking, as a player would."""
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")
    kind = prompt["kind"]
    if kind == "launch":
        option = box.locator(".option[data-action='launch']")
        option.locator("[data-arg='planet'] label.pick[data-value='blue-2']").click()
        for _ in range(2):
            option.locator("[data-arg='tokens'] [data-source='red-2'] button.more").click()
        option.locator("button.do").click()
    elif kind == "invite":
        option = box.locator(".option[data-action='invite']")
        if colour == "red":
            option.locator("label.pick[data-value='yellow']").click()
        option.locator("button.do").click()
    elif kind == "alliance":
        option = box.locator(".option[data-action='join']")
        option.locator("[data-source='yellow-2'] button.more").click()
        option.locator("button.do").click()
    elif kind == "challenge_card":
        option = box.locator(".option[data-action='play']")
        option.locator("label.pick[data-value^='C.']").first.click()
        option.locator("button.do").click()
    elif kind == "place_tokens":
        option = box.locator(".option").first
        option.locator(".source button.more").first.click()
        option.locator("button.do").click()
    elif kind == "take_base":
        option = box.locator(".option[data-action='place']")
        option.locator("[data-source='cone:offense'] button.more").click()
        option.locator("button.do").click()
    elif kind == "deal" and colour == "red":
        option = box.locator(".option[data-action='propose']")
        option.locator("button.do").click()  # nothing offered: refused, and the page says why
        refusal = box.locator(".refusal")
        refusal.wait_for(state="visible")  # beside the prompt, with its rule
        assert refusal.inner_text().startswith("at least one player must receive a card or a base (rule ")
        option.locator(".deal-side[data-side='offense'] .gets-base label.pick[data-value='blue-3']").click()
        page.locator("#status").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "deal.png"), full_page=True)
        option.locator("button.do").click()
    elif kind == "deal":
        option = box.locator(".option[data-action='accept']")
        option.locator("label.pick").first.click()
        option.locator("button.do").click()
    else:
        raise AssertionError(f"the stacked game asked for an unexpected decision: {prompt}")


def test_three_pages_play_a_game_to_its_end_by_clicking(api, open_page, table_server, shots):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="three-pages")
    pages = {colour: open_page(f"{table_server}/table/#game={game}&token={token}")
             for colour, token in tokens.items()}
    for colour, page in pages.items():
        assert page.locator("#who").get_attribute("data-player") == colour
    requests = {colour: [] for colour in pages}
    for colour, page in pages.items():
        page.on("request", lambda r, c=colour: requests[c].append((r.url, r.headers.get("authorization"))))
    kinds, secrets_checked = [], 0
    for _ in range(40):
        board = api.get(f"/games/{game}")
        if board["status"] == "finished":
            break
        acted = False
        for colour in dict.fromkeys(p["player"] for p in board["pending"]):
            prompt = api.get(f"/games/{game}/prompts", tokens[colour])["prompts"][0]
            page = pages[colour]
            page.wait_for_selector(f"fieldset[data-prompt='{prompt['id']}']", timeout=15000)
            if prompt["kind"] == "deal" and colour != "red" and not any(
                    o["action"] == "accept" for o in prompt["options"]):
                continue  # blue waits for red's proposal
            if prompt["kind"] == "deal" and colour == "red" and "deal" in kinds:
                continue  # red proposed: it waits for blue's answer
            if prompt["kind"] == "challenge_card" and colour == "red":
                page.wait_for_selector("#board .cone")
                page.screenshot(path=str(shots / "board-mid-game.png"), full_page=True)
                assert drawn_board(page) == expected_board(api.get(f"/games/{game}"))
            click_prompt(page, prompt, colour, shots)
            page.wait_for_function(f"() => !document.querySelector(\"fieldset[data-prompt='{prompt['id']}']\")"
                                   f" || Number(document.body.dataset.version) > {board['version']}")
            kinds.append(prompt["kind"])
            acted = True
            break
        assert acted, f"nobody could act: {board['pending']}"
        secrets_checked += check_secrecy(api, game, tokens, pages)
    board = api.get(f"/games/{game}")
    assert board["status"] == "finished" and board["winners"] == ["red"], kinds
    assert kinds == ["launch", "invite", "invite", "alliance", "challenge_card", "challenge_card",
                     "place_tokens", "deal", "deal", "take_base", "place_tokens"]
    assert board["planets"]["blue-3"]["red"] >= 1  # the base the deal gave
    for colour, page in pages.items():
        page.wait_for_selector(f"body[data-status='finished'][data-version='{board['version']}']", timeout=15000)
        assert page.locator("#end .winners").get_attribute("data-winners") == "red"
        assert page.locator("#status").get_attribute("data-state") == "finished"
        assert drawn_board(page) == expected_board(board)
        # each page spoke to the API only, with its own seat's token (no other seat's, no admin's)
        assert {auth for url, auth in requests[colour] if "/games/" in url} == {f"Bearer {tokens[colour]}"}
        assert not any("player=" in url or "/admin/" in url for url, _ in requests[colour])
    assert secrets_checked > 0


def test_a_seats_page_shows_its_own_hand_and_never_another_seats_cards(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="secrecy")
    hands = {colour: api.get(f"/games/{game}/hand", token)["cards"] for colour, token in tokens.items()}
    assert len({c for cards in hands.values() for c in cards}) == 8  # eight different cards
    pages = {colour: open_page(f"{table_server}/table/#game={game}&token={token}")
             for colour, token in tokens.items()}
    version = api.get(f"/games/{game}")["version"]
    for colour, page in pages.items():
        page.wait_for_selector(f"body[data-version='{version}'] #hand li.hand-card")
        shown = page.eval_on_selector_all("#hand li.hand-card", "items => items.map(i => i.dataset.card)")
        assert shown == hands[colour]
        html = page.content()
        for other, cards in hands.items():
            if other != colour:
                assert not [c for c in cards if mentions(html, c)], f"{colour}'s page shows {other}'s cards"
    # a watcher without a token sees nobody's hand
    watcher = open_page(f"{table_server}/table/#game={game}")
    watcher.wait_for_selector(board_at(version))
    html = watcher.content()
    assert not [c for cards in hands.values() for c in cards if mentions(html, c)]


def test_the_admins_page_answers_for_the_seat_that_owes_the_decision(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="admin-page")
    prompt = api.get(f"/games/{game}/prompts", tokens["red"])["prompts"][0]
    page = open_page(f"{table_server}/table/#game={game}&token={ADMIN_TOKEN}")
    assert page.locator("#who").get_attribute("data-player") == "admin"
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")  # red's launch, shown to the admin
    option = box.locator(".option[data-action='launch']")
    option.locator("[data-arg='planet'] label.pick[data-value='blue-2']").click()
    option.locator("[data-arg='tokens'] [data-source='red-2'] button.more").click()
    option.locator("button.do").click()
    box.wait_for(state="detached")
    board = api.get(f"/games/{game}")
    assert board["challenge"]["planet"] == "blue-2" and board["cone"]["offense"] == {"red": 1}
    assert board["planets"]["red-2"] == {"red": 3}
