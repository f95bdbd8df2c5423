"""Chronos: after the reveal, the challenge cards are played again."""

from engine.powers.base import Flare, Power
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
        if not may_travel(state, me):
            return []
        return [self.offer(label="take back your card; both play again")]

    def use(self, ctx, me, args, use):
        travel_in_time(ctx, me)


POWER = Chronos()


def may_travel(state: dict, me: str) -> bool:
    """Whether ``me`` is a main player whose own card has been revealed and is still on the table."""
    side = side_of_main(state, me)
    return side is not None and bool(state["ch"]["revealed"]) and bool(state["committed"][side])


def travel_in_time(ctx, me: str) -> None:
    """Own card back to hand, the opponent's to the discards, and stage 7 and the reveal once more."""
    state = ctx.state
    side = side_of_main(state, me)
    other = opponent_side(side)
    ctx.emit("CardsMoved", cards=list(state["committed"][side]), src=f"committed:{side}", dst=f"hand:{me}",
             seen_by=None, reason="Chronos")
    if state["committed"][other]:
        ctx.emit("CardsMoved", cards=list(state["committed"][other]), src=f"committed:{other}",
                 dst="discard", seen_by=None, reason="Chronos")
    ctx.emit("RevealUndone")
    # stage 7 once more, from its start: the window before cards are chosen too (14.12)
    ctx.then(ctx.step("window", name="planning"), ctx.step("prepare_cards"), ctx.step("choose_cards"),
             ctx.step("window", name="committed"), ctx.step("reveal"))


class ChronosWild(Flare):
    """Wild: travel in time once, as Chronos does."""

    power = "Chronos"
    mode = "wild"
    windows = ("reveal",)
    provenance = "house"
    description = ("As a main player, after the reveal, take your own card back into your hand; your opponent's "
                   "card is discarded and both of you play challenge cards again, as Chronos does.")

    def options(self, state, me, card, window):
        return [self.offer(card, label="take back your card; both play again")] if may_travel(state, me) else []

    def use(self, ctx, me, card, args, use):
        if may_travel(ctx.state, me):
            travel_in_time(ctx, me)


class ChronosSuper(Flare):
    """Super: travel in time (again), and this time the opponent plays its new card face up first."""

    power = "Chronos"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("As a main player, after the reveal, travel in time as your power does (even if you already "
                   "did this challenge); this time your opponent must commit its new card face up before you "
                   "choose yours.")

    def options(self, state, me, card, window):
        return [self.offer(card, label="play again; your opponent shows its card first")] \
            if may_travel(state, me) else []

    def use(self, ctx, me, card, args, use):
        if not may_travel(ctx.state, me):
            return
        side = opponent_side(side_of_main(ctx.state, me))
        self.add_effect(ctx, me, first=side)
        travel_in_time(ctx, me)

    def chooses_first(self, state, me, value, *, effect):
        return effect["first"]


WILD = ChronosWild()
SUPER = ChronosSuper()
