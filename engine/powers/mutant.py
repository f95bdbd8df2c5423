"""Mutant: fill the hand up to seven, from the deck or from other hands."""

from engine import shapes
from engine.handcards import draw, give_cards, hand_size
from engine.powers.base import Flare, Power
from engine.state import hand, side_of_main


class Mutant(Power):
    name = "Mutant"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "stage 7, before challenge cards are chosen"
    windows = ("planning",)
    provenance = "mayfair"
    description = ("As a main player holding fewer than 7 cards, before challenge cards are chosen you may "
                   "draw until you hold 7, taking each card as you choose either from the deck or at "
                   "random from another player's hand.")
    # the FFG card: before allies are invited, up to the FFG hand of 8 (`hand_size`)
    readings = {"ffg": {"windows": ("launch",), "timing": "after the launch, before allies are invited",
                        "description": ("As a main player holding fewer than 8 cards, once the offense has "
                                        "launched and before allies are invited you may draw until you hold "
                                        "8, taking each card as you choose either from the deck or at random "
                                        "from another player's hand.")}}

    def options(self, state, me, window):
        missing = hand_size(state) - len(hand(state, me))
        if side_of_main(state, me) is None or missing <= 0:
            return []
        sources = ["deck"] + others_holding(state, me)
        return [self.offer({"sources": shapes.sequence(sources, missing, missing)},
                           label=f"draw {missing} cards")]

    def use(self, ctx, me, args, use):
        for source in args["sources"]:
            if len(hand(ctx.state, me)) >= hand_size(ctx.state):
                break
            victim_hand = hand(ctx.state, source) if source != "deck" else []
            if victim_hand:
                give_cards(ctx, source, me, [ctx.rng.choice(victim_hand)], "Mutant")
            else:
                draw(ctx, me, 1, "Mutant")


POWER = Mutant()


def others_holding(state: dict, me: str) -> list[str]:
    """The other players who hold at least one card."""
    return [c for c in state["order"] if c != me and hand(state, c)]


class MutantWild(Flare):
    """Wild: draw from the deck up to seven cards."""

    power = "Mutant"
    mode = "wild"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player holding fewer than 7 cards (this flare aside), before challenge cards are "
                   "chosen, draw cards from the deck until you hold 7.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or len(hand(state, me)) - 1 >= hand_size(state):
            return []
        return [self.offer(card, label="draw up to 7 cards")]

    def use(self, ctx, me, card, args, use):
        missing = hand_size(ctx.state) - len(hand(ctx.state, me))
        if missing > 0:
            draw(ctx, me, missing, "Mutant Wild")


class MutantSuper(Flare):
    """Super: take one card at random from every other player's hand."""

    power = "Mutant"
    mode = "super"
    windows = ("planning",)
    provenance = "house"
    description = ("As a main player, before challenge cards are chosen, take one card at random from each "
                   "other player's hand.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not others_holding(state, me):
            return []
        return [self.offer(card, label="take a card at random from every other hand")]

    def use(self, ctx, me, card, args, use):
        for victim in others_holding(ctx.state, me):
            give_cards(ctx, victim, me, [ctx.rng.choice(hand(ctx.state, victim))], "Mutant Super")


WILD = MutantWild()
SUPER = MutantSuper()
