"""Virus: the Attack card multiplies with the Virus's own tokens instead of adding to them."""

from engine.hooks import fold
from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import main_player, side_of_main, side_tokens


def tokens_worth(state: dict, side: str, colors) -> tuple[int, int]:
    """``(count, worth)`` of the listed colours' tokens on a side: how many, and what they add to its total."""
    count = worth = 0
    for color, n in side_tokens(state, side).items():
        if color in colors:
            count += n
            worth += fold(state, "token_strength", 1, player=color, side=side) * n
    return count, worth


def revealed_attack(state: dict, side: str) -> bool:
    """Whether a side's revealed challenge card counts as an Attack."""
    return bool(state["ch"]["revealed"]) and card_kind(state, side) == "attack"


def infected_total(state: dict, side: str, value: int, card: int, carriers) -> int:
    """A side's total when the carriers' tokens multiply the Attack instead of adding to the total.

    Whatever else changed the total (other players' tokens, other powers) is kept: only the
    carriers' own addition is taken out and the card is replaced by card x their token count.
    """
    count, worth = tokens_worth(state, side, carriers)
    return value - card - worth + card * count


class Virus(Power):
    name = "Virus"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), whenever you reveal an Attack as a main player"
    provenance = "mayfair"
    description = ("As a main player who reveals an Attack, your card is multiplied by the number of your own "
                   "tokens in the challenge instead of those tokens being added; your allies' tokens are then "
                   "added as usual. With no token of your own in the challenge, your card counts nothing.")

    def side_total(self, state, me, value, *, side, card, effect=None):
        if side_of_main(state, me) != side or not revealed_attack(state, side):
            return value
        carriers = set(side_tokens(state, side)) if SUPER.in_force(state, me) else {me}
        return infected_total(state, side, value, card, carriers)


POWER = Virus()


class VirusWild(Flare):
    """Wild: this challenge your Attack multiplies with your tokens as the Virus's does."""

    power = "Virus"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as a main player who revealed an Attack, infect your side for this "
                   "challenge: your card is multiplied by your own tokens in the challenge instead of adding "
                   "them; your allies' tokens still add.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not revealed_attack(state, side):
            return []
        return [self.offer(card, label="multiply your Attack by your tokens")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def side_total(self, state, me, value, *, side, card, effect):
        if side != effect["side"] or main_player(state, side) != me or not revealed_attack(state, side):
            return value
        return infected_total(state, side, value, card, {me})


class VirusSuper(Flare):
    """Super: the allies' tokens multiply the Virus's Attack too."""

    power = "Virus"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as the Virus main player with an Attack, your allies' tokens join the "
                   "infection this challenge: your card is multiplied by every token on your side, yours and "
                   "your allies', and none of them is added.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not revealed_attack(state, side):
            return []
        return [self.offer(card, label="multiply your Attack by every token on your side")]

    def use(self, ctx, me, card, args, use):
        # a marker: the Virus power reads it while it is in force (a zapped Virus multiplies nothing)
        self.add_effect(ctx, me)


WILD = VirusWild()
SUPER = VirusSuper()
