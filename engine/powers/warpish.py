"""Warpish: every token in the warp adds to the Warpish's total."""

from engine.powers.base import Flare, Power
from engine.state import side_of, side_of_main


def warp_size(state: dict) -> int:
    """Tokens of every colour in the warp now."""
    return sum(state["warp"].values())


class Warpish(Power):
    name = "Warpish"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), as a main player"
    provenance = "mayfair"
    description = ("As a main player, add 1 to your side's total for every token in the warp, whatever its "
                   "colour (your own included).")

    def side_total(self, state, me, value, *, side, card, effect=None):
        if side_of_main(state, me) != side:
            return value
        per_token = 2 if SUPER.in_force(state, me) else 1
        return value + per_token * warp_size(state)


POWER = Warpish()


class WarpishWild(Flare):
    """Wild: the warp adds to your side's total this challenge."""

    power = "Warpish"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as a main player or ally, draw strength from the warp: your side's "
                   "total gets 1 for every token in the warp, whatever its colour, this challenge.")

    def options(self, state, me, card, window):
        if side_of(state, me) is None or not state["ch"]["revealed"] or not warp_size(state):
            return []
        return [self.offer(card, label="add the warp to your side's total")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of(ctx.state, me))

    def side_total(self, state, me, value, *, side, card, effect):
        return value + warp_size(state) if side == effect["side"] else value


class WarpishSuper(Flare):
    """Super: each token in the warp counts 2 for the Warpish this challenge."""

    power = "Warpish"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as the Warpish main player, every token in the warp adds 2 to your "
                   "side's total this challenge instead of 1.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not state["ch"]["revealed"] or not warp_size(state):
            return []
        return [self.offer(card, label="each token in the warp counts 2")]

    def use(self, ctx, me, card, args, use):
        # a marker read by the Warpish power while it is in force
        self.add_effect(ctx, me)


WILD = WarpishWild()
SUPER = WarpishSuper()
