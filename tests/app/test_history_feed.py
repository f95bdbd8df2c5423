"""The event feed, the live stream and a player's export across a rewind (fakeredis and real Redis).

A rewind keeps the abandoned line in the stream: its private facts (a card drawn before the
rewind) stay private on every read path, like any other event's. And a game rewound after
its end goes on, so its stream does not stop at the abandoned ``GameEnded``.
"""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import sse_messages, whole_log
from tests.workers.games import play, recorded_commands
from workers.rewind import rewind


def private_to_others(events: list[dict], viewer: str | None) -> set[int]:
    """The seqs of card movements ``viewer`` may not see (seen only by other seats)."""
    return {e["seq"] for e in events if e["type"] in ("CardsMoved", "ChallengeCardChosen")
            and e["payload"].get("seen_by") is not None and viewer not in e["payload"]["seen_by"]}


def check_hidden(shown: list[dict], hidden: set[int]) -> None:
    """Every event of ``hidden`` that was shown carries no card, and no event carries a hash."""
    for event in shown:
        assert "hash" not in event and "prev_hash" not in event
        if event["seq"] in hidden:
            cards = event["payload"].get("cards", event["payload"].get("card"))
            assert cards is None or set(cards) == {None}, event
        if event["type"] == "GameCreated":
            assert event["payload"]["seed"] is None


@pytest.fixture
def finished_then_rewound(runtime, seated):
    """A 2-player game played to its end, whose stream also holds a line abandoned by a rewind before it.

    Returns the game (`Seated`) with ``n`` (the rewind's target) and ``abandoned`` (the seqs of the
    abandoned line).
    """
    commands = recorded_commands("feed-rewind", commands=10**6, players=2)
    n = play(runtime, "g", commands[:30])["v"]
    head = play(runtime, "g", commands[30:60])["v"]
    rewind(runtime, "g", n)
    game = seated("g", commands[30:])
    assert game.state["status"] == "finished"
    game.n, game.abandoned = n, set(range(n + 1, head + 1))
    return game


@pytest.mark.parametrize("viewer", ["red", None])
def test_an_abandoned_lines_private_cards_stay_private_in_the_feed_the_stream_and_the_export(
        client, runtime, finished_then_rewound, viewer):
    game = finished_then_rewound
    headers = game.as_(viewer) if viewer else {}
    hidden = private_to_others(runtime.store.read("g"), viewer)
    assert hidden & game.abandoned, "others were dealt private cards in the abandoned line"

    feed = whole_log(client, "g", headers)
    streamed = [m["data"] for m in sse_messages(client.get("/games/g/stream", headers=headers)
                                                .get_data(as_text=True)) if m["event"] != "end"]
    export = client.get("/games/g/export", headers=headers)
    assert export.status_code == 200 and export.headers["X-Cosmic-Export"] == "redacted"
    exported = [json.loads(line) for line in export.get_data(as_text=True).splitlines()]
    for shown in (feed, streamed, exported):
        assert {e["seq"] for e in shown} >= game.abandoned & {e["seq"] for e in feed}
        assert "GameRewound" in [e["type"] for e in shown]
        check_hidden(shown, hidden)
    assert streamed == feed == exported


def test_a_game_rewound_after_its_end_streams_on_past_the_abandoned_end(client, runtime, seated):
    commands = recorded_commands("feed-reopened", commands=10**6, players=2, options={"honeymoon": True})
    n = play(runtime, "g", commands[:30])["v"]
    ended = seated("g", commands[30:]).state
    assert ended["status"] == "finished"
    rewind(runtime, "g", n)
    more = play(runtime, "g", commands[30:40])["v"]
    got = sse_messages(client.get("/games/g/stream", query_string={"timeout": 0.5}).get_data(as_text=True))
    types = [m["event"] for m in got]
    assert "GameEnded" in types and "end" not in types
    assert types[types.index("GameEnded") + 1] == "GameRewound"
    from projections.log import visible
    last_public = max(e["seq"] for e in runtime.store.read("g") if visible(e, None))
    assert ended["v"] < last_public <= more and int(got[-1]["id"]) == last_public
    # resuming right after the abandoned end goes on too
    resumed = sse_messages(client.get("/games/g/stream", query_string={"timeout": 0.5},
                                      headers={"Last-Event-ID": str(ended["v"])}).get_data(as_text=True))
    assert resumed[0]["event"] == "GameRewound" and "end" not in [m["event"] for m in resumed]
