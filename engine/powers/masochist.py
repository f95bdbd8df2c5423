"""Masochist: wins the game once it has lost every one of its ships.

At the beginning of every challenge (``on_challenge_began``: before its regroup, so before the offense
retrieves a token), a Masochist with no token on any planet or on the cone (all in the warp or removed
from the game) announces its win: a Cosmic Zap may cancel it, else the win is claimed
(`engine.winning.claim_win`) and declared at the next boundary of the turn sequence, the challenge's
start window, once what else the challenge's beginning set off is carried out (Hate's discard, say);
anyone who then has five external bases wins with it. Its power is not lost for want of home bases
(``kept_without_home_bases``: `engine.state.active_powers`), and it may still win by bases. Its flares
change the regroup (`engine.regroup`): the Wild names another player to retrieve a token in the
offense's place, the Super lets the Masochist remove one of its tokens in the warp from the game
instead of retrieving it.
"""

from engine import shapes
from engine.flow import option
from engine.powers.base import Flare, Power
from engine.state import bases, warp_count
from engine.steps.tokens import move
from engine.winning import claim_win

REASON = "Masochist lost all its ships"


def ships_in_play(state: dict, me: str) -> int:
    """``me``'s tokens on planets and on the cone (not in the warp, the reverse warp, or removed)."""
    on_planets = sum(tokens.get(me, 0) for tokens in state["planets"].values())
    return on_planets + sum(side.get(me, 0) for side in state["cone"].values())


class Masochist(Power):
    name = "Masochist"
    editions = ("ffg",)
    who = ("any",)
    mandatory = True
    timing = "the beginning of every challenge, before the regroup"
    windows = ()
    provenance = "ffg"
    kept_without_home_bases = True
    description = ("At the beginning of any challenge, before the offense retrieves a token, you win the game if "
                   "you have lost all your tokens (none left on a planet: all in the warp or out of the game). You do "
                   "not lose this power for want of home colonies, and you may still win the usual way.")

    def on_challenge_began(self, ctx, me, *, number, effect=None):
        if ships_in_play(ctx.state, me) == 0:
            self.announce(ctx, me, "win", {})

    def win(self, ctx, me, context):
        """The announced win stands (no Cosmic Zap cancelled it)."""
        if ships_in_play(ctx.state, me) == 0:
            claim_win(ctx, me, REASON)


POWER = Masochist()


class MasochistWild(Flare):
    """Wild: at a regroup, another player of your choice retrieves a token instead of the offense."""

    power = "Masochist"
    mode = "wild"
    windows = ("start",)
    lasting = True
    provenance = "ffg"
    description = ("Before a regroup, name a player other than the offense: that player, not the offense, may "
                   "retrieve a token from the warp at this regroup. Not playable while the offense has no token on "
                   "a planet.")

    def options(self, state, me, card, window):
        offense = state["turn"]["offense"]
        if not state.get("ch") or not bases(state, offense) or self.in_force(state, me):
            return []
        others = [c for c in state["order"] if c != offense]
        return [self.offer(card, {"player": shapes.choice(others)},
                           label="another player retrieves a token at this regroup instead of the offense")]

    def use(self, ctx, me, card, args, use):
        if args["player"] != ctx.state["turn"]["offense"]:
            self.add_effect(ctx, me, retriever=args["player"])

    def regroup_player(self, state, me, value, *, player, effect=None):
        return effect["retriever"] if effect else value


class MasochistSuper(Flare):
    """Super: at your regroup, remove a token of yours in the warp from the game instead of retrieving it."""

    power = "Masochist"
    mode = "super"
    windows = ("start",)
    lasting = True
    provenance = "ffg"
    description = ("As the offense, before your regroup: you may remove one of your tokens in the warp from the "
                   "game instead of retrieving one.")

    def options(self, state, me, card, window):
        if state["turn"]["offense"] != me or not warp_count(state, me) or self.in_force(state, me):
            return []
        return [self.offer(card, label="at this regroup you may remove a token in the warp from the game")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def regroup_instead(self, state, me, value, *, player, effect=None):
        if player != me or not warp_count(state, me):
            return value
        return [*value, option("instead", ability=self.source, rule=self.rule,
                               label="remove a token in the warp from the game instead of retrieving it")]

    def apply_instead(self, ctx, me, args):
        if warp_count(ctx.state, me):
            move(ctx, [(me, "warp", "removed", 1)], "Masochist Super Flare")


WILD = MasochistWild()
SUPER = MasochistSuper()
