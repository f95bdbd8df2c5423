"""The server-sent-events feed: catch-up, live tail, resume with Last-Event-ID, the end of a game."""

from __future__ import annotations

import threading
import time

from tests.app.conftest import sse_messages as messages
from tests.app.conftest import whole_log


def test_a_finished_game_streams_every_visible_event_then_end(api_game, client):
    game = api_game(seats=2, seed="stream-end").moves()
    got = messages(client.get(game.url("/stream")).get_data(as_text=True))
    assert got[-1]["event"] == "end"
    events = got[:-1]
    served = []
    after = 0
    while True:
        page = client.get(game.url(f"/events?after={after}&limit=1000")).json
        served += page["events"]
        after = page["next_after"]
        if not page["more"]:
            break
    assert [m["data"] for m in events] == served
    assert [int(m["id"]) for m in events] == [e["seq"] for e in served]


def test_resume_with_last_event_id(api_game, client):
    # (a game of a few hundred moves, not played to its end: a whole random game can take more than the
    # test settings' 5 s of stream to send on a loaded machine, and the point is the resume)
    game = api_game(seats=2, seed="stream-resume").moves(150)
    whole = messages(client.get(game.url("/stream?timeout=1")).get_data(as_text=True))
    assert [m["data"] for m in whole] == whole_log(client, game.id)  # every event the viewer may see, caught up
    middle = whole[len(whole) // 2]
    rest = messages(client.get(game.url("/stream?timeout=1"), headers={"Last-Event-ID": middle["id"]})
                    .get_data(as_text=True))
    assert [m["id"] for m in rest] == [m["id"] for m in whole[len(whole) // 2 + 1:]]
    assert [m["id"] for m in messages(client.get(game.url(f"/stream?after={middle['id']}&timeout=1"))
                                      .get_data(as_text=True))] == [m["id"] for m in rest]


def test_live_events_arrive_while_the_stream_is_open(api_game, app):
    game = api_game(seats=3, seed="stream-live", moves=2)
    start = game.last["version"]
    reader = app.test_client()
    bodies = []

    def listen():
        response = reader.get(game.url(f"/stream?after={start}&timeout=3"))
        bodies.append(response.get_data(as_text=True))

    thread = threading.Thread(target=listen)
    thread.start()
    time.sleep(0.3)
    game.moves(3)
    thread.join(10)
    got = messages(bodies[0])
    assert got and int(got[0]["id"]) > start
    assert int(got[-1]["id"]) <= game.last["version"]
    assert ": keep-alive" in bodies[0] or got


def test_the_stream_is_redacted_for_its_viewer(api_game, client):
    game = api_game(seats=3, seed="stream-private", moves=3)
    anonymous = messages(client.get(game.url("/stream?timeout=0.3")).get_data(as_text=True))
    red = messages(client.get(game.url("/stream?timeout=0.3"), headers=game.as_("red")).get_data(as_text=True))
    draws = [(a["data"], r["data"]) for a, r in zip(anonymous, red, strict=True)
             if a["event"] == "CardsMoved" and a["data"]["payload"]["dst"] == "hand:red"]
    assert draws
    for seen_by_anyone, seen_by_red in draws:
        assert set(seen_by_anyone["payload"]["cards"]) == {None}
        assert None not in seen_by_red["payload"]["cards"]
    assert all("hash" not in m["data"] for m in anonymous)


def test_stream_errors_are_problems(client):
    response = client.get("/games/nobody/stream")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
