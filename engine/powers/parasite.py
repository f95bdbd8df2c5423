"""Parasite: join either side of a challenge without being invited."""

from engine.powers.base import Flare, Power
from engine.state import ally_side, opponent_side, side_of_main, tokens_in_challenge
from engine.steps.tokens import move

BOTH = {"offense", "defense"}


class Parasite(Power):
    name = "Parasite"
    editions = ("mayfair", "ffg")
    who = ("not main",)
    mandatory = False
    timing = "alliances (stage 6)"
    provenance = "mayfair"
    description = ("When you are not a main player, you may join either side as an ally in stage 6 whether or "
                   "not that side invited you (you are asked in turn like an invited player and may decline).")

    def may_join(self, state, me, value, *, player, effect=None):
        if player != me or side_of_main(state, me) is not None:
            return value
        return set(value) | BOTH


POWER = Parasite()


class ParasiteWild(Flare):
    """Wild: for this challenge, join either side uninvited, as the Parasite does."""

    power = "Parasite"
    mode = "wild"
    windows = ("launch",)
    lasting = True
    provenance = "house"
    description = ("After the launch, when you are not a main player: in this challenge's alliances you may join "
                   "either side whether or not it invited you.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is not None or state["ch"]["planet"] is None:
            return []
        return [self.offer(card, label="you may join either side uninvited")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def may_join(self, state, me, value, *, player, effect):
        return set(value) | BOTH if player == me else value


class ParasiteSuper(Flare):
    """Super: as an ally after the reveal, hop to the other side of the cone."""

    power = "Parasite"
    mode = "super"
    windows = ("reveal",)
    provenance = "house"
    description = ("As the Parasite allied to one side, after the challenge cards are revealed and before the "
                   "challenge is decided, move your tokens to the other side of the cone: you are now an ally "
                   "of that side.")

    def options(self, state, me, card, window):
        side = ally_side(state, me)
        if side is None or state["ch"]["outcome"] or not tokens_in_challenge(state, side, me):
            return []
        return [self.offer(card, label=f"switch to the {opponent_side(side)}")]

    def use(self, ctx, me, card, args, use):
        side = ally_side(ctx.state, me)
        if side is None or ctx.state["ch"]["outcome"]:
            return
        other = opponent_side(side)
        move(ctx, [(me, f"cone:{side}", f"cone:{other}", tokens_in_challenge(ctx.state, side, me))],
             "Parasite Super Flare")
        ctx.emit("AllyRemoved", player=me, by=me)
        ctx.emit("AllianceAnswered", player=me, side=other)


WILD = ParasiteWild()
SUPER = ParasiteSuper()
