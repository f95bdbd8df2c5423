"""What a side's challenge card counts as once revealed: its printed kind, as powers and edicts turn it.

Asked by the resolution (engine/steps/resolve.py) and by every power, flare, edict and card whose
effect depends on the kinds played (Deuce, Emotion Control, Hawk, reinforcements...).
"""

from __future__ import annotations

from engine import cards
from engine.hooks import fold
from engine.state import committed_challenge_cards


def played_cards(state: dict, side: str) -> list[str]:
    """The challenge cards a side plays, as they count: those committed, or the card kind a bluff the
    opponent accepted stands for (Gambler: `engine.steps.bluff`), in place of the card kept face down."""
    bluff = state["ch"]["notes"].get("bluff") if state.get("ch") else None
    if bluff and bluff["status"] == "accepted" and bluff["side"] == side:
        return [bluff["claim"]]
    return committed_challenge_cards(state, side)


def card_kind(state: dict, side: str) -> str | None:
    """What a side's revealed challenge card counts as (Emotion Control may change it); None if none."""
    played = played_cards(state, side)
    if not played:
        return None
    return fold(state, "card_kind", printed_kind(state, side, played[0]), side=side)


def printed_kind(state: dict, side: str, card_id: str) -> str:
    """A card's own kind; a Morph (ffg) is a copy of the opponent's revealed card, and stays a Morph
    against a Morph (RULES.md 9: both lose)."""
    kind = cards.kind(card_id)
    if kind != "morph":
        return kind
    copied = morphed_into(state, side)
    return cards.kind(copied) if copied else kind


def morphed_into(state: dict, side: str) -> str | None:
    """The opponent's card a side's Morph copies: its first challenge card, unless it is a Morph too."""
    other = played_cards(state, "defense" if side == "offense" else "offense")
    if not other or cards.kind(other[0]) == "morph":
        return None
    return other[0]


def printed_attack_value(state: dict, side: str, card_id: str) -> int | None:
    """An Attack's printed value; a Morph copying an Attack has that Attack's."""
    if cards.kind(card_id) == "morph":
        copied = morphed_into(state, side)
        return cards.attack_value(copied) if copied else None
    return cards.attack_value(card_id)
