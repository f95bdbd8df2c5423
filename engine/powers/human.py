"""Human: +4 to its side, and a side whose Human is zapped wins."""

from engine import shapes
from engine.hooks import fire
from engine.powers.base import Flare, Power
from engine.powers.pacifist import win_for
from engine.registry import register_effect
from engine.state import has_effect, main_player, opponent_side, powers_of, side_of, side_of_main

BONUS = 4
SUPER_BONUS = 8
WILD_ATTACK = 42
ZAPPED = "power:Human:zapped"  # the effect that remembers, for the rest of the challenge, that Human was zapped


class Human(Power):
    name = "Human"
    editions = ("mayfair", "ffg")
    who = ("main", "ally")
    mandatory = True
    timing = "the reveal (stage 8), as a main player or ally; and whenever a Cosmic Zap cancels it"
    provenance = "mayfair"
    description = ("As a main player or ally, add 4 to your side's total. If a Cosmic Zap cancels this power, "
                   "your side wins the challenge (the side you are on when it is decided).")

    def side_total(self, state, me, value, *, side, card, effect=None):
        if side_of(state, me) != side:
            return value
        return value + (SUPER_BONUS if SUPER.in_force(state, me) else BONUS)

    def on_zapped(self, ctx, me, *, target, power, effect=None):
        if target == me and power == self.name and not has_effect(ctx.state, ZAPPED, me):
            ctx.emit("EffectAdded", effect={"source": ZAPPED, "player": me})


POWER = Human()


class HumanZapped:
    """The zapped Human's side wins: the last word on the outcome, although the power is off."""

    def outcome(self, state, me, value, *, effect):
        side = side_of(state, me)
        return win_for(state, value, side) if side else value


register_effect(ZAPPED, HumanZapped())


def human_players(state: dict) -> list[str]:
    """The players holding the Human power (active or not)."""
    return [c for c in state["order"] if "Human" in powers_of(state, c)]


class HumanWild(Flare):
    """Wild: your revealed card becomes an Attack 42; the flare then goes to the Human."""

    power = "Human"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    discard_after_use = False  # it goes to the Human's hand instead (see use)
    description = ("After the reveal, as a main player whose opponent is not the Human, your revealed "
                   "challenge card becomes an Attack 42 this challenge. The flare then goes to the Human "
                   "player's hand (discarded if nobody is the Human).")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"] or not state["committed"][side]:
            return []
        opponent = main_player(state, opponent_side(side))
        if "Human" in powers_of(state, opponent):
            return []
        return [self.offer(card, label="your card becomes an Attack 42")]

    def use(self, ctx, me, card, args, use):
        state = ctx.state
        self.add_effect(ctx, me, side=side_of_main(state, me))
        humans = [c for c in human_players(state) if c != me]
        dst = f"hand:{humans[0]}" if humans else "discard"
        ctx.emit("CardsMoved", cards=[card], src="table", dst=dst, seen_by=None, reason="Human Wild Flare")

    def card_kind(self, state, me, value, *, side, effect):
        return "attack" if side == effect["side"] else value

    def attack_values(self, state, me, value, *, effect):
        return {**value, effect["side"]: WILD_ATTACK}


class HumanSuper(Flare):
    """Super: +8 instead of +4, or zap your own power to win."""

    power = "Human"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("After the reveal, as a main player or ally, either add 8 to your side's total instead of "
                   "4 this challenge, or zap your own power: as with a Cosmic Zap, your side then wins.")

    def options(self, state, me, card, window):
        if side_of(state, me) is None or not state["ch"]["revealed"]:
            return []
        return [self.offer(card, {"effect": shapes.choice(["add_8", "zap_self"])},
                           label="add 8 instead of 4, or zap your own power")]

    def use(self, ctx, me, card, args, use):
        if args["effect"] == "add_8":
            # a marker read by the Human power while it is in force
            self.add_effect(ctx, me)
            return
        fire(ctx, "on_zapped", target=me, power="Human")
        ctx.emit("PowerZapped", player=me, target=me, power="Human")


WILD = HumanWild()
SUPER = HumanSuper()
