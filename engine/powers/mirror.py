"""Mirror: declare a reversal before the reveal; revealed Attacks read their digits backwards."""

from engine import cards, shapes
from engine.powers.base import Flare, Power, note_once
from engine.state import committed_challenge_cards, declaration_open, opponent_side, side_of_main

REVERSAL = "reversal"  # challenge note: {"by": player, "sides": [...]} whose Attacks are reversed
SIDES = ("offense", "defense")


def reversed_digits(value: int) -> int:
    """An Attack's digits read backwards, as printed with two digits: 15 -> 51, 8 (08) -> 80, 20 -> 2."""
    return int(f"{value:02d}"[::-1]) if value >= 0 else value


class Mirror(Power):
    name = "Mirror"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after the challenge cards are chosen, before the reveal (once per challenge)"
    windows = ("committed",)
    provenance = "mayfair"
    description = ("As a main player, once both challenge cards are chosen and before they are revealed, you "
                   "may call a reversal: every Attack revealed this challenge counts with its two digits "
                   "swapped (15 counts 51, 08 counts 80, 20 counts 02).")

    def options(self, state, me, window):
        if side_of_main(state, me) is None or not declaration_open(state, REVERSAL):
            return []
        return [self.offer(label="call a reversal")]

    def use(self, ctx, me, args, use):
        note_once(ctx, REVERSAL, {"by": me, "sides": list(SIDES)})

    def attack_values(self, state, me, value, *, effect=None):
        called = state["ch"]["notes"].get(REVERSAL)
        if not called or called["by"] != me:
            return value
        return {side: reversed_digits(v) if side in called["sides"] and v is not None else v
                for side, v in value.items()}


POWER = Mirror()


def printed(state: dict, side: str) -> str | None:
    """The first challenge card a side committed (the card as printed)."""
    played = committed_challenge_cards(state, side)
    return played[0] if played else None


class MirrorWild(Flare):
    """Wild: after the reveal, your card becomes an exact copy of your opponent's."""

    power = "Mirror"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("After the reveal, as a main player, your revealed challenge card becomes an exact copy of "
                   "your opponent's card as printed (its kind and, for an Attack, its value) this challenge.")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"] or not printed(state, side):
            return []
        if not printed(state, opponent_side(side)):
            return []
        return [self.offer(card, label="copy your opponent's card")]

    def use(self, ctx, me, card, args, use):
        side = side_of_main(ctx.state, me)
        self.add_effect(ctx, me, side=side, copy=printed(ctx.state, opponent_side(side)))

    def card_kind(self, state, me, value, *, side, effect):
        # the copy is of the printed card: reading the opponent's folded kind could loop between two mirrors
        return cards.kind(effect["copy"]) if side == effect["side"] else value

    def attack_values(self, state, me, value, *, effect):
        side = effect["side"]
        if value.get(side) is None:
            return value
        return {**value, side: cards.attack_value(effect["copy"])}


class MirrorSuper(Flare):
    """Super: the Mirror's reversal affects one card of its choice."""

    power = "Mirror"
    mode = "super"
    windows = ("committed",)
    provenance = "ffg"
    description = ("As the Mirror main player, once both challenge cards are chosen and before the reveal, "
                   "call a reversal that applies to one card only: your own or your opponent's, as you "
                   "choose.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not declaration_open(state, REVERSAL):
            return []
        return [self.offer(card, {"card": shapes.choice(["mine", "opponent"])},
                           label="reverse the digits of one card")]

    def use(self, ctx, me, card, args, use):
        side = side_of_main(ctx.state, me)
        target = side if args["card"] == "mine" else opponent_side(side)
        note_once(ctx, REVERSAL, {"by": me, "sides": [target]})


WILD = MirrorWild()
SUPER = MirrorSuper()
