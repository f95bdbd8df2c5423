"""Laser: the opponent's challenge card is picked blindly from its hand."""

from engine.powers.base import Power
from engine.state import challenge_cards, main_player, opponent_side, side_of_main


class Laser(Power):
    name = "Laser"
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player, before challenge cards are chosen you may have your opponent's card "
                   "picked at random from the challenge cards in its hand; it is committed face down and "
                   "your opponent cannot choose another.")

    def options(self, state, me, window):
        side = side_of_main(state, me)
        if side is None:
            return []
        other = opponent_side(side)
        if state["committed"][other] or not challenge_cards(state, main_player(state, other)):
            return []
        return [self.offer(label="your opponent's card is picked at random")]

    def use(self, ctx, me, args, use):
        other = opponent_side(side_of_main(ctx.state, me))
        victim = main_player(ctx.state, other)
        pool = challenge_cards(ctx.state, victim)
        if not pool or ctx.state["committed"][other]:
            return
        ctx.emit("ChallengeCardChosen", player=victim, side=other, card=ctx.rng.choice(pool), seen_by=[victim])


POWER = Laser()
