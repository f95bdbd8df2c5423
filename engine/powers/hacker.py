"""Hacker: chooses compensation (consolation) — whom it is taken from and which cards.

When the Hacker, as a main player, is owed consolation, it may take it from any other player (its
opponent or not), looking through that player's hand and choosing the cards. When its opponent is
owed consolation from the Hacker, the Hacker may choose which of its own cards the opponent gets.
Both are one optional use, asked when consolation is about to be taken (``before_compensation``:
`engine.steps.compensation`), announced and open to a Cosmic Zap; the choice of cards is then a
``pick_compensation`` decision of the Hacker's.

The power follows the published card; the text of its flares was not found in the public sources
consulted, so both are designed here (provenance ``house``: docs/engine.md, readings).
"""

from engine import shapes
from engine.powers.base import Flare, Power
from engine.state import side_of_main
from engine.steps import compensation

RULE = "power:Hacker"
SUPER_EXTRA = 1  # cards the Super adds to a consolation the Hacker hacks


def _main(state: dict, me: str) -> bool:
    return side_of_main(state, me) in ("offense", "defense")


class Hacker(Power):
    name = "Hacker"
    editions = ("ffg",)
    who = ("main",)
    mandatory = False
    timing = "when consolation is taken"
    windows = ()
    provenance = "ffg"
    description = ("As a main player owed compensation, you may take it from any other player you choose, "
                   "your opponent or not: you look through that player's hand and pick the cards you take. "
                   "As a main player owing compensation to your opponent, you may pick which of your cards "
                   "it gets.")

    def before_compensation(self, ctx, me, *, owed, effect=None):
        if not _main(ctx.state, me):
            return
        if owed["player"] == me:
            self.ask_reaction(ctx, me, {"role": "collect", "from": owed["from"]})
        elif owed["from"] == me:
            self.ask_reaction(ctx, me, {"role": "give", "to": owed["player"]})

    def reaction_options(self, state, me, context):
        if context["role"] == "collect":
            others = [c for c in state["order"] if c != me]
            return [self.offer({"from": shapes.choice(others)},
                               label="choose whom you take compensation from, and which cards")]
        return [self.offer(label=f"choose the cards {context['to']} takes from you")]

    def react(self, ctx, me, args, context):
        owed = ctx.state["ch"]["outcome"].get("consolation")
        if not owed:
            return
        if context["role"] == "collect":
            compensation.note(ctx, owed, giver=args["from"], picker=me)
        else:
            compensation.note(ctx, owed, picker=me)


POWER = Hacker()


class HackerWild(Flare):
    """Wild: as a main player, choose the cards of a compensation you collect this challenge."""

    power = "Hacker"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("As a main player, after the reveal: if you collect compensation in this encounter, you look "
                   "through the hand you take it from and choose the cards instead of taking them at random.")

    def options(self, state, me, card, window):
        if not _main(state, me) or self.in_force(state, me):
            return []
        return [self.offer(card, label="choose the cards of any compensation you collect")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def before_compensation(self, ctx, me, *, owed, effect=None):
        if owed["player"] == me and compensation.noted(ctx.state, owed)[1] is None:
            compensation.note(ctx, owed, picker=me)


class HackerSuper(Flare):
    """Super: a compensation you hack brings you one card more."""

    power = "Hacker"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("As a main player, after the reveal: if you use your power to collect compensation in this "
                   "encounter, you take one card more than you are owed.")

    def options(self, state, me, card, window):
        if not _main(state, me) or self.in_force(state, me):
            return []
        return [self.offer(card, label="take one card more with any compensation you hack")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def consolation_count(self, state, me, value, *, player, effect=None):
        owed = state["ch"]["outcome"].get("consolation") if state.get("ch") and state["ch"].get("outcome") else None
        if player != me or not owed or compensation.noted(state, owed)[1] != me:
            return value
        return value + SUPER_EXTRA


WILD = HackerWild()
SUPER = HackerSuper()
