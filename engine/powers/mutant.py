"""Mutant: fill the hand up to seven, from the deck or from other hands."""

from engine import shapes
from engine.handcards import HAND_SIZE, draw, give_cards
from engine.powers.base import Power
from engine.state import hand, side_of_main


class Mutant(Power):
    name = "Mutant"
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player holding fewer than 7 cards, before challenge cards are chosen you may "
                   "draw until you hold 7, taking each card as you choose either from the deck or at "
                   "random from another player's hand.")

    def options(self, state, me, window):
        missing = HAND_SIZE - len(hand(state, me))
        if side_of_main(state, me) is None or missing <= 0:
            return []
        sources = ["deck"] + [c for c in state["order"] if c != me and hand(state, c)]
        return [self.offer({"sources": shapes.sequence(sources, missing, missing)},
                           label=f"draw {missing} cards")]

    def use(self, ctx, me, args, use):
        for source in args["sources"]:
            if len(hand(ctx.state, me)) >= HAND_SIZE:
                break
            victim_hand = hand(ctx.state, source) if source != "deck" else []
            if victim_hand:
                give_cards(ctx, source, me, [ctx.rng.choice(victim_hand)], "Mutant")
            else:
                draw(ctx, me, 1, "Mutant")


POWER = Mutant()
