"""Reinforcement cards (RULES.md 4, stage 8): +2, +3, +5 to either side of an Attack-against-Attack."""

from __future__ import annotations

from engine import cards, shapes
from engine.powers.base import CardAbility
from engine.revealed import card_kind
from engine.state import involved


class Reinforcement(CardAbility):
    """A player involved in the challenge adds a reinforcement to either side's total."""

    name = "Reinforcement"
    windows = ("reveal",)
    description = ("After the reveal of two Attacks, a main player or ally adds the card's value to "
                   "either side's total; it is discarded with the challenge cards.")
    discard_after_use = False

    @property
    def rule(self) -> str:
        return "6.reinforcement"

    def options(self, state, me, card, window):
        if me not in involved(state) or not state["ch"]["revealed"]:
            return []
        if card_kind(state, "offense") != "attack" or card_kind(state, "defense") != "attack":
            return []
        value = cards.card(card)["value"]
        return [self.offer(card, {"side": shapes.choice(["offense", "defense"])}, label=f"add {value} to a side")]

    def use(self, ctx, me, card, args, use):
        ctx.emit("EffectAdded", effect={"source": "reinforcement", "player": me, "side": args["side"],
                                        "value": cards.card(card)["value"], "card": card})


REINFORCEMENT = Reinforcement()
