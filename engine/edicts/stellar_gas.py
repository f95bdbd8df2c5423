"""Stellar Gas: no consolation is taken this challenge."""

from engine.powers.base import Edict
from engine.revealed import card_kind


class StellarGas(Edict):
    name = "StellarGas"
    windows = ("reveal",)
    lasting = True
    provenance = "mayfair"
    description = ("After the challenge cards are revealed: nobody takes consolation this challenge "
                   "(after a Compromise or a War card alike).")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if not ch or not ch["revealed"] or any(e["source"] == self.source for e in ch["effects"]):
            return []
        # consolation is possible only when a Compromise or a War card is in the challenge
        if not {card_kind(state, side) for side in ("offense", "defense")} & {"compromise", "war"}:
            return []
        return [self.offer(card, label="no consolation this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def consolation_count(self, state, me, value, *, player, effect):
        return 0


EDICT = StellarGas()
