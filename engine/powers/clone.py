"""Clone: keep the challenge card you played instead of discarding it."""

from engine import cards
from engine.powers.base import Flare, Power
from engine.state import side_of_main
from engine.steps.resolve import attack_values


def own_played_cards(state: dict, me: str) -> list[str]:
    """The challenge cards a main player committed this challenge (none if not a main player)."""
    side = side_of_main(state, me)
    return [c for c in state["committed"][side] if cards.is_challenge_card(c)] if side else []


def keep_played_cards(ctx, me: str, reason: str) -> None:
    """Move a main player's played challenge cards back into its hand; they were revealed, so it is public."""
    side = side_of_main(ctx.state, me)
    kept = own_played_cards(ctx.state, me)
    if kept:
        ctx.emit("CardsMoved", cards=kept, src=f"committed:{side}", dst=f"hand:{me}", seen_by=None, reason=reason)


class Clone(Power):
    name = "Clone"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = False
    timing = "stage 9 (discard)"
    windows = ("discard",)
    provenance = "mayfair"
    description = ("As a main player, when the challenge cards are discarded you may take the challenge card "
                   "you played back into your hand instead of discarding it, so it can be played again.")

    def options(self, state, me, window):
        if not own_played_cards(state, me):
            return []
        return [self.offer(label="keep the challenge card you played")]

    def use(self, ctx, me, args, use):
        keep_played_cards(ctx, me, "Clone")


POWER = Clone()


class CloneWild(Flare):
    """Wild: keep your own played challenge card once, as the Clone does."""

    power = "Clone"
    mode = "wild"
    windows = ("discard",)
    provenance = "house"
    description = ("At stage 9, as a main player, take the challenge card you played back into your hand "
                   "instead of discarding it.")

    def options(self, state, me, card, window):
        if not own_played_cards(state, me):
            return []
        return [self.offer(card, label="keep the challenge card you played")]

    def use(self, ctx, me, card, args, use):
        keep_played_cards(ctx, me, "Clone Wild Flare")


class CloneSuper(Flare):
    """Super: a clone of your revealed Attack fights beside it: its value counts twice."""

    power = "Clone"
    mode = "super"
    windows = ("reveal",)
    lasting = True
    provenance = "house"
    description = ("After the reveal, as the Clone main player who revealed an Attack, your Attack card counts "
                   "twice its value for the rest of this challenge (before kickers).")

    def options(self, state, me, card, window):
        side = side_of_main(state, me)
        if side is None or not state["ch"]["revealed"] or attack_values(state)[side] is None:
            return []
        return [self.offer(card, label="your Attack counts twice")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def attack_values(self, state, me, value, *, effect):
        side = effect["side"]
        if value.get(side) is None:
            return value
        return {**value, side: value[side] * 2}


WILD = CloneWild()
SUPER = CloneSuper()
