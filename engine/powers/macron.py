"""Macron: each token is worth four, but only one is ever sent."""

from engine.powers.base import Flare, Power
from engine.state import side_of, tokens_in_challenge

TOKEN_WORTH = 4
FFG_SHIP_COUNTS = 2  # what each Macron ship counts for compensation and rewards under ffg


class Macron(Power):
    name = "Macron"
    editions = ("mayfair", "ffg")
    who = ("main", "ally")
    mandatory = True
    timing = "launch, alliances and the reveal"
    provenance = "mayfair"
    description = ("Each of your tokens counts 4 toward your side's total, on the cone or defending a planet. "
                   "As the offense or as an ally you must commit exactly one token.")
    # the FFG card (2008): besides, each ship counts as two for compensation and rewards
    readings = {"ffg": {"timing": "launch, alliances, the reveal, compensation and rewards", "description": (
        "Each of your ships counts 4 toward your side's total, in the gate or defending a planet. As the "
        "offense or as an ally you must send exactly one ship. When you collect compensation or rewards, each "
        "of your ships counts as two.")}}

    def launch_range(self, state, me, value, *, player, role, effect=None):
        return (1, 1) if player == me else value

    def token_strength(self, state, me, value, *, player, side, effect=None):
        return TOKEN_WORTH if player == me else value

    def consolation_count(self, state, me, value, *, player, effect=None):
        return value * FFG_SHIP_COUNTS if player == me and self.reads(state, "ffg") else value

    def reward_count(self, state, me, value, *, player, effect=None):
        return value * FFG_SHIP_COUNTS if player == me and self.reads(state, "ffg") else value


POWER = Macron()


class MacronWild(Flare):
    """Wild: one of your tokens in the challenge counts 4 this challenge."""

    power = "Macron"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, if you are a main player or ally with tokens in the challenge, one of "
                   "your tokens counts 4 toward your side's total for the rest of the challenge.")

    def options(self, state, me, card, window):
        side = side_of(state, me)
        if side is None or not tokens_in_challenge(state, side, me) or not state["ch"]["revealed"]:
            return []
        return [self.offer(card, label="one of your tokens counts 4")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of(ctx.state, me))

    def side_total(self, state, me, value, *, side, card, effect):
        return value + (TOKEN_WORTH - 1) if side == effect["side"] else value


class MacronSuper(Flare):
    """Super: commit up to four tokens this challenge, each still worth 4."""

    power = "Macron"
    mode = "super"
    windows = ("destiny",)
    lasting = True
    provenance = "house"
    description = ("Before the launch, you may commit up to four tokens this challenge as offense or ally "
                   "instead of exactly one; each still counts 4.")

    def options(self, state, me, card, window):
        return [self.offer(card, label="commit up to four tokens")] if state["ch"]["defense"] else []

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def launch_range(self, state, me, value, *, player, role, effect):
        return (1, 4) if player == me else value


WILD = MacronWild()
SUPER = MacronSuper()
