"""Chronos: after the reveal, the challenge cards are played again."""

from engine.powers.base import Power
from engine.state import opponent_side, side_of_main


class Chronos(Power):
    name = "Chronos"
    who = ("main",)
    mandatory = False
    timing = "after the reveal (stage 8), once per challenge"
    windows = ("reveal",)
    provenance = "mayfair"
    description = ("As a main player, once the challenge cards are revealed you may take your own card back "
                   "into your hand while your opponent's card is discarded; then both main players play "
                   "challenge cards again and the new cards are revealed. Once per challenge. Reinforcements "
                   "and effects already played stay in force.")

    def options(self, state, me, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"] or not state["committed"][side]:
            return []
        return [self.offer(label="take back your card; both play again")]

    def use(self, ctx, me, args, use):
        state = ctx.state
        side = side_of_main(state, me)
        other = opponent_side(side)
        ctx.emit("CardsMoved", cards=list(state["committed"][side]), src=f"committed:{side}", dst=f"hand:{me}",
                 seen_by=None, reason="Chronos")
        if state["committed"][other]:
            ctx.emit("CardsMoved", cards=list(state["committed"][other]), src=f"committed:{other}",
                     dst="discard", seen_by=None, reason="Chronos")
        ctx.emit("RevealUndone")
        ctx.then(ctx.step("prepare_cards"), ctx.step("choose_cards"), ctx.step("window", name="committed"),
                 ctx.step("reveal"))


POWER = Chronos()
