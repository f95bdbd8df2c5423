"""Hawk (004): its high Attacks count as War cards."""

from engine import cards
from engine.powers.base import Flare, Power
from engine.revealed import card_kind
from engine.state import ally_side, main_player

THRESHOLD = 10  # an Attack printed above this counts as War
CHALLENGE_KINDS = ("attack", "compromise", "war")


def printed_above(state: dict, side: str) -> bool:
    """Whether a side's challenge card is an Attack printed higher than 10 (before any modification)."""
    played = [c for c in state["committed"][side] if cards.is_challenge_card(c)]
    value = cards.attack_value(played[0]) if played else None
    return value is not None and value > THRESHOLD


class Hawk(Power):
    name = "Hawk"
    who = ("main",)
    mandatory = True
    timing = "when your challenge card is revealed"
    provenance = "source"
    requires = "war_cards"
    description = ("As a main player, an Attack card you play whose printed value is higher than 10 counts as "
                   "a War card instead.")

    def card_kind(self, state, me, value, *, side, effect=None):
        if value == "attack" and main_player(state, side) == me and printed_above(state, side):
            return "war"
        return value


POWER = Hawk()


def war_revealed(state: dict) -> bool:
    """Whether either revealed challenge card counts as a War card now."""
    return any(card_kind(state, side) == "war" for side in ("offense", "defense"))


class HawkWild(Flare):
    """Wild: once a War card is revealed, every challenge card played becomes a War card."""

    power = "Hawk"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "source"
    description = ("After the challenge cards are revealed in any challenge, if a War card was played: declare "
                   "every challenge card played, on both sides, to be a War card.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if not ch or not ch["revealed"] or not war_revealed(state):
            return []
        return [self.offer(card, label="every challenge card is a War card")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def card_kind(self, state, me, value, *, side, effect):
        return "war" if value in CHALLENGE_KINDS else value


class HawkSuper(Flare):
    """Super: as an ally, make your main player's high Attack a War card."""

    power = "Hawk"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "source"
    description = ("As an ally, after the reveal: if the main player you are allied with played an Attack card "
                   "printed higher than 10, declare it to be a War card.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        side = ally_side(state, me)
        if not ch or not ch["revealed"] or side is None:
            return []
        if card_kind(state, side) != "attack" or not printed_above(state, side):
            return []
        return [self.offer(card, label="your main player's Attack is a War card")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=ally_side(ctx.state, me))

    def card_kind(self, state, me, value, *, side, effect):
        return "war" if side == effect["side"] and value == "attack" else value


WILD = HawkWild()
SUPER = HawkSuper()
