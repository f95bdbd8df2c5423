"""Golden streams: games stored by an earlier engine keep folding, auditing and continuing.

The files under tests/golden/streams were recorded by `tests/golden/record.py`: five games of
stream format 1 with the engine of commit db4d922, two (``format2-*``) of stream format 2 with the
engine of commit b01b24e and two ``format2-ffg-*`` games of the Fantasy Flight edition, among its own
aliens and the shared ones it reads otherwise, with the engine of commit 311fc29, and one
(``format2-ffg2-*``) of that edition as issue 25 reads it (compensation by ships lost to the warp, the
encounter-long Cosmic Zap, powers chosen before the hands are dealt) with the engine of branch ffg-rules
(see its docstring):
complete games, with the final board and hands that engine folded. Every later engine change must
leave them readable: the same final state, a clean audit, an import that succeeds, and a game that
can be picked up in the middle and played on with legal moves.

A stream is stored without what sealing derives (``<name>.jsonl.xz``: each event as the engine
emitted it; the hashes, two per event and incompressible, were nearly all of its size). `lines_of`
seals the events again with today's `events.envelope`, under the game id and schema versions the
expect file records, and so rebuilds the lines the store held, byte for byte; the expect file's
``head_hash`` is the last hash of the chain as recorded, and the rebuilt chain must end at it. A
change to what is hashed or to the canonical JSON of these events, which would break every game
already stored, fails here.
"""

from __future__ import annotations

import functools
import json
import lzma
import random
from pathlib import Path

import fakeredis
import pytest

import engine
from engine import prompts
from engine.invariants import violations
from engine.simulate import legal_answer
from events.envelope import canonical_json, seal
from projections import views
from workers.audit import audit_lines
from workers.runtime import Runtime
from workers.settings import Settings
from workers.transfer import import_game, numbered

STREAMS = Path(__file__).parent / "streams"
NAMES = sorted(p.name[: -len(".jsonl.xz")] for p in STREAMS.glob("*.jsonl.xz"))
EMITTED = {"type", "payload", "actor", "time", "end"}


def stored_events(name: str) -> list[dict]:
    """The events as the file keeps them: as emitted, without their place in the stream or their hashes."""
    with lzma.open(STREAMS / f"{name}.jsonl.xz", "rt", encoding="utf-8") as file:
        return [json.loads(line) for line in file.read().splitlines()]


def lines_of(name: str) -> list[str]:
    """The game's stream as the store held it: one canonical JSON line per sealed event."""
    return list(_sealed_lines(name))


@functools.cache
def _sealed_lines(name: str) -> tuple[str, ...]:
    want = expected(name)
    sealed = seal(stored_events(name), want["game_id"], 0, "", want["schema_versions"].__getitem__)
    return tuple(canonical_json(event) for event in sealed)


def expected(name: str) -> dict:
    return json.loads((STREAMS / f"{name}.expect.json").read_text())


def recorded_parts(board: dict, recorded: dict) -> dict:
    """The parts of a board view that the recording holds: a view may gain parts (a pending decision's
    title, the edition's terms) without the game having changed; every recorded part must be equal."""
    kept = {key: board.get(key) for key in recorded}
    if "pending" in recorded and isinstance(kept.get("pending"), list):
        fields = {name for entry in recorded["pending"] for name in entry} or {"player", "kind", "deadline"}
        kept["pending"] = [{k: v for k, v in entry.items() if k in fields} for entry in kept["pending"]]
    return kept


