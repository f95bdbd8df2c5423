"""Rewind markers in a fold (engine/rewind.py): the state after ``GameRewound`` is the state at its
target version, continued at the stream's version, and the random draws follow the line of play."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine.evolve import BOOKKEEPING
from engine.players import random_command
from engine.rewind import REWOUND, Replay, at_rest, fold, rewound
from engine.simulate import new_game


def canonical(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def marker(to_version: int, at: int = 0, clock_shift: int | None = None) -> dict:
    return {"type": REWOUND, "payload": {"to_version": to_version, "by": "admin", "players": None,
                                         "clock_shift": clock_shift}, "actor": "admin", "time": at}


def played(seed: str, commands: int, state=None, log=None, rng=None, start_at: int = 1000):
    """Random legal commands from a started game (or the given state); returns (state, events, commands)."""
    if state is None:
        state, log = new_game(seed, 3)
    rng = rng or random.Random(seed)
    done = []
    for k in range(commands):
        prompt = rng.choice(engine.prompts(state))
        for _ in range(50):
            command = random_command(state, prompt, rng)
            command["at"] = start_at + 1000 * k
            try:
                events, state = engine.execute(state, command)
            except engine.EngineError:
                continue
            log = log + events
            done.append(command)
            break
    return state, log, done


def replay_commands(state: dict, commands: list[dict]) -> tuple[dict, list[dict]]:
    log = []
    for command in commands:
        events, state = engine.execute(state, command)
        log += events
    return state, log


def test_the_state_after_a_marker_is_the_state_at_its_target_at_the_streams_version():
    _, log, _ = played("m1", 40)
    n = 60
    at_n = fold(log[:n])
    after = fold(log + [marker(n)])
    assert after["v"] == len(log) + 1 and after["ply"] == at_n["ply"]
    same = {k: v for k, v in after.items() if k not in ("v", "ply", "time")}
    assert same == {k: v for k, v in at_n.items() if k not in ("v", "ply", "time")}


def test_playing_on_after_a_rewind_draws_what_a_fresh_game_played_to_n_draws():
    state, log, _ = played("m2", 30)
    n = len(log)
    abandoned_state, abandoned, _ = played("m2", 25, state, log, random.Random("other"), start_at=10**6)
    rewound_state = fold(abandoned + [marker(n, at=2 * 10**6)])
    # the same commands after the rewind and after version n of a fresh game
    _, _, next_commands = played("m2", 25, state, log, random.Random("next"), start_at=3 * 10**6)
    fresh_after, fresh_events = replay_commands(state, next_commands)
    rewound_after, rewound_events = replay_commands(rewound_state, next_commands)
    assert [e["payload"] for e in rewound_events] == [e["payload"] for e in fresh_events]
    assert rewound_after["v"] == fresh_after["v"] + len(abandoned) - n + 1
    assert rewound_after["ply"] == fresh_after["ply"]
    assert fresh_after["ply"] == sum(e["type"] not in BOOKKEEPING for e in log + fresh_events)
    strip = ("v",)
    assert {k: v for k, v in rewound_after.items() if k not in strip} == \
        {k: v for k, v in fresh_after.items() if k not in strip}
    # and folding the whole stream (marker included) gives the state execute returned
    assert canonical(fold(abandoned + [marker(n, at=2 * 10**6)] + rewound_events)) == canonical(rewound_after)


def test_a_rewind_to_a_version_after_an_earlier_rewind_and_into_an_abandoned_line():
    state, log, _ = played("m3", 20)
    first_line_end = len(log)
    _, log, _ = played("m3", 15, state, log, random.Random("x"), start_at=10**6)
    log = log + [marker(first_line_end)]           # back to the end of the first 20 commands
    _, log, _ = played("m3", 10, fold(log), log, random.Random("y"), start_at=2 * 10**6)
    inside_abandoned = first_line_end + 5          # a version of the abandoned line
    after_rewind = first_line_end + 15 + 1 + 3     # a version after the first marker
    for target in (inside_abandoned, after_rewind):
        expected = fold(log[:target])
        got = fold(log + [marker(target)])
        assert {k: v for k, v in got.items() if k not in ("v", "time")} == \
            {k: v for k, v in expected.items() if k not in ("v", "time")}


def test_replay_state_at_equals_folding_the_prefix_whatever_the_spacing_of_its_copies():
    state, log, _ = played("m4", 20)
    n = len(log) - 10
    while not log[n - 1].get("end"):  # rewind to the end of a command: a decision is owed there
        n -= 1
    _, log, _ = played("m4", 10, state, log, random.Random("z"), start_at=10**6)
    log = log + [marker(n)]
    _, log, _ = played("m4", 10, fold(log), log, random.Random("w"), start_at=2 * 10**6)
    for every in (1, 7, 500):
        replay = Replay(every=every)
        for event in log:
            replay.apply(event)
        for version in (1, n, n + 3, len(log) - 12, len(log)):
            assert canonical(replay.state_at(version)) == canonical(fold(log[:version]))


def test_folding_a_marker_onto_a_given_state_needs_state_at():
    state, log, _ = played("m5", 5)
    with pytest.raises(engine.EngineError, match="state_at"):
        fold([marker(3)], state)
    at_three = fold(log[:3])
    assert fold([marker(3)], engine.fold(log), state_at=lambda n: at_three)["ply"] == 3


def test_evolve_alone_refuses_a_marker_and_a_marker_must_point_backwards():
    state, log, _ = played("m6", 3)
    with pytest.raises(engine.EngineError):
        engine.evolve(engine.fold(log), marker(2))
    for bad in (0, len(log) + 1, "3"):
        with pytest.raises(engine.EngineError):
            fold(log + [marker(bad)])


def test_deadlines_owed_at_the_target_move_by_the_clock_shift():
    target = {"v": 10, "ply": 10, "time": 5000, "status": "playing", "clock": {"deal.1.red": 65000, "x": None},
              "ch": {"deal": {"deadline": 65000}}}
    after = rewound(target, {"v": 20}, marker(10, at=100000, clock_shift=95000))
    assert after["clock"] == {"deal.1.red": 160000, "x": None}
    assert after["ch"]["deal"]["deadline"] == 160000
    assert after["time"] == 100000 and after["v"] == 21 and after["ply"] == 10
    assert target["clock"]["deal.1.red"] == 65000  # the target is not changed


def test_at_rest_holds_after_every_command_and_not_between_events_of_a_command():
    state, log = new_game("rest", 3)
    assert at_rest(state)
    mid_start = fold(log[:5])  # during `start`: playing, nothing owed yet
    assert mid_start["status"] == "playing" and not at_rest(mid_start)
    _, more, _ = played("rest", 20, state, [], random.Random("r"))
    replay = Replay()
    for event in log + more:
        replay.apply(event)
    assert at_rest(replay.state)
    assert at_rest({"v": 1, "status": "lobby"})
