"""What a card in a hand, or a use being applied, does: looked up in the tables of `engine.registry`.

The timing windows (engine/steps/windows.py, engine/usable.py) ask this of every card at every
window, so the answers that depend on the card alone are remembered.
"""

from __future__ import annotations

from functools import cache

from engine import cards
from engine.powers.base import CardAbility
from engine.registry import EDICTS, FLARES, POWERS
from engine.reinforcement import REINFORCEMENT
from engine.state import active_powers


def card_ability(state: dict, player: str, card_id: str) -> CardAbility | None:
    """What playing a card from a hand does: the Super or Wild flare, the edict, the reinforcement."""
    abilities = card_abilities(card_id)
    if abilities is None:
        return None
    if len(abilities) == 1:
        return abilities[0]
    wild, super_ = abilities  # a flare: the Super when it is the player's own power and that power works
    return super_ if (player, cards.flare_power(card_id)) in active_powers(state) else wild


@cache
def card_abilities(card_id: str) -> tuple | None:
    """What a card can do when played from a hand: ``(ability,)``, a flare's ``(wild, super)``, or None
    (a challenge card, a kicker, a flare whose power has no flare here)."""
    kind = cards.kind(card_id)
    if kind == "flare":
        pair = FLARES.get(cards.flare_power(card_id))
        return (pair.get("wild"), pair.get("super")) if pair else None
    if kind == "edict":
        edict = EDICTS.get(cards.edict_name(card_id))
        return (edict,) if edict else None
    if kind == "reinforcement":
        return (REINFORCEMENT,)
    return None


@cache
def card_windows(card_id: str) -> frozenset[str]:
    """Every timing window in which a card could be played, whatever the player's powers ("*": any)."""
    return frozenset(window for ability in card_abilities(card_id) or () if ability is not None
                     for windows in (ability.windows, *ability.windows_by_edition.values()) for window in windows)


def handler_for(source: str):
    """The power, flare effect, edict or reinforcement a recorded use refers to."""
    kind, _, rest = source.partition(":")
    if kind == "power":
        return POWERS[rest]
    if kind == "flare":
        power, _, mode = rest.partition(":")
        return FLARES[power][mode]
    if kind == "edict":
        return EDICTS[rest]
    return REINFORCEMENT
