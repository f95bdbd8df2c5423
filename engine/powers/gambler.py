"""Gambler: bluffs about its challenge card — keeps it face down and states what it is.

As a main player, once its opponent's card is known to it and before the reveal (``before_reveal``:
`engine.steps.bluff`), the Gambler may keep its card face down and state a card kind instead (truly or
not). The use is announced with the claim, open to a Cosmic Zap. The opponent then accepts (the claim
counts as the Gambler's card; the real card goes face down under the deck, seen by nobody else) or calls
(the card is turned up; the one who was wrong — the Gambler if it lied, else the caller — loses as many
tokens as it has in the challenge, from its bases outside it). Either way the challenge goes on.
The Gambler bluffs only with a single challenge card committed (no kicker nor second card beside it).
"""

from engine import cards, shapes
from engine.powers.base import Flare, Power
from engine.state import opponent_side, side_of_main
from engine.steps import bluff

RULE = "power:Gambler"
MAX_ANTE = 20
MAX_SPREAD = 40


def may_bluff(state: dict, me: str) -> str | None:
    """The side ``me`` could bluff for now (a main player with one challenge card committed), else None."""
    side = side_of_main(state, me)
    if side is None or bluff.standing(state):
        return None
    mine, theirs = state["committed"][side], state["committed"][opponent_side(side)]
    if len(mine) != 1 or not cards.is_challenge_card(mine[0]) or not theirs:
        return None
    return side


class Gambler(Power):
    name = "Gambler"
    editions = ("ffg",)
    who = ("main",)
    mandatory = False
    timing = "after the opponent's card is revealed"
    windows = ()
    provenance = "ffg"
    description = ("As a main player, once your opponent's encounter card is revealed, you may keep yours face down "
                   "and state what it is, lying if you like. If your opponent accepts, the encounter is settled as "
                   "if your statement were true and your card goes face down under the deck. If your opponent "
                   "calls, your card is revealed: if you lied you lose as many ships as you have in the encounter, "
                   "if not your opponent loses as many as it has there, from colonies outside the encounter; the "
                   "encounter is then settled with the cards as revealed.")

    def before_reveal(self, ctx, me, *, effect=None):
        side = may_bluff(ctx.state, me)
        if side:
            self.ask_reaction(ctx, me, {"side": side})

    def reaction_options(self, state, me, context):
        side = may_bluff(state, me)
        if side is None:
            return []
        theirs = state["committed"][opponent_side(side)][0]
        return [self.offer({"claim": shapes.choice(bluff.claims())},
                           label=f"keep your card face down and state what it is (your opponent's: {theirs})")]

    def react(self, ctx, me, args, context):
        side = may_bluff(ctx.state, me)
        if side:
            ante = next((e.get("ante", 0) for e in ctx.state["ch"]["effects"]
                         if e["source"] == SUPER.source and e["player"] == me), 0)
            bluff.state_bluff(ctx, me, side, args["claim"], ante)


POWER = Gambler()


class GamblerWild(Flare):
    """Wild: name a spread; if the two cards differ by at least that much, add it to your card."""

    power = "Gambler"
    mode = "wild"
    windows = ("committed",)
    lasting = True
    provenance = "ffg"
    description = ("As a main player, before encounter cards are revealed, you may name a number, the spread. If "
                   "the two encounter cards revealed differ from each other by the spread or more, the spread is "
                   "added to your card.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or self.in_force(state, me):
            return []
        return [self.offer(card, {"spread": shapes.count(1, MAX_SPREAD)}, label="name a spread")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, spread=int(args["spread"]))

    def attack_values(self, state, me, values, *, effect=None):
        side = side_of_main(state, me)
        if side is None or values.get("offense") is None or values.get("defense") is None:
            return values
        if abs(values["offense"] - values["defense"]) < effect["spread"]:
            return values
        return {**values, side: values[side] + effect["spread"]}


class GamblerSuper(Flare):
    """Super: up the ante — a bluff called costs the one who was wrong that many tokens more."""

    power = "Gambler"
    mode = "super"
    windows = ("committed",)
    lasting = True
    provenance = "ffg"
    description = ("When you state what your card is, you may up the ante by 1 to 20 ships: whoever loses the call "
                   "(you if you lied, your opponent if it called a true statement) loses that many ships more.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or self.in_force(state, me):
            return []
        return [self.offer(card, {"ante": shapes.count(1, MAX_ANTE)}, label="up the ante of your bluff")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, ante=int(args["ante"]))


WILD = GamblerWild()
SUPER = GamblerSuper()
