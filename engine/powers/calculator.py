"""Calculator: declare an equalizer before the reveal; the higher Attack is reduced by the lower."""

from engine import shapes
from engine.powers.base import Flare, Power, note_once
from engine.state import ally_side, cards_committed, declaration_open, opponent_side, side_of_main

EQUALIZER = "equalizer"  # challenge note: the Calculator player who declared it


def equalized(values: dict) -> dict:
    """Two unequal Attacks: the higher becomes the difference; anything else is unchanged."""
    off, dfn = values.get("offense"), values.get("defense")
    if off is None or dfn is None or off == dfn:
        return values
    high = "offense" if off > dfn else "defense"
    return {**values, high: abs(off - dfn)}


class Calculator(Power):
    name = "Calculator"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "after the challenge cards are chosen, before the reveal (once per challenge)"
    windows = ("committed",)
    provenance = "mayfair"
    description = ("As a main player, once both challenge cards are chosen and before they are revealed, you "
                   "may declare an equalizer: if two Attacks of different values are revealed, the higher is "
                   "reduced by the lower (15 against 8 becomes 7 against 8); then the challenge is decided "
                   "as usual.")

    def options(self, state, me, window):
        if side_of_main(state, me) is None or not declaration_open(state, EQUALIZER):
            return []
        return [self.offer(label="declare an equalizer")]

    def use(self, ctx, me, args, use):
        note_once(ctx, EQUALIZER, me)  # the Calculator power applies it while in force

    def attack_values(self, state, me, value, *, effect=None):
        return equalized(value) if state["ch"]["notes"].get(EQUALIZER) == me else value


POWER = Calculator()


class CalculatorWild(Flare):
    """Wild: call the parity of the two Attacks; right, the opponent's card loses yours; wrong, the reverse."""

    power = "Calculator"
    mode = "wild"
    windows = ("committed",)
    lasting = True
    provenance = "ffg"
    description = ("As a main player, after the challenge cards are chosen and before the reveal, call 'odd' "
                   "or 'even'. If two Attacks are revealed and their sum is as you called, your opponent's "
                   "Attack is reduced by yours; if not, yours is reduced by your opponent's (never below 0).")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not cards_committed(state) or state["ch"]["revealed"]:
            return []
        return [self.offer(card, {"call": shapes.choice(["odd", "even"])}, label="call odd or even")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me), call=args["call"])

    def attack_values(self, state, me, value, *, effect):
        mine, theirs = effect["side"], opponent_side(effect["side"])
        if value.get(mine) is None or value.get(theirs) is None:
            return value
        parity = "even" if (value[mine] + value[theirs]) % 2 == 0 else "odd"
        cut, by = (theirs, mine) if parity == effect["call"] else (mine, theirs)
        return {**value, cut: max(0, value[cut] - value[by])}


class CalculatorSuper(Flare):
    """Super: the Calculator may declare its equalizer as an ally too."""

    power = "Calculator"
    mode = "super"
    windows = ("committed",)
    provenance = "ffg"
    description = ("As the Calculator allied with a side, once both challenge cards are chosen and before "
                   "the reveal, you may declare your equalizer as if you were a main player.")

    def options(self, state, me, card, window):
        if ally_side(state, me) is None or not declaration_open(state, EQUALIZER):
            return []
        return [self.offer(card, label="declare an equalizer as an ally")]

    def use(self, ctx, me, card, args, use):
        note_once(ctx, EQUALIZER, me)  # the Calculator power applies it while in force


WILD = CalculatorWild()
SUPER = CalculatorSuper()
