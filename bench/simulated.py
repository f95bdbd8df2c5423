"""The game `engine.simulate.play_game` plays for a seed, command by command, for the benches.

`bench/engine.py` and `bench/same_games.py` run this file under another revision's engine too
(``--baseline``), so it uses only what every engine since db4d922 offers: ``new_game``,
``legal_answer``, ``execute``, ``prompts`` and the simulator's time step and timeout share.
"""

from __future__ import annotations

import random
from collections.abc import Iterator


def simulated_events(seed: str, players: int, options: dict | None = None,
                     max_turns: int = 1000, ruleset: str = "mayfair") -> Iterator[list[dict]]:
    """Every batch of events of that game: the lobby's, then one per command, to its end or the cap.
    (``ruleset`` other than mayfair needs an engine that has editions: 10407f7 and later.)"""
    from engine import execute, prompts
    from engine.simulate import TIME_STEP_MS, TIMEOUT_SHARE, legal_answer, new_game

    if ruleset == "mayfair":
        state, log = new_game(seed, players, options or {})
    else:
        state, log = new_game(seed, players, options or {}, ruleset)
    yield log
    rng = random.Random(f"players:{seed}")  # the simulator's players: the same choices as play_game
    clock = 0
    while state["status"] == "playing" and (state["turn"] or {}).get("number", 0) <= max_turns:
        chosen = rng.choice(prompts(state))
        clock += TIME_STEP_MS
        if chosen.get("deadline") is not None and rng.random() < TIMEOUT_SHARE:
            clock = max(clock, chosen["deadline"])
            events, state = execute(state, {"action": "timeout", "prompt": chosen["id"], "at": clock})
        else:
            events, state = legal_answer(state, chosen, rng, clock)
        yield events
