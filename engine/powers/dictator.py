"""Dictator: controls destiny — chooses, from the destiny deck, the card the offense draws.

Mandatory, whenever the Dictator is not the offense: before destiny is drawn, the Dictator looks
through the destiny deck and chooses a card, which is played as though the offense had drawn it
(`engine.destiny_choice`: ``before_destiny_drawn``, a ``choose_destiny`` decision). The use is
announced, so a Cosmic Zap may cancel it (the offense then draws from the top). On the Dictator's
own turn it draws as anyone does. (The card has the deck shuffled then, because a Dictator at a table
has seen its order; here the choice lists the deck's cards sorted, so the order stays secret and the
deck is not shuffled: docs/engine.md, readings.)

The power follows the published card; the text of its flares was not found in the public sources
consulted, so both are designed here (provenance ``house``: docs/engine.md, readings).
"""

from engine import destiny_choice
from engine.powers.base import Flare, Power

RULE = "power:Dictator"


class Dictator(Power):
    name = "Dictator"
    editions = ("ffg",)
    who = ("any",)
    mandatory = True
    timing = "before destiny is drawn"
    windows = ()
    provenance = "ffg"
    description = ("Whenever you are not the offense, before destiny is drawn, you look through the destiny deck "
                   "and choose one of its cards: the offense plays it as though it had drawn it. On your own turn "
                   "you draw at random.")

    def before_destiny_drawn(self, ctx, me, *, effect=None):
        if ctx.state["turn"]["offense"] != me:
            self.announce(ctx, me, "dictate", {})
        elif SUPER.in_force(ctx.state, me):
            destiny_choice.ask(ctx, me, RULE)

    def dictate(self, ctx, me, context):
        """The announced use stands: the Dictator chooses the card."""
        destiny_choice.ask(ctx, me, RULE)


POWER = Dictator()


class DictatorWild(Flare):
    """Wild: when you are not the offense, choose this challenge's destiny card yourself, once."""

    power = "Dictator"
    mode = "wild"
    windows = ("start", "regroup")
    lasting = True
    provenance = "house"
    description = ("When you are not the offense, before destiny is drawn: you look through the destiny deck and "
                   "choose the card the offense draws this encounter, as the Dictator does.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] == me or self.in_force(state, me) or state["ch"].get("destiny"):
            return []
        return [self.offer(card, label="choose this encounter's destiny card")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def before_destiny_drawn(self, ctx, me, *, effect=None):
        if not ctx.state["ch"].get("destiny"):  # the first draw only
            destiny_choice.ask(ctx, me, "flare:Dictator")


class DictatorSuper(Flare):
    """Super: on your own turn too, you choose the destiny card you draw."""

    power = "Dictator"
    mode = "super"
    windows = ("start", "regroup")
    lasting = True
    provenance = "house"
    description = ("As the offense, before destiny is drawn: this encounter you choose your own destiny card from "
                   "the destiny deck, as your power lets you choose the others'.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or self.in_force(state, me):
            return []
        return [self.offer(card, label="choose your own destiny card this encounter")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = DictatorWild()
SUPER = DictatorSuper()
