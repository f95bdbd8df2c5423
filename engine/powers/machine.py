"""Machine: its turn is not limited to two challenges.

At the end of every challenge of its turn (stage 10), won or lost, the Machine may challenge again
as long as it holds a challenge card it could play (`may_challenge_again`, asked by
`engine.steps.game.EndChallenge`); the challenges are numbered on (3, 4, ...). Its Wild lets any
offense have a second challenge whatever became of the first (drawing a new hand first if it holds
no challenge card); its Super lets the Machine draw a card at the regroup instead of retrieving a
token (`engine.regroup`).
"""

from engine.flow import option
from engine.handcards import draw
from engine.playable import playable_challenge_cards
from engine.powers.base import Flare, Power

RULE = "power:Machine"


class Machine(Power):
    name = "Machine"
    editions = ("ffg",)
    who = ("offense",)
    mandatory = False
    timing = "stage 10 of every challenge of your turn"
    windows = ()
    provenance = "ffg"
    description = ("Your turn is not limited to two challenges: at the end of any challenge of your turn, successful "
                   "or not, you may challenge again as long as you still hold a challenge card.")

    def may_challenge_again(self, state, me, value, *, player, number, succeeded, effect=None):
        if player != me:
            return value
        return value or bool(playable_challenge_cards(state, me))


POWER = Machine()


class MachineWild(Flare):
    """Wild: as the offense, a second challenge whatever the first gave (a new hand first if needed)."""

    power = "Machine"
    mode = "wild"
    windows = ("start", "regroup", "destiny", "launch", "alliance", "planning", "committed", "reveal",
               "resolution", "discard")
    lasting = True
    provenance = "ffg"
    description = ("As the offense in your first challenge: you may have a second challenge even if the first one "
                   "failed or you hold no challenge card. If you hold none when it begins, you discard your hand "
                   "and draw a new one.")

    def options(self, state, me, card, window):
        ch = state.get("ch")
        if not ch or state["turn"]["offense"] != me or ch["number"] != 1 or self.in_force(state, me):
            return []
        return [self.offer(card, label="you may have a second challenge whatever happens in this one")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def may_challenge_again(self, state, me, value, *, player, number, succeeded, effect=None):
        return True if player == me and number == 1 else value


class MachineSuper(Flare):
    """Super: at your regroup, draw a card instead of retrieving a token."""

    power = "Machine"
    mode = "super"
    windows = ("start",)
    lasting = True
    provenance = "ffg"
    description = ("As the offense, before your regroup: this challenge, you may draw the top card of the deck "
                   "instead of retrieving a token from the warp.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or self.in_force(state, me):
            return []
        return [self.offer(card, label="at this regroup you may draw a card instead of retrieving a token")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def regroup_instead(self, state, me, value, *, player, effect=None):
        if player != me or not (state["deck"] or state["discard"]):
            return value
        return [*value, option("instead", ability=self.source, rule=self.rule,
                               label="draw a card instead of retrieving a token")]

    def apply_instead(self, ctx, me, args):
        draw(ctx, me, 1, "Machine Super Flare")


WILD = MachineWild()
SUPER = MachineSuper()
