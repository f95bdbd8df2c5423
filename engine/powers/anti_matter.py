"""Anti-Matter: the lower total wins, and the Anti-Matter's allies count against it."""

from engine.powers.base import Flare, Power
from engine.powers.virus import tokens_worth
from engine.revealed import card_kind
from engine.state import involved, main_player, side_of, side_of_main, side_tokens


def both_attacks(state: dict) -> bool:
    """Whether both revealed cards count as Attacks (the only case totals decide)."""
    return bool(state["ch"]["revealed"]) and all(card_kind(state, s) == "attack" for s in ("offense", "defense"))


class AntiMatter(Power):
    name = "Anti-Matter"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), as a main player, when two Attacks are revealed"
    provenance = "mayfair"
    description = ("As a main player, when two Attacks are revealed the lower total wins (a tie still goes to "
                   "the defense), and your allies' tokens are subtracted from your side's total instead of "
                   "added. Your own tokens add as usual.")
    # the FFG card: the Anti-Matter's own ships subtract too, and so do the opposing allies' from their side
    readings = {"ffg": {"description": (
        "As a main player, when both main players reveal Attacks the lower total wins (a tie still goes to the "
        "defense). Your own ships and your allies' ships are subtracted from your side's total instead of "
        "added, and the opposing allies' ships are subtracted from your opponent's total; your opponent's own "
        "ships add as usual.")}}

    def lower_wins(self, state, me, value, *, effect=None):
        return not value if side_of_main(state, me) else value

    def side_total(self, state, me, value, *, side, card, effect=None):
        mine = side_of_main(state, me)
        if mine is None:
            return value
        if self.reads(state, "ffg"):
            # every ship on both sides subtracts but the opponent's own (RULES.md 9, the FFG card)
            counted = [c for c in side_tokens(state, side) if side == mine or c != main_player(state, side)]
        elif mine != side:
            return value
        else:
            counted = [c for c in side_tokens(state, side) if c != me]
            if SUPER.in_force(state, me):
                counted.append(me)
        _count, worth = tokens_worth(state, side, counted)
        return value - 2 * worth  # each of them added its worth: take it out and once more


POWER = AntiMatter()


class AntiMatterWild(Flare):
    """Wild: the lower total wins this challenge."""

    power = "Anti-Matter"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After two Attacks are revealed, as a main player or ally, turn the challenge upside down: "
                   "this challenge the lower total wins (a tie still goes to the defense).")

    def options(self, state, me, card, window):
        if me not in involved(state) or not both_attacks(state):
            return []
        return [self.offer(card, label="the lower total wins")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of(ctx.state, me))

    def lower_wins(self, state, me, value, *, effect):
        return not value


class AntiMatterSuper(Flare):
    """Super: the Anti-Matter's own tokens subtract too."""

    power = "Anti-Matter"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After two Attacks are revealed, as the Anti-Matter main player, your own tokens are "
                   "subtracted from your side's total this challenge as your allies' are.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not both_attacks(state):
            return []
        return [self.offer(card, label="your own tokens subtract too")]

    def use(self, ctx, me, card, args, use):
        # a marker read by the Anti-Matter power while it is in force
        self.add_effect(ctx, me)


WILD = AntiMatterWild()
SUPER = AntiMatterSuper()
