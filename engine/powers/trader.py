"""Trader: swap hands with the opponent before challenge cards are chosen."""

from engine import cards, shapes
from engine.powers.base import Flare, Power
from engine.state import hand, main_player, opponent_side, side_of_main


def opponent(state: dict, me: str) -> str | None:
    """A main player's opponent, or None when ``me`` is not a main player."""
    side = side_of_main(state, me)
    return main_player(state, opponent_side(side)) if side else None


def cards_still_open(state: dict) -> bool:
    """Before either main player has committed a challenge card (swapping later would change nothing)."""
    return not any(cards.is_challenge_card(c) for side in ("offense", "defense") for c in state["committed"][side])


def swap_hands(ctx, me: str, them: str, reason: str) -> None:
    """Exchange two whole hands; only the two players see the cards that pass between them."""
    mine, theirs = list(hand(ctx.state, me)), list(hand(ctx.state, them))
    seen_by = sorted({me, them})
    if mine:
        ctx.emit("CardsMoved", cards=mine, src=f"hand:{me}", dst=f"hand:{them}", seen_by=seen_by, reason=reason)
    if theirs:
        ctx.emit("CardsMoved", cards=theirs, src=f"hand:{them}", dst=f"hand:{me}", seen_by=seen_by, reason=reason)


def can_swap(state: dict, me: str, them: str | None, exclude: str | None = None) -> bool:
    """A swap is worth offering when there is a partner and at least one card would move."""
    if them is None or them == me or not cards_still_open(state):
        return False
    return bool([c for c in hand(state, me) if c != exclude] or hand(state, them))


class Trader(Power):
    name = "Trader"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player, before challenge cards are chosen you may exchange your whole hand with "
                   "your opponent's whole hand.")

    def options(self, state, me, window):
        if not can_swap(state, me, opponent(state, me)):
            return []
        return [self.offer(label="swap hands with your opponent")]

    def use(self, ctx, me, args, use):
        swap_hands(ctx, me, opponent(ctx.state, me), "Trader")


POWER = Trader()


class TraderWild(Flare):
    """Wild: swap hands with your opponent once, as the Trader does."""

    power = "Trader"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, exchange your whole hand with your "
                   "opponent's whole hand.")

    def options(self, state, me, card, window):
        if not can_swap(state, me, opponent(state, me), exclude=card):
            return []
        return [self.offer(card, label="swap hands with your opponent")]

    def use(self, ctx, me, card, args, use):
        swap_hands(ctx, me, opponent(ctx.state, me), "Trader Wild Flare")


class TraderSuper(Flare):
    """Super: the Trader swaps hands with any other player, not only its opponent."""

    power = "Trader"
    mode = "super"
    windows = ("planning",)
    provenance = "house"
    description = ("As the Trader main player, before challenge cards are chosen, exchange your whole hand with "
                   "the whole hand of any other player you choose, allies and bystanders included.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None:
            return []
        partners = [c for c in state["order"] if can_swap(state, me, c, exclude=card)]
        if not partners:
            return []
        return [self.offer(card, {"player": shapes.choice(partners)}, label="swap hands with any player")]

    def use(self, ctx, me, card, args, use):
        swap_hands(ctx, me, args["player"], "Trader Super Flare")


WILD = TraderWild()
SUPER = TraderSuper()
