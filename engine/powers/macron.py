"""Macron: each token is worth four, but only one is ever sent."""

from engine.powers.base import Power

TOKEN_WORTH = 4


class Macron(Power):
    name = "Macron"
    who = ("main", "ally")
    mandatory = True
    timing = "launch, alliances and the reveal"
    provenance = "mayfair"
    description = ("Each of your tokens counts 4 toward your side's total, on the cone or defending a planet. "
                   "As the offense or as an ally you must commit exactly one token.")

    def launch_range(self, state, me, value, *, player, role, effect=None):
        return (1, 1) if player == me else value

    def token_strength(self, state, me, value, *, player, side, effect=None):
        return TOKEN_WORTH if player == me else value


POWER = Macron()
