"""The tables every power, flare and edict is entered in, filled once when `engine.catalog` loads them.

Only data: the rules that look things up by name (what is in force: `engine.hooks`; a use being
applied: `engine.abilities.handler_for`) read these tables without importing the modules that fill
them, so the modules of the powers may use the rules and the rules the tables.
"""

from __future__ import annotations

POWERS: dict[str, object] = {}   # name -> Power
FLARES: dict[str, dict] = {}     # power name -> {"wild": Flare, "super": Flare}
EDICTS: dict[str, object] = {}   # name -> Edict
EFFECTS: dict[str, object] = {}  # an effect's source key (``flare:Tripler:wild``) -> the handler of its hooks


def register_effect(source: str, handler) -> None:
    """Make ``handler`` answer hooks for challenge effects whose ``source`` is this key."""
    EFFECTS[source] = handler
