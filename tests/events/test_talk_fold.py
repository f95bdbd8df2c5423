"""Table talk changes no game (issue 26): a golden game's stream with messages put between its events folds to the
same state, draw for draw, as without them; only the stream version counts them."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

import engine
from engine.rewind import Replay

STREAMS = sorted((Path(__file__).resolve().parents[1] / "golden" / "streams").glob("*.jsonl.xz"))


def said(k: int, colours: list[str]) -> dict:
    speaker, other = colours[k % len(colours)], colours[(k + 1) % len(colours)]
    to = other if k % 2 else None
    return {"type": "MessageSent", "actor": speaker, "time": 10**13 + k,
            "payload": {"player": speaker, "to": to, "text": f"message {k}", "seen_by": [speaker, to] if to else None}}


def without_version(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "v"}


@pytest.mark.parametrize("path", [p for p in STREAMS if "format2" in p.name], ids=lambda p: p.name.split(".")[0])
def test_a_stream_with_talk_folds_to_the_game_without_it(path):
    events = [json.loads(line) for line in lzma.open(path, "rt", encoding="utf-8")]
    assert not any(e["type"] == "GameRewound" for e in events)  # a marker names versions the talk would move
    colours = [e["payload"]["player"] for e in events if e["type"] == "PlayerJoined"]
    quiet, chatty, inserted = Replay(), Replay(), 0
    for k, event in enumerate(events):
        quiet.apply(event)
        chatty.apply(event)
        if k > len(colours) and k % 7 == 0:  # after the seats are taken: a message every seventh event
            before = without_version(chatty.state)
            chatty.apply(said(k, colours))
            inserted += 1
            assert without_version(chatty.state) == before  # not even the game's time or its rest moved
        assert without_version(chatty.state) == without_version(quiet.state)
    assert inserted > 50 and chatty.state["v"] == quiet.state["v"] + inserted
    assert without_version(engine.fold(events)) == without_version(chatty.state)
