"""Seats handed to a bot and taken back (engine/seats.py): the facts, their fold, and the hand_over_after option."""

from __future__ import annotations

import random

import pytest

import engine
from engine import levels
from engine.errors import RulesError
from engine.options import resolve
from engine.players import random_command
from engine.simulate import new_game


def started(players: int = 3, options: dict | None = None, seed: str = "seats") -> tuple[dict, list]:
    return new_game(seed, players, options or {})


def run(state: dict, log: list, command: dict) -> dict:
    events, state = engine.execute(state, command)
    log += events
    return state


def test_a_seat_handed_to_a_bot_is_played_by_it_until_its_player_takes_it_back():
    state, log = started()
    owed = engine.prompts(state)
    state = run(state, log, {"action": "hand_over", "seat": "red", "level": "heuristic", "actor": "red", "at": 5})
    handed = log[-1]
    assert handed["type"] == "SeatHandedToBot" and handed["actor"] == "red" and handed["end"] is True
    assert handed["payload"] == {"player": "red", "level": "heuristic", "reason": "asked"}
    assert state["players"]["red"]["bot"] == "heuristic" and state["players"]["red"]["handed_over"] == "asked"
    assert engine.prompts(state) == owed  # the game waits for the same decisions: only who answers changed
    assert engine.fold(log) == state
    state = run(state, log, {"action": "take_back", "seat": "red", "actor": "red", "at": 6})
    assert log[-1]["type"] == "SeatTakenBack" and log[-1]["payload"] == {"player": "red"}
    assert state["players"]["red"]["bot"] is None and "handed_over" not in state["players"]["red"]
    assert engine.prompts(state) == owed
    assert engine.fold(log) == state


def test_a_seat_played_by_a_bot_is_not_handed_over_again():
    state, log = started()
    state = run(state, log, {"action": "hand_over", "seat": "blue", "level": "random", "at": 5})
    with pytest.raises(RulesError) as refused:
        engine.execute(state, {"action": "hand_over", "seat": "blue", "level": "heuristic", "at": 6})
    assert refused.value.rule == "seats" and "take it back first" in refused.value.detail


def test_only_a_seat_handed_over_is_taken_back():
    state, _ = started()
    with pytest.raises(RulesError, match="not handed over"):
        engine.execute(state, {"action": "take_back", "seat": "red", "at": 5})
    events, bots_game = [], None
    for command in [{"action": "create", "seats": 2, "seed": "b", "options": {"honeymoon": True}, "at": 0},
                    {"action": "join", "name": "Ann", "at": 0}, {"action": "join", "name": "Hal", "bot": "random",
                                                                "at": 0}, {"action": "start", "at": 0}]:
        emitted, bots_game = engine.execute(bots_game, command)
        events += emitted
    with pytest.raises(RulesError, match="joined as a random bot"):
        engine.execute(bots_game, {"action": "take_back", "seat": "blue", "at": 5})
    with pytest.raises(RulesError, match="joined as a random bot"):
        engine.execute(bots_game, {"action": "hand_over", "seat": "blue", "level": "heuristic", "at": 5})


def test_an_unknown_level_and_a_game_not_being_played_are_refused():
    state, _ = started()
    with pytest.raises(RulesError) as refused:
        engine.execute(state, {"action": "hand_over", "seat": "red", "level": "genius", "at": 5})
    assert "'genius'" in refused.value.detail and levels.listed() in refused.value.detail
    lobby = engine.execute(None, {"action": "create", "seats": 3, "seed": "l", "at": 0})[1]
    lobby = engine.execute(lobby, {"action": "join", "name": "Ann", "at": 0})[1]
    with pytest.raises(RulesError, match="seats change hands only while it is played"):
        engine.execute(lobby, {"action": "hand_over", "seat": "red", "level": "random", "at": 5})
    with pytest.raises(engine.CommandError):
        engine.execute(state, {"action": "hand_over", "seat": "purple", "level": "random", "at": 5})
    with pytest.raises(RulesError):
        engine.execute(state, {"action": "hand_over", "seat": "red", "level": {}, "at": 5})


