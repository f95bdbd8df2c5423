"""The bot levels, in one table: a seat joins as a bot of one of these, or is handed to one.

``LEVELS`` maps each level's name to the function that chooses a bot's command from its seat's
view and prompt (`engine.players`). Everything that lists or checks levels reads this table: the
join and hand-over rules (`engine.setup`, `engine.seats`), the workers that play bot seats
(`workers.bots`), the command line (``cosmic simulate --bots``), the catalogue. A new level is one
line here.
"""

from __future__ import annotations

from engine.players import heuristic_command, random_command

LEVELS = {"random": random_command, "heuristic": heuristic_command}


def names() -> list[str]:
    """The levels' names, in the table's order."""
    return list(LEVELS)


def listed() -> str:
    """The levels as a refusal names them: ``'random', 'heuristic'``."""
    return ", ".join(repr(name) for name in LEVELS)


def describe() -> list[dict]:
    """The levels for the catalogue: each one's name and what it does (its chooser's first docstring line)."""
    return [{"level": name, "meaning": ((chooser.__doc__ or name).strip().splitlines() or [name])[0]}
            for name, chooser in LEVELS.items()]
