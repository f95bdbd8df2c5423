"""Filch: keep the opponent's played challenge card."""

from engine.powers.base import Power
from engine.state import opponent_side, side_of_main


class Filch(Power):
    name = "Filch"
    who = ("main",)
    mandatory = False
    timing = "stage 9 (discard)"
    windows = ("discard",)
    provenance = "mayfair"
    description = ("As a main player, when the challenge cards are discarded you may take your opponent's "
                   "played challenge card into your hand instead of letting it go to the discard pile.")

    def options(self, state, me, window):
        side = side_of_main(state, me)
        if side is None or not state["committed"][opponent_side(side)]:
            return []
        return [self.offer(label="take your opponent's challenge card")]

    def use(self, ctx, me, args, use):
        other = opponent_side(side_of_main(ctx.state, me))
        taken = [c for c in ctx.state["committed"][other]]
        ctx.emit("CardsMoved", cards=taken, src=f"committed:{other}", dst=f"hand:{me}", seen_by=None,
                 reason="Filch")


POWER = Filch()