def test_there_are_golden_streams_to_check():
    assert len(NAMES) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_stream_seals_again_to_the_chain_it_was_recorded_with(name):
    """Sealing the stored events again gives the hash chain the recording engine's store wrote: the same
    last hash. Hashes of stored games are checked on every read, audit and import, so they must never change."""
    assert all(set(event) <= EMITTED for event in stored_events(name)), "the file keeps only what sealing cannot derive"
    events = [json.loads(line) for line in lines_of(name)]
    assert len(events) == expected(name)["version"]
    assert events[-1]["hash"] == expected(name)["head_hash"]


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_stream_says_its_format(name):
    """Format 1 streams hold the agenda's every change; format 2 streams facts and bookmarks, each command
    ending with ``end``."""
    events = [json.loads(line) for line in lines_of(name)]
    created = events[0]
    kinds = {e["type"] for e in events}
    if name.startswith("format2-"):
        assert created["schema_version"] == 2 and created["payload"]["format"] == 2
        assert "Bookmark" in kinds and not kinds & {"StepsScheduled", "StepUpdated", "DecisionsOpened"}
        assert events[-1].get("end") is True
    else:
        assert created["schema_version"] == 1 and "format" not in created["payload"]
        assert "StepsScheduled" in kinds and "Bookmark" not in kinds


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_stream_folds_to_the_board_and_hands_it_was_recorded_with(name):
    events = [json.loads(line) for line in lines_of(name)]
    state = engine.fold(events)
    want = expected(name)
    assert (state["v"], state["status"], list(state.get("winners") or [])) == \
        (want["version"], want["status"], want["winners"])
    assert recorded_parts(views.board(state), want["board"]) == want["board"]
    assert {c: sorted(state["players"][c]["hand"]) for c in state["order"]} == want["hands"]


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_stream_audits_clean_and_imports(name):
    lines = lines_of(name)
    report = audit_lines(name, numbered(lines), total=len(lines))
    assert report.ok, report.problem
    runtime = Runtime(Settings(prefix="golden-test"), redis_client=fakeredis.FakeRedis())
    imported = import_game(runtime, lines)
    assert imported["version"] == expected(name)["version"]
    board = expected(name)["board"]
    assert recorded_parts(views.board(runtime.repository.current(imported["game_id"])), board) == board


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_game_picked_up_in_the_middle_plays_on_with_legal_moves(name):
    events = [json.loads(line) for line in lines_of(name)]
    middle = len(events) // 2
    while not (events[middle - 1].get("end") or events[middle - 1]["type"] == "DecisionsOpened") \
            and middle < len(events):
        middle += 1  # a version where the game waits for a decision (the end of a command; format 1: near it)
    state = engine.fold(events[:middle])
    assert state["status"] == "playing"
    rng = random.Random(name)
    at = state.get("time", 0)
    for _ in range(60):
        if state["status"] != "playing":
            break
        owed = prompts(state)
        assert owed, "a game being played always owes a decision"
        at += 1000
        _events, state = legal_answer(state, rng.choice(owed), rng, at)
        assert violations(state) == []


def test_an_ffg_game_stored_while_its_powers_were_being_chosen_goes_on_without_a_second_deal():
    """Before issue 25 an ``ffg`` game dealt the hands before the powers were chosen; its ``choose_powers`` step
    (no ``deal`` in the record) must not deal them again when today's engine takes the last choice."""
    events = [json.loads(line) for line in lines_of("format2-ffg-reserve-hacker-fido-reincarnator")]
    first_choice = next(k for k, e in enumerate(events) if e["type"] == "PowerChosen")
    stop = max(k for k in range(first_choice) if events[k].get("end")) + 1
    state = engine.fold(events[:stop])
    assert all(len(state["players"][c]["hand"]) == 8 for c in state["order"])  # dealt first, as then
    at = state.get("time", 0)
    while any(p["kind"] == "choose_power" for p in prompts(state)):
        owed = next(p for p in prompts(state) if p["kind"] == "choose_power")
        at += 1000
        made, state = engine.execute(state, {"action": "choose", "player": owed["player"],
                                             "args": {"power": owed["info"]["offered"][0]}, "at": at})
    assert not [e for e in made if e["type"] in ("DeckFormed", "CardsMoved")]
    assert all(len(state["players"][c]["hand"]) == 8 for c in state["order"]) and violations(state) == []
