"""What a side's challenge card counts as once revealed: its printed kind, as powers and edicts turn it.

Asked by the resolution (engine/steps/resolve.py) and by every power, flare, edict and card whose
effect depends on the kinds played (Deuce, Emotion Control, Hawk, reinforcements...).
"""

from __future__ import annotations

from engine import cards
from engine.hooks import fold
from engine.state import committed_challenge_cards


def card_kind(state: dict, side: str) -> str | None:
    """What a side's revealed challenge card counts as (Emotion Control may change it); None if none."""
    played = committed_challenge_cards(state, side)
    if not played:
        return None
    return fold(state, "card_kind", cards.kind(played[0]), side=side)
