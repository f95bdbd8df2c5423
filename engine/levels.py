"""The bot levels, in one table: a seat joins as a bot of one of these, or is handed to one.

``LEVELS`` maps each level's name to the function that chooses a bot's command from what its seat
may know and its prompt: ``random`` and ``heuristic`` are `engine.players`'; ``expert`` searches
the game (`engine.search`). `workers.bots.choose` passes each chooser the seat's view, built by the
chooser's own ``view(state, colour)`` where it has one (the expert reads the seat's knowledge as
`engine.search.knowledge.seat_state` writes it: the game with every card the seat cannot see
replaced by a placeholder).

Everything that lists or checks levels reads this table: the join and hand-over rules
(`engine.setup`, `engine.seats`), the workers that play bot seats (`workers.bots`), the command
line (``cosmic simulate --bots``), the catalogue. A new level is one entry here.

The expert is imported when first used, so this table can be read by modules the search itself
imports (the lobby's check of a seat's level, in `engine.setup`) without an import circle.
"""

from __future__ import annotations

from engine.players import heuristic_command, random_command


def expert_command(view: dict, prompt: dict, rng, *, steps: int | None = None, seconds: float | None = None,
                   time_left_ms: int | None = None) -> dict:
    """Searches the game: plays each option forward in worlds drawn from what the seat knows, keeps the best.

    `engine.search.expert.expert_command`, with the configured budget or the one given (rollout
    answers, CPU seconds), its time capped by the time left before the decision's deadline.
    """
    from engine.search.expert import expert_command as search_command
    return search_command(view, prompt, rng, steps=steps, seconds=seconds, time_left_ms=time_left_ms)


def _expert_view(state: dict, color: str) -> dict:
    from engine.search.knowledge import seat_state
    return seat_state(state, color)


expert_command.view = _expert_view
expert_command.budgeted = True  # takes ``steps``, ``seconds`` and ``time_left_ms`` (workers.bots.answer)

LEVELS = {"random": random_command, "heuristic": heuristic_command, "expert": expert_command}


def names() -> list[str]:
    """The levels' names, in the table's order."""
    return list(LEVELS)


def listed() -> str:
    """The levels as a refusal names them: ``'random', 'heuristic', 'expert'``."""
    return ", ".join(repr(name) for name in LEVELS)


def describe() -> list[dict]:
    """The levels for the catalogue: each one's name and what it does (its chooser's first docstring line)."""
    return [{"level": name, "meaning": ((chooser.__doc__ or name).strip().splitlines() or [name])[0]}
            for name, chooser in LEVELS.items()]
