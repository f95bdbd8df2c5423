"""Accessibility: axe-core (axe-playwright-python) finds no serious or critical violation on the lobby, the
table (a seat's page with its decisions, an FFG alien choice, a finished game) and the replay, at phone and
desktop sizes."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ADMIN_TOKEN, board_at
from tests.browser.test_play import OPTIONS, SETUP
from tests.browser.test_replay import play_with_a_rewind

pytestmark = pytest.mark.browser
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


@pytest.fixture(scope="module")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.skip("no accessibility checker: axe-playwright-python is not installed (pip install -e '.[test]')")
    return Axe()


def serious(axe, page) -> list:
    """The serious and critical violations axe-core reports on the page, each with the elements it names."""
    results = axe.run(page)
    found = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5])
             for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert results.response.get("passes") is not None or results.response["violations"] is not None
    return found


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_lobby_the_table_and_the_replay_have_no_serious_accessibility_violation(
        api, open_page, table_server, axe, size):
    viewport = SIZES[size]
    lobby = open_page(f"{table_server}/table/", **viewport)
    assert serious(axe, lobby) == []
    lobby.click("#create-game")
    lobby.wait_for_selector("#seat-form[data-game]")
    assert serious(axe, lobby) == []

    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed=f"axe-{size}")
    table = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", **viewport)
    table.wait_for_selector("#prompts fieldset.prompt")
    assert serious(axe, table) == []

    ffg, seat = api.game(3, ruleset="ffg", seed=f"axe-ffg-{size}")
    choice = open_page(f"{table_server}/table/#game={ffg}&token={seat['red']}", **viewport)
    choice.wait_for_selector("#prompts fieldset[data-kind='choose_power'] .sheet")
    assert serious(axe, choice) == []

    replayed, replay_tokens = api.game(3, setup=SETUP, options=OPTIONS, seed=f"axe-replay-{size}")
    play_with_a_rewind(api, replayed, replay_tokens)
    head = api.get(f"/games/{replayed}")["version"]
    replay = open_page(f"{table_server}/table/#game={replayed}&view=replay&token={ADMIN_TOKEN}", **viewport)
    replay.wait_for_selector(f"body[data-shown='{head}']")
    assert serious(axe, replay) == []
    finished = open_page(f"{table_server}/table/#game={replayed}&token={replay_tokens['red']}", **viewport)
    finished.wait_for_selector(board_at(head))
    finished.wait_for_selector("#end:not([hidden])")
    assert serious(axe, finished) == []