def test_the_hand_over_after_option_is_off_unless_asked_and_checked_when_it_is():
    assert "hand_over_after" not in resolve("mayfair", {}, 3)  # a game without it is recorded as before it existed
    assert resolve("ffg", {"hand_over_after": {"missed": 3, "level": "heuristic"}}, 3)["hand_over_after"] == \
        {"missed": 3, "level": "heuristic"}
    for wrong in ({"missed": 0, "level": "random"}, {"missed": 3}, {"missed": 3, "level": "genius"},
                  {"missed": True, "level": "random"}, {"missed": 2, "level": "random", "extra": 1}, 3, "yes",
                  {"missed": 1, "level": {}}, {"missed": 1, "level": ["random"]}):
        with pytest.raises(RulesError) as refused:
            resolve("mayfair", {"hand_over_after": wrong}, 3)
        assert refused.value.rule == "1" and "hand_over_after" in refused.value.detail


def play_until(state: dict, log: list, rng, *, red_times_out: int, red_answers_after: int | None = None) -> dict:
    """Others answer at once; red lets ``red_times_out`` of its decisions run out of time (answering itself
    once, for real, after ``red_answers_after`` of them)."""
    missed = 0
    answered = False
    for _ in range(3000):
        owed = engine.prompts(state)
        if state["status"] != "playing" or missed >= red_times_out:
            return state
        red = [p for p in owed if p["player"] == "red"]
        if red and red_answers_after is not None and missed == red_answers_after and not answered:
            for _ in range(50):
                command = {**random_command(state, red[0], rng), "at": state["time"]}
                try:
                    state = run(state, log, command)
                except engine.EngineError:
                    continue
                answered = True
                break
            continue
        if red:
            deadline = state["clock"][red[0]["id"]]
            state = run(state, log, {"action": "timeout", "prompt": red[0]["id"], "at": deadline})
            missed += 1
            continue
        prompt = owed[0]
        for _ in range(50):
            command = {**random_command(state, prompt, rng), "at": state["time"]}
            try:
                state = run(state, log, command)
                break
            except engine.EngineError:
                continue
    raise AssertionError("the game did not get that far")


def handed(log: list) -> list[dict]:
    return [e for e in log if e["type"] == "SeatHandedToBot"]


def test_a_seat_whose_player_misses_three_decisions_in_a_row_is_handed_to_the_bot_the_option_names():
    options = {"decision_seconds": 60, "hand_over_after": {"missed": 3, "level": "heuristic"}}
    state, log = started(options=options, seed="missed")
    state = play_until(state, log, random.Random("missed"), red_times_out=2)
    assert not handed(log) and state["missed"]["red"] == 2 and state["players"]["red"]["bot"] is None
    state = play_until(state, log, random.Random("missed-2"), red_times_out=1)
    (event,) = handed(log)
    assert event["payload"] == {"player": "red", "level": "heuristic", "reason": "missed", "missed": 3}
    assert event["actor"] == "timer"
    assert log[log.index(event) - 1]["actor"] == "timer"  # right after the third default the timer applied
    assert state["players"]["red"]["bot"] == "heuristic" and state["players"]["red"]["handed_over"] == "missed"
    assert "red" not in state["missed"]
    assert engine.fold(log) == state


def test_an_answer_of_its_own_starts_the_count_of_missed_decisions_again():
    options = {"decision_seconds": 60, "hand_over_after": {"missed": 2, "level": "random"}}
    state, log = started(options=options, seed="reset")
    state = play_until(state, log, random.Random("reset"), red_times_out=1)
    assert state["missed"]["red"] == 1
    state = play_until(state, log, random.Random("reset-2"), red_times_out=1, red_answers_after=0)
    assert any(e["actor"] == "red" for e in log)
    assert not handed(log), "one miss, an answer, one miss: never two in a row"
    assert state["missed"]["red"] == 1
    assert engine.fold(log) == state


def test_without_the_option_timeouts_count_nothing():
    state, log = started(options={"decision_seconds": 60}, seed="plain")
    state = play_until(state, log, random.Random("plain"), red_times_out=5)
    assert "missed" not in state and not handed(log)
