"""Drawing, discarding and new hands: the card movements every part of the rules shares."""

from __future__ import annotations

from engine import cards, rulesets
from engine.held import fire_held, listeners
from engine.hooks import fire, fold
from engine.state import hand

HAND_SIZE = 7  # mayfair's (RULES.md 3); `hand_size` gives the game's own


def hand_size(state: dict) -> int:
    """The size of a new hand in this game's edition: 7 (mayfair), 8 (ffg)."""
    return rulesets.of(state).hand_size


def reshuffle_discards(ctx) -> bool:
    """RULES.md 4 (decision): an empty deck is replaced by the shuffled discard pile."""
    pile = list(ctx.state["discard"])
    if not pile:
        return False
    ctx.rng.shuffle(pile)
    ctx.emit("DeckReshuffled", deck="deck", cards=pile)
    fire_held(ctx, "on_deck_reshuffled")  # a flare held may answer it (Tick-Tock's Wild)
    return True


def take_from_deck(ctx, count: int, dst: str, seen_by: list[str] | None, reason: str) -> list[str]:
    """Move cards from the top of the deck to ``dst``, reshuffling the discards when the deck runs out.

    Fewer than ``count`` if deck and discards run out. ``seen_by`` as in ``CardsMoved`` (None: public).
    """
    drawn: list[str] = []
    while len(drawn) < count:
        deck = ctx.state["deck"]
        if not deck and not reshuffle_discards(ctx):
            if rulesets.of(ctx.state).cosmic_quake and not ctx.quaking:
                cosmic_quake(ctx)  # RULES.md 9: the quake gives everyone a new hand instead of this draw
            break
        deck = ctx.state["deck"]
        take = min(count - len(drawn), len(deck))
        batch = deck[len(deck) - take:][::-1]
        ctx.emit("CardsMoved", cards=batch, src="deck", dst=dst, seen_by=seen_by, reason=reason)
        drawn += batch
    return drawn


def cosmic_quake(ctx) -> None:
    """RULES.md 9 (ffg): a card must be drawn and neither the deck nor the discards hold one: every player
    discards its hand and draws a new one (8), from the discards shuffled into a new deck."""
    state = ctx.state
    ctx.quaking = True
    try:
        for player in state["order"]:
            discard_cards(ctx, player, list(hand(state, player)), "Cosmic Quake")
        for player in state["order"]:
            draw(ctx, player, hand_size(state), "Cosmic Quake")
    finally:
        ctx.quaking = False


def draw(ctx, player: str, count: int, reason: str) -> list[str]:
    """Draw cards from the top of the deck into a hand (fewer if deck and discards run out)."""
    drawn = take_from_deck(ctx, count, f"hand:{player}", [player], reason)
    if drawn:
        fire(ctx, "on_cards_drawn", player=player, count=len(drawn), reason=reason)
    return drawn


def discard(ctx, player: str | None, card_ids: list[str], src: str, reason: str) -> None:
    """Cards go face up onto the discard pile from ``src`` (a hand, the table); the one way to discard.

    Every discarded edict is then announced with ``on_edict_discarded`` (``player``: whose card
    it was, None if unknown), so a power that takes discarded edicts (Vulch) sees every one,
    whatever made it leave play: used, cancelled by a Card Zap, a new hand, Plague, Barbarian...
    Callers finish their own step bookkeeping first: what the announcement schedules runs next.
    """
    if not card_ids:
        return
    ctx.emit("CardsMoved", cards=list(card_ids), src=src, dst="discard", seen_by=None, reason=reason)
    for card_id in card_ids:
        if cards.kind(card_id) == "edict":
            fire(ctx, "on_edict_discarded", card=card_id, player=player)
    fire_held(ctx, "on_cards_discarded", discarded=list(card_ids), player=player)  # Reserve's Wild


def discard_cards(ctx, player: str, card_ids: list[str], reason: str) -> None:
    """Cards from a hand go face up onto the discard pile."""
    discard(ctx, player, card_ids, f"hand:{player}", reason)


def give_cards(ctx, giver: str, receiver: str, card_ids: list[str], reason: str, public: bool = False) -> None:
    """Cards pass from one hand to another; only the two players see which, unless public."""
    if card_ids:
        ctx.emit("CardsMoved", cards=list(card_ids), src=f"hand:{giver}", dst=f"hand:{receiver}",
                 seen_by=None if public else sorted({giver, receiver}), reason=reason)


def challenge_card_obtainable(state: dict) -> bool:
    """Whether a new hand could contain a challenge card at all (deck or discards hold one)."""
    return any(cards.is_challenge_card(c) for c in state["deck"]) or \
        any(cards.is_challenge_card(c) for c in state["discard"])


def redraw_after_a_window(ctx, player: str, window: dict, check_again: dict) -> None:
    """RULES.md 4 / 000: a player without a challenge card discards its hand and draws 7 (8 under ffg), once.

    The current step is replaced by ``window`` (the player may use the new hand's cards: 000,
    "play, discard, draw") and then ``check_again``, marked ``last`` when neither the deck nor the
    discards hold a challenge card any more (drawing again could not help).
    """
    ctx.replace(window, {**check_again, "last": not challenge_card_obtainable(ctx.state)})
    if listeners(ctx.state, "before_new_hand", [player]):
        # a flare the player holds may keep cards through the new hand (Miser's Wild): it is asked first,
        # and the hand is discarded and drawn by a step of its own after (`engine.steps.game.Redraw`)
        ctx.then(ctx.step("redraw", player=player))
        fire_held(ctx, "before_new_hand", [player], player=player)
        return
    new_hand(ctx, player)


def new_hand(ctx, player: str) -> None:
    """A player discards its hand and draws a new one; cards it set aside to keep come back after the draw.

    A power may keep cards through it, shown to all (``kept_through_new_hand``: the FFG Vulch's artifacts)."""
    shown = fold(ctx.state, "kept_through_new_hand", [], player=player)
    if shown:
        ctx.emit("CardsMoved", cards=list(shown), src=f"hand:{player}", dst=f"kept:{player}", seen_by=None,
                 reason="kept through a new hand")
    discard_cards(ctx, player, list(hand(ctx.state, player)), "new hand")
    draw(ctx, player, hand_size(ctx.state), "new hand")
    return_kept(ctx, player)


def set_aside(ctx, player: str, card_ids: list[str], reason: str) -> None:
    """Cards leave a hand face down to be kept through a new hand or a compensation (only their owner sees
    which); `return_kept` brings them back."""
    if card_ids:
        ctx.emit("CardsMoved", cards=list(card_ids), src=f"hand:{player}", dst=f"kept:{player}",
                 seen_by=[player], reason=reason)


def return_kept(ctx, player: str) -> None:
    """The cards a player set aside come back to its hand."""
    kept = ctx.state["players"][player].get("kept")
    if kept:
        ctx.emit("CardsMoved", cards=list(kept), src=f"kept:{player}", dst=f"hand:{player}", seen_by=[player],
                 reason="kept")
