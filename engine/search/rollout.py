"""Playing a possible world forward: every seat answers with a fast default policy up to a horizon.

A rollout owns its state and changes it in place (`engine.execute`'s ``in_place``), so playing a
world costs one copy. Every seat, the searching one included, answers with the default policy
(`engine.players.heuristic_command` unless told otherwise); when several decisions are owed at
once, one of them is answered at random, as the benches do. The game clock moves a second per
answer, so a deal left to the heuristic players runs out of time as it would at a table.

The horizon is counted in encounters: a rollout stops when the turn sequence has moved on
``encounters`` times (the encounter or turn under way ends, and so on), when the game ends, or
after ``max_steps`` answers. Each answer counts as one step of the search's budget.
"""

from __future__ import annotations

from engine.decide import prompts
from engine.errors import EngineError
from engine.players import heuristic_command
from engine.simulate import legal_answer

STEP_MS = 1000
MAX_STEPS = 400


def encounter_key(state: dict) -> tuple:
    """Where the turn sequence stands: the turn's number and its encounter (challenge) number."""
    turn = state.get("turn") or {}
    return turn.get("number"), turn.get("challenge")


def play_out(state: dict, rng, *, encounters: int = 1, max_steps: int = MAX_STEPS,
             policy=heuristic_command) -> tuple[dict, int]:
    """Play ``state`` (changed in place) until the horizon; returns the state reached and the answers given."""
    steps = 0
    key = encounter_key(state)
    moved = 0
    at = state.get("time", 0)
    while state["status"] == "playing" and steps < max_steps:
        owed = prompts(state)
        if not owed:
            break
        prompt = owed[0] if len(owed) == 1 else rng.choice(owed)
        at += STEP_MS
        try:
            _, state = legal_answer(state, prompt, rng, at, choose=policy, in_place=True, attempts=6)
        except (EngineError, RuntimeError):  # no answer found: the world is left as it stands
            break
        steps += 1
        now = encounter_key(state)
        if now != key:
            key = now
            moved += 1
            if moved >= encounters:
                break
    return state, steps
