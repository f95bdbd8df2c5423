"""Tripler: small Attacks count triple, big ones a third."""

from engine import shapes
from engine.powers.base import Flare, Power
from engine.powers.virus import revealed_attack
from engine.state import involved, side_of_main

SMALL = 10  # an Attack of this value or less is tripled; above it, divided by three


def tripled(value: int) -> int:
    """The Tripler's rule: 10 or less counts triple, above 10 a third rounded up."""
    return value * 3 if value <= SMALL else -(-value // 3)


class Tripler(Power):
    name = "Tripler"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "the reveal (stage 8), whenever you reveal an Attack as a main player"
    provenance = "mayfair"
    description = ("As a main player, an Attack card you reveal of 10 or less counts three times its value; "
                   "one above 10 counts a third of its value, rounded up (an Attack 20 counts 7).")

    def attack_values(self, state, me, value, *, effect=None):
        side = side_of_main(state, me)
        if side is None or value.get(side) is None:
            return value
        always = SUPER.in_force(state, me)
        return {**value, side: value[side] * 3 if always else tripled(value[side])}


POWER = Tripler()


def attack_sides(state: dict) -> list[str]:
    """The sides whose revealed card counts as an Attack."""
    return [side for side in ("offense", "defense") if revealed_attack(state, side)]


class TriplerWild(Flare):
    """Wild: apply the Tripler's rule to one revealed Attack."""

    power = "Tripler"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as a main player or ally, choose one revealed Attack, on either side: "
                   "this challenge it follows the Tripler's rule (10 or less counts triple, above 10 a third "
                   "rounded up).")

    def options(self, state, me, card, window):
        sides = attack_sides(state) if me in involved(state) else []
        if not sides:
            return []
        return [self.offer(card, {"side": shapes.choice(sides)}, label="triple or divide a revealed Attack")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=args["side"])

    def attack_values(self, state, me, value, *, effect):
        side = effect["side"]
        if value.get(side) is None:
            return value
        return {**value, side: tripled(value[side])}


class TriplerSuper(Flare):
    """Super: the Tripler's own Attack counts triple whatever its value."""

    power = "Tripler"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as the Tripler main player with an Attack, your Attack counts triple "
                   "this challenge whatever its value: above 10 it is tripled too instead of divided.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not revealed_attack(state, side):
            return []
        return [self.offer(card, label="triple your Attack whatever its value")]

    def use(self, ctx, me, card, args, use):
        # a marker read by the Tripler power while it is in force
        self.add_effect(ctx, me)


WILD = TriplerWild()
SUPER = TriplerSuper()
