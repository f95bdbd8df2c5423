"""Determinism (DESIGN.md): a game is its events. Folding them reproduces the state bit for bit,
the same seed plays the same game, and `execute` returns exactly the fold of what it emits."""

import json
import random

import pytest

from engine import fold, prompts
from engine.evolve import BOOKKEEPING
from engine.simulate import legal_answer, new_game

CONFIGS = [(3, {}), (4, {"reverse_cone": False}), (5, {}), (6, {"special_destiny": True}),
           (2, {}), (5, {"war_cards": True, "kickers": True}), (4, {"reverse_warp": True}),
           (5, {"powers_per_player": 2}), (3, {"punt": True, "decision_seconds": 30})]
MAX_COMMANDS = 4000


def canonical(state: dict) -> str:
    """A state as the JSON text a snapshot would hold."""
    return json.dumps(state, sort_keys=True)


def as_stored(events: list[dict]) -> list[dict]:
    """Events as they come back from the store: a JSON round trip, sharing nothing with the game."""
    return json.loads(json.dumps(events))


def play(seed: str, players: int, options: dict, check_each_command: bool = False) -> tuple[dict, list[dict]]:
    """A game between random legal players; returns the final state and every event."""
    state, log = new_game(seed, players, options)
    rng = random.Random(f"players:{seed}")
    for k in range(MAX_COMMANDS):
        if state["status"] != "playing":
            break
        before = canonical(state)
        events, after = legal_answer(state, rng.choice(prompts(state)), rng, 1000 * (k + 1))
        assert canonical(state) == before, "execute changed its input state"
        if check_each_command:
            assert canonical(fold(as_stored(events), json.loads(before))) == canonical(after)
        log += events
        state = after
    return state, log


@pytest.mark.parametrize("players, options", CONFIGS)
def test_folding_the_recorded_events_from_an_empty_state_reproduces_the_final_state(players, options):
    for k in range(3):
        state, log = play(f"fold:{players}:{k}", players, options)
        assert canonical(fold(as_stored(log))) == canonical(state)


@pytest.mark.parametrize("players, options", CONFIGS[:4])
def test_the_same_seed_plays_the_same_game(players, options):
    first_state, first_log = play(f"again:{players}", players, options)
    second_state, second_log = play(f"again:{players}", players, options)
    assert canonical(second_state) == canonical(first_state)
    assert json.dumps(second_log, sort_keys=True) == json.dumps(first_log, sort_keys=True)


def test_different_seeds_play_different_games():
    first, _ = play("seed:a", 4, {})
    second, _ = play("seed:b", 4, {})
    assert canonical(first) != canonical(second)


@pytest.mark.parametrize("players, options", CONFIGS[:6])
def test_execute_returns_the_state_its_events_fold_to(players, options):
    play(f"execute:{players}", players, options, check_each_command=True)


def test_folding_the_same_events_twice_gives_the_same_state():
    _, log = play("twice", 5, {})
    stored = as_stored(log)
    assert canonical(fold(stored)) == canonical(fold(as_stored(log)))
    assert json.dumps(stored, sort_keys=True) == json.dumps(as_stored(log), sort_keys=True)


@pytest.mark.parametrize("players, options", CONFIGS[:3])
def test_every_command_advances_the_line_of_play_with_at_least_one_fact(players, options):
    """The random source is keyed on the count of facts (engine.evolve: ``ply``), so two commands never
    share it: each one records at least one fact of the game."""
    state, _ = new_game(f"facts:{players}", players, options)
    rng = random.Random(f"players:facts:{players}")
    for k in range(600):
        if state["status"] != "playing":
            break
        events, after = legal_answer(state, rng.choice(prompts(state)), rng, 1000 * (k + 1))
        assert any(e["type"] not in BOOKKEEPING for e in events), [e["type"] for e in events]
        assert after["ply"] > state["ply"]
        state = after
