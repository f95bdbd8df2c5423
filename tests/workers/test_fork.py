"""Forking a game (workers/fork.py): a new game whose stream starts with a re-sealed copy of the
original's first N events, on fakeredis and real Redis."""

from __future__ import annotations

import pytest

import engine
from events.envelope import verify_chain
from projections import views
from projections.errors import GameNotFound, VersionNotFound
from tests.workers.games import canonical, play, recorded_commands
from workers.audit import audit_game
from workers.errors import ForkRefused
from workers.fork import Origins, fork
from workers.rewind import has_deadlines, rewind


def test_a_fork_starts_with_a_resealed_copy_of_the_first_n_events(rt):
    commands = recorded_commands("fork", commands=90)
    n = play(rt, "orig", commands[:60])["v"]
    play(rt, "orig", commands[60:])
    assert not has_deadlines(rt.repository.state_at("orig", n))  # else the copy gains a marker (see below)
    made = fork(rt, "orig", n)
    fork_id = made["id"]
    assert made["version"] == n and made["forked_from"] == {"game": "orig", "version": n}
    original, copied = rt.store.read("orig", until=n), rt.store.read(fork_id)
    assert len(copied) == n
    assert verify_chain(copied, fork_id) == n            # its own chain, its own game id
    assert copied[-1]["hash"] != original[-1]["hash"]
    strip = ("game_id", "hash", "prev_hash")
    assert [{k: v for k, v in e.items() if k not in strip} for e in copied] == \
        [{k: v for k, v in e.items() if k not in strip} for e in original]
    # its state: the original's at n, with its own id; the cached one equals a refold
    state = rt.repository.current(fork_id)
    assert state["game_id"] == fork_id
    assert {k: v for k, v in state.items() if k != "game_id"} == \
        {k: v for k, v in rt.repository.state_at("orig", n).items() if k != "game_id"}
    assert canonical(engine.fold(copied)) == canonical(state)
    assert audit_game(rt.store, rt.repository, fork_id).ok
    assert Origins(rt.store).of(fork_id) == {"game": "orig", "version": n, "claimed": []}
    assert fork_id in [g["id"] for g in rt.index.list("playing")[0]]


def test_playing_a_fork_on_with_the_originals_commands_replays_the_original(rt):
    commands = recorded_commands("fork-replay", commands=100)
    n = play(rt, "orig", commands[:50])["v"]
    final = play(rt, "orig", commands[50:])
    fork_id = fork(rt, "orig", n)["id"]
    forked = play(rt, fork_id, commands[50:])
    assert {k: v for k, v in views.board(forked).items() if k not in ("game_id", "version")} == \
        {k: v for k, v in views.board(final).items() if k not in ("game_id", "version")}
    # a fork made while a deadline was open starts with a marker shifting the clock: one event more
    markers = sum(1 for e in rt.store.read(fork_id) if e["type"] == "GameRewound")
    assert forked["v"] == final["v"] + markers


def test_a_fork_copies_rewind_markers_with_their_meaning(rt):
    commands = recorded_commands("fork-rewound", commands=100)
    n = play(rt, "orig", commands[:40])["v"]
    play(rt, "orig", commands[40:70])
    rewind(rt, "orig", n, at=10**12)
    head = play(rt, "orig", commands[40:55])["v"]
    fork_id = fork(rt, "orig", None, new_id="named-fork")["id"]
    assert fork_id == "named-fork"
    rt.repository.forget_all()
    assert {k: v for k, v in rt.repository.current(fork_id).items() if k != "game_id"} == \
        {k: v for k, v in rt.repository.current("orig").items() if k != "game_id"}
    assert rt.store.version(fork_id) == head


def test_forks_that_cannot_be_made_write_nothing(rt):
    play(rt, "orig", recorded_commands("fork-bad", commands=30))
    head = rt.store.version("orig")
    with pytest.raises(GameNotFound):
        fork(rt, "nothing-here", 3)
    for bad in (0, head + 1):
        with pytest.raises(VersionNotFound):
            fork(rt, "orig", bad)
    with pytest.raises(ForkRefused, match="being applied"):
        fork(rt, "orig", 5, new_id="mid-start")   # during `start`: nobody owes a decision yet
    assert not rt.store.exists("mid-start")
    play(rt, "taken", recorded_commands("other", commands=5))
    with pytest.raises(ForkRefused, match="already a game"):
        fork(rt, "orig", head, new_id="taken")
    assert rt.store.version("taken") == rt.repository.current("taken")["v"]


def test_a_fork_of_a_lobby_version_is_a_lobby_game(rt):
    play(rt, "orig", recorded_commands("fork-lobby", commands=20))
    made = fork(rt, "orig", 2)  # created, one player seated
    assert made["status"] == "lobby" and made["players"] == ["red"]
    joined = rt.commands.run(made["id"], {"action": "join", "name": "newcomer", "at": 1}).state
    assert len(joined["order"]) == 2


def test_deadlines_owed_at_n_start_afresh_in_the_fork(rt):
    commands = recorded_commands("fork-clock", commands=30, options={"decision_seconds": 60})
    at_n = play(rt, "orig", commands[:20])
    play(rt, "orig", commands[20:])
    deadlines = {k: v for k, v in at_n["clock"].items() if v is not None}
    made = fork(rt, "orig", at_n["v"], at=at_n["time"] + 86_400_000)
    assert made["version"] == at_n["v"] + 1
    marker = rt.store.read(made["id"])[-1]
    assert marker["type"] == "GameRewound" and marker["payload"]["by"] == "fork"
    assert marker["payload"]["to_version"] == at_n["v"] and marker["payload"]["clock_shift"] == 86_400_000
    state = rt.repository.current(made["id"])
    assert {k: state["clock"][k] for k in deadlines} == {k: v + 86_400_000 for k, v in deadlines.items()}
    assert state["ply"] == at_n["ply"]
    rt.repository.forget_all()
    assert canonical(rt.repository.current(made["id"])) == canonical(state)
