"""Stage 1 as powers and flares change it: who retrieves a token, and what may be done instead.

The regroup (`engine.steps.destiny.Regroup`) asks two questions of what is in force (`engine.hooks`):
``regroup_player(player)``, who retrieves a token from the warp this regroup (the offense, unless
Masochist's Wild names another player), and ``regroup_instead(player)``, options the retriever may
take instead of retrieving (Machine's Super: draw a card; Masochist's Super: remove a token from the
game). Each such option is ``option("instead", args, ability=<its handler's key>)``; chosen, it is
applied by that handler's ``apply_instead(ctx, me, args)``.
"""

from __future__ import annotations

from engine.hooks import fold
from engine.registry import EFFECTS, POWERS


def retriever(state: dict) -> str:
    """The player who retrieves a token from the warp this regroup."""
    offense = state["turn"]["offense"]
    return fold(state, "regroup_player", offense, player=offense)


def alternatives(state: dict, player: str) -> list[dict]:
    """What ``player`` may do this regroup instead of retrieving a token."""
    return list(fold(state, "regroup_instead", [], player=player))


def handler_of(ability: str):
    """The power or flare effect an ``instead`` option belongs to (``power:<name>`` or a flare's effect key)."""
    if ability.startswith("power:"):
        return POWERS.get(ability[len("power:"):])
    return EFFECTS.get(ability)
