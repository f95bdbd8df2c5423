"""Filch: keep the opponent's played challenge card."""

from engine.powers.base import Flare, Power
from engine.state import opponent_side, side_of_main


class Filch(Power):
    name = "Filch"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "stage 9 (discard)"
    windows = ("discard",)
    provenance = "mayfair"
    description = ("As a main player, when the challenge cards are discarded you may take your opponent's "
                   "played challenge card into your hand instead of letting it go to the discard pile.")

    def options(self, state, me, window):
        if not played_cards(state, me, opponent=True):
            return []
        return [self.offer(label="take your opponent's challenge card")]

    def use(self, ctx, me, args, use):
        take_played(ctx, me, opponent=True)


POWER = Filch()


def played_cards(state: dict, me: str, *, opponent: bool) -> list[str]:
    """The cards a side committed this challenge (the opponent's, or ``me``'s own); none if not a main player."""
    side = side_of_main(state, me)
    if side is None:
        return []
    return list(state["committed"][opponent_side(side) if opponent else side])


def take_played(ctx, me: str, *, opponent: bool) -> None:
    """Move a side's played cards into ``me``'s hand instead of the discards."""
    taken = played_cards(ctx.state, me, opponent=opponent)
    if taken:
        side = side_of_main(ctx.state, me)
        src_side = opponent_side(side) if opponent else side
        ctx.emit("CardsMoved", cards=taken, src=f"committed:{src_side}", dst=f"hand:{me}", seen_by=None,
                 reason="Filch")


class FilchWild(Flare):
    """Wild: filch once, as Filch does."""

    power = "Filch"
    mode = "wild"
    windows = ("discard",)
    provenance = "house"
    description = ("As a main player, when the challenge cards are discarded, take your opponent's played "
                   "challenge card into your hand instead of the discard pile.")

    def options(self, state, me, card, window):
        if not played_cards(state, me, opponent=True):
            return []
        return [self.offer(card, label="take your opponent's challenge card")]

    def use(self, ctx, me, card, args, use):
        take_played(ctx, me, opponent=True)


class FilchSuper(Flare):
    """Super: keep your own played challenge card too."""

    power = "Filch"
    mode = "super"
    windows = ("discard",)
    provenance = "house"
    description = ("As a main player, when the challenge cards are discarded, take your own played challenge "
                   "card back into your hand as well (your power may still take your opponent's).")

    def options(self, state, me, card, window):
        if not played_cards(state, me, opponent=False):
            return []
        return [self.offer(card, label="take back your own challenge card")]

    def use(self, ctx, me, card, args, use):
        take_played(ctx, me, opponent=False)


WILD = FilchWild()
SUPER = FilchSuper()
