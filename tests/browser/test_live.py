"""Live: the page follows the game through the SSE stream and resumes after the server drops it.

The test server closes every stream after ``SSE_SECONDS`` (as ``COSMIC_SSE_MAX_SECONDS`` does in
service), so a page that stays open must reconnect with ``Last-Event-ID`` and must neither miss
nor repeat an event.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ADMIN_TOKEN, SSE_SECONDS, board_at, drawn_board, expected_board

pytestmark = pytest.mark.browser


def logged_seqs(page) -> list[int]:
    return page.evaluate("() => [...document.querySelectorAll('#log li')].map(li => Number(li.dataset.seq))")


def test_a_page_reconnects_after_the_server_drops_its_stream_and_misses_nothing(api, open_page, table_server):
    game, tokens = api.game(3, setup={"first": "red"}, options={"flares": False, "edicts": False})
    streams = []
    page = open_page(f"{table_server}/table/#game={game}")
    page.on("request", lambda r: streams.append(r.headers.get("last-event-id")) if r.url.endswith("/stream") else None)
    version = api.get(f"/games/{game}")["version"]
    page.wait_for_selector(board_at(version))
    page.wait_for_selector("#live[data-state='connected']")
    seen = api.get(f"/games/{game}/events?after=0&limit=1000")["events"]
    page.wait_for_function(f"() => Number(document.querySelector('#log').dataset.last) === {seen[-1]['seq']}")

    # the server ends the stream after SSE_SECONDS: the page comes back by itself, from where it was
    page.wait_for_function("() => Number(document.querySelector('#live').dataset.reconnects) >= 1",
                           timeout=(SSE_SECONDS + 10) * 1000)
    page.wait_for_selector("#live[data-state='connected']")
    assert streams[-1] == str(seen[-1]["seq"])  # the reconnect asked for what follows the last event it had

    # play on through the API: the reconnected page shows the new events and the new board
    api.answer(game, tokens[api.get(f"/games/{game}")["pending"][0]["player"]])
    after = api.get(f"/games/{game}")
    assert after["version"] > version
    page.wait_for_selector(board_at(after["version"]), timeout=10000)
    feed = [e["seq"] for e in api.get(f"/games/{game}/events?after=0&limit=1000")["events"]]
    page.wait_for_function(f"() => Number(document.querySelector('#log').dataset.last) === {feed[-1]}")
    assert logged_seqs(page) == feed  # each visible event once, in order, across the reconnect


def test_a_page_comes_back_after_losing_the_network(api, open_page, table_server):
    game, tokens = api.game(3, setup={"first": "red"}, options={"flares": False, "edicts": False}, seed="offline")
    page = open_page(f"{table_server}/table/#game={game}")
    page.wait_for_selector("#live[data-state='connected']")
    before = int(page.locator("#live").get_attribute("data-reconnects"))
    page.context.set_offline(True)
    api.answer(game, tokens[api.get(f"/games/{game}")["pending"][0]["player"]])
    page.wait_for_timeout(500)
    page.context.set_offline(False)
    page.wait_for_function(f"() => Number(document.querySelector('#live').dataset.reconnects) > {before}",
                           timeout=(SSE_SECONDS + 10) * 1000)
    version = api.get(f"/games/{game}")["version"]
    page.wait_for_selector(board_at(version), timeout=20000)
    page.wait_for_selector("#live[data-state='connected']", timeout=20000)
    feed = [e["seq"] for e in api.get(f"/games/{game}/events?after=0&limit=1000")["events"]]
    page.wait_for_function(f"() => Number(document.querySelector('#log').dataset.last) === {feed[-1]}")
    assert logged_seqs(page) == feed


def test_a_watchers_page_follows_a_game_of_bots_to_its_end(api, open_page, table_server):
    game, _ = api.game(3, options={"flares": False, "edicts": False}, seed="bots", start=False,
                       bots={0: "heuristic", 1: "heuristic", 2: "heuristic"})
    page = open_page(f"{table_server}/table/#game={game}")
    page.wait_for_selector("#live[data-state='connected']")
    api.post(f"/games/{game}/start", {}, ADMIN_TOKEN)  # the bots play it out while the page watches
    page.wait_for_selector("body[data-status='finished']", timeout=240000)
    board = api.get(f"/games/{game}")
    assert board["status"] == "finished" and board["winners"]
    page.wait_for_selector(board_at(board["version"]))
    assert drawn_board(page) == expected_board(board)
    # the stream catches up after the board does (it is read in 3-second connections): then the server says
    # the game is over, and the page stops reconnecting
    page.wait_for_selector("#live[data-state='ended']", timeout=240000)
    feed = api.event_seqs(game)
    logged = logged_seqs(page)
    assert logged == feed[-len(logged):]  # the log keeps the latest 400 entries: each once, in order, none missed
