"""Phone first: at 390x844 no page scrolls sideways, no text is under 12 px and no tap target under 44 px
(measured from the DOM), the decisions come before the board; six players' systems never overlap, on a phone
as on a desktop."""

from __future__ import annotations

import pytest

from tests.browser.conftest import board_at, measured, overlaps
from tests.browser.test_play import OPTIONS, SETUP
from tests.browser.test_replay import play_with_a_rewind

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def assert_fits_a_phone(page, what: str) -> dict:
    found = measured(page)
    assert found["scale"] == 1
    assert found["scroll_width"] <= found["width"] == 390, f"{what} scrolls sideways: {found['scroll_width']} px"
    assert not found["small_text"], f"{what}: text under 12 px: {found['small_text'][:10]}"
    assert not found["small_taps"], f"{what}: tap targets under 44 px: {found['small_taps'][:10]}"
    assert found["texts"] > 20 and found["taps"] > 3  # the page was measured, not empty
    return found


def test_the_lobby_fits_a_phone(api, open_page, table_server):
    api.game(3, options={"flares": False}, seed="phone-lobby", start=False)
    page = open_page(f"{table_server}/table/", **PHONE)
    assert_fits_a_phone(page, "the lobby")
    page.check("#ruleset-ffg")
    page.wait_for_selector("#create fieldset.options[data-ruleset='ffg']")
    page.locator("details.admin summary").click()
    page.click("#create-game")
    page.wait_for_selector("#seat-form[data-game]")
    assert_fits_a_phone(page, "the lobby's seats")


def test_the_table_fits_a_phone_and_its_decisions_come_before_the_board(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="phone-table")
    version = api.get(f"/games/{game}")["version"]
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **PHONE)
    page.wait_for_selector(board_at(version))
    page.wait_for_selector("#prompts fieldset.prompt")
    assert_fits_a_phone(page, "the table")
    decide = page.locator("#decide").bounding_box()
    board = page.locator("#board").bounding_box()
    assert decide["y"] < board["y"], "the decisions must come before the board"
    button = page.locator("#prompts button.do").first.bounding_box()
    assert button["y"] < board["y"]  # reachable without scrolling past the board


def test_an_ffg_alien_choice_fits_a_phone(api, open_page, table_server):
    game, tokens = api.game(3, ruleset="ffg", seed="phone-ffg")
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **PHONE)
    page.wait_for_selector("#prompts fieldset[data-kind='choose_power'] .sheet")
    assert_fits_a_phone(page, "the alien choice")


def test_the_replay_fits_a_phone_and_its_slider_stays_on_screen(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="phone-replay")
    play_with_a_rewind(api, game, tokens)
    head = api.get(f"/games/{game}")["version"]
    page = open_page(f"{table_server}/table/#game={game}&view=replay&token={tokens['blue']}", **PHONE)
    page.wait_for_selector(f"body[data-shown='{head}']")
    assert_fits_a_phone(page, "the replay")
    page.mouse.wheel(0, 1500)  # scrolled down to the board and the history...
    page.wait_for_timeout(200)
    for version in (head - 5, head - 20):
        page.eval_on_selector("#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", version)
        page.wait_for_selector(f"body[data-shown='{version}']")
        box = page.locator("#slider").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844  # ...the slider is still on screen


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_six_players_systems_never_overlap(api, open_page, table_server, size):
    game, tokens = api.game(6, options={"flares": False}, seed="six")
    board = api.get(f"/games/{game}")
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **size)
    page.wait_for_selector(board_at(board["version"]))
    assert page.locator("#board .system").count() == 6 and page.locator("#board .planet").count() == 30
    assert overlaps(page, "#board .system") == []
    assert overlaps(page, "#board .planet") == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
    for planet in page.locator("#board .planet").all():
        box = planet.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] and box["width"] >= 44
