""""You must…" first: the status bar says whose move it is, what is asked and the time left as a countdown; a
refused answer is shown beside its prompt with its rule and clears nothing the player set; a planet is aimed
at and ships are launched by tapping the board; a page for a game that does not exist says so and stops."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import board_at
from tests.browser.test_play import OPTIONS, SETUP

pytestmark = pytest.mark.browser


def test_the_status_bar_says_who_must_do_what_with_a_countdown(api, open_page, table_server):
    game, tokens = api.game(3, setup=SETUP, options={**OPTIONS, "decision_seconds": 600}, seed="status")
    board = api.get(f"/games/{game}")
    owed = board["pending"][0]
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844)
    page.wait_for_selector(board_at(board["version"]))
    status = page.locator("#status")
    assert status.get_attribute("data-state") == "yours" and owed["player"] == "red"
    assert status.locator(".status-what").inner_text() == owed["title"]
    assert page.title().startswith("● Your move")
    first = status.locator(".countdown").inner_text()
    assert re.fullmatch(r"\d+:\d\d", first) and 9 * 60 <= int(first.split(":")[0]) * 60 + int(first.split(":")[1]) <= 600
    page.wait_for_timeout(2200)
    assert status.locator(".countdown").inner_text() != first  # it counts down
    other = open_page(f"{table_server}/table/#game={game}&token={tokens['blue']}", width=390, height=844)
    other.wait_for_selector(board_at(board["version"]))
    assert other.locator("#status").get_attribute("data-state") == "waiting"
    assert other.locator("#status .status-who").inner_text().startswith(f"Waiting for {board['players']['red']['name']}")
    assert not other.title().startswith("●")


def test_a_refused_launch_is_explained_beside_it_and_clears_nothing_then_the_board_is_tapped_to_launch(
        api, open_page, table_server, shots):
    game, tokens = api.game(3, setup=SETUP, options=OPTIONS, seed="refused")
    page = open_page(f"{table_server}/table/#game={game}&token={tokens['red']}", width=390, height=844)
    prompt = api.get(f"/games/{game}/prompts", tokens["red"])["prompts"][0]
    box = page.locator(f"fieldset[data-prompt='{prompt['id']}']")
    box.wait_for()
    page.locator("#board button.planet[data-planet='blue-2']").click()  # aimed by tapping the planet
    option = box.locator(".option[data-action='launch']")
    assert option.locator("[data-arg='planet'] label.pick[data-value='blue-2'] input").is_checked()
    option.locator("button.do").click()  # no ship on the gate yet: refused
    refusal = box.locator(".refusal")
    refusal.wait_for(state="visible")
    assert re.search(r"\(rule [^)]+\)$", refusal.inner_text())
    assert option.locator("[data-arg='planet'] label.pick[data-value='blue-2'] input").is_checked()  # kept
    for _ in range(2):
        page.locator("#board button.planet[data-planet='red-2']").click()  # a ship from red-2 per tap
    assert option.locator("[data-source='red-2'] output.n").inner_text() == "2"
    option.locator("button.do").click()
    box.wait_for(state="detached")
    board = api.get(f"/games/{game}")
    assert board["challenge"]["planet"] == "blue-2" and board["cone"]["offense"] == {"red": 2}


def test_a_page_for_a_game_that_does_not_exist_says_so_and_stops(api, open_page, table_server):
    streams = []
    page = open_page(f"{table_server}/table/#game=no-such-game", width=390, height=844)
    page.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
    page.wait_for_selector("body[data-gone='1']")
    assert "no-such-game" in page.locator("#error").inner_text()
    page.wait_for_timeout(4000)
    assert streams == []  # no stream opened, none retried
    # a stream the server refuses for good (the game is gone) is not tried again either
    states = page.evaluate("""async () => {
        const {Live} = await import('/table/live.js');
        const {Api} = await import('/table/api.js');
        const states = [];
        await new Promise((done) => new Live('no-such-game', new Api(null), {onEvent: () => {},
            onState: (state) => states.push(state), onGone: (status) => { states.push(status); done(); }}).start(0));
        await new Promise((wait) => setTimeout(wait, 3000));
        return states;
    }""")
    assert states == ["gone", 404] and len(streams) == 1
