"""Flares that answer what happens while they are still in a hand (RULES.md 5).

A power in force hears triggers through `engine.hooks.fire`; a flare is in force only once played.
Some flares are played *because* something happens: a reinforcement card discarded (Reserve's Wild),
a hand about to be discarded for a new one or compensation about to be taken (Miser's Wild). Their
ability (the Wild or Super the holder would play: `engine.abilities.card_ability`) defines the
trigger as a method ``hook(ctx, me, card, **details)``; `fire_held` calls it for every flare held by
a player who may play a flare now, in timing order, and the method asks its holder with
`engine.powers.base.CardAbility.ask_to_play` (a ``card_reaction`` step: engine/steps/reactions.py).

Triggers told to held flares: ``on_cards_discarded(discarded, player)`` (every discard,
`engine.handcards.discard`), ``before_new_hand(player)`` (a hand about to be discarded for a new one,
`engine.handcards.redraw_after_a_window`), ``before_cards_taken(player)`` (compensation about to be
taken from that player's hand, `engine.steps.resolve.Consolation`), ``on_deck_reshuffled()`` (the discard
pile shuffled into a new challenge deck, `engine.handcards.reshuffle_discards`: Tick-Tock's Wild).
"""

from __future__ import annotations

from functools import lru_cache

from engine.abilities import card_abilities, card_ability
from engine.playable import playable_cards
from engine.state import timing_order
from engine.usable import may_play_a_flare


@lru_cache(maxsize=1024)
def _answers(card_id: str, hook: str) -> bool:
    """Whether either effect of a flare answers ``hook`` (known from the card alone, before asking more)."""
    return card_id.startswith("Flare:") and any(
        ability is not None and hasattr(ability, hook) for ability in card_abilities(card_id) or ())


def listeners(state: dict, hook: str, players: list[str] | None = None) -> list[tuple]:
    """``(holder, card, method)`` for every flare held (by one of ``players``, if given) that answers ``hook``."""
    found = []
    for player in timing_order(state):
        if players is not None and player not in players:
            continue
        held = [c for c in playable_cards(state, player) if _answers(c, hook)]
        if not held or not may_play_a_flare(state, player):
            continue
        for card in dict.fromkeys(held):
            method = getattr(card_ability(state, player, card), hook, None)
            if method is not None:
                found.append((player, card, method))
    return found


def fire_held(ctx, hook: str, players: list[str] | None = None, **details) -> None:
    """Tell every flare held that answers ``hook`` what happened; what they ask runs in timing order."""
    found = listeners(ctx.state, hook, players)
    if not found:
        return
    with ctx.collecting():
        for holder, card, method in found:
            method(ctx, holder, card, **details)
