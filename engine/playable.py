"""The cards a player may play: those in its hand, and those a power lets it play from elsewhere.

A player plays cards from its hand. A power in force may add places it plays from as well
(Miser plays from its hoard: the ``card_sources`` hook of `engine.hooks`). Everything that offers a
card to play (the challenge card, what is usable in a window, the answers to a use) asks here, and
the fact that plays the card names the place when it is not the hand (``src``).
"""

from __future__ import annotations

from engine import cards
from engine.hooks import fold

# the places a player may hold cards in besides its hand (a power says whether it may play from them)
OTHER_PLACES = ("hoard",)


def card_sources(state: dict, player: str) -> tuple[str, ...]:
    """The places ``player`` may play cards from: ``("hand",)``, with ``"hoard"`` while Miser's power works."""
    return tuple(fold(state, "card_sources", ("hand",), player=player))


def playable_cards(state: dict, player: str) -> list[str]:
    """Every card ``player`` could play now: its hand first, then the other places its powers open.
    (Asked for every player at every window: a player holding cards nowhere else gets its hand itself,
    which callers must not change.)"""
    seat = state["players"][player]
    for place in OTHER_PLACES:
        if place in seat:
            break
    else:
        return seat["hand"]
    found = list(seat["hand"])
    for place in card_sources(state, player):
        if place != "hand":
            found += seat.get(place, [])
    return found


def place_of(state: dict, player: str, card_id: str) -> str:
    """Where a card ``player`` plays comes from: ``hand:<player>``, or another of its places (``hoard:<player>``)."""
    seat = state["players"][player]
    if card_id in seat["hand"]:
        return f"hand:{player}"
    for place in card_sources(state, player):
        if card_id in seat.get(place, []):
            return f"{place}:{player}"
    return f"hand:{player}"


def from_elsewhere(state: dict, player: str, card_id: str) -> dict:
    """The ``src`` field of a fact that plays a card, when the card does not come from the hand (else nothing)."""
    place = place_of(state, player, card_id)
    return {} if place.startswith("hand:") else {"src": place}


def playable_challenge_cards(state: dict, player: str) -> list[str]:
    """The challenge cards ``player`` could commit now (hand, then hoard)."""
    return [c for c in playable_cards(state, player) if cards.is_challenge_card(c)]
