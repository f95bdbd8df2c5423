"""Ionic Gas (an artifact of the Fantasy Flight deck): no compensation and no rewards this encounter."""

from engine.powers.base import Edict


class IonicGas(Edict):
    name = "IonicGas"
    windows = ("before_compensation",)  # the resolution phase, before compensation and rewards (RULES.md 9)
    lasting = True
    provenance = "ffg"  # the published artifact; RULES.md 9 reads it as Stellar Gas and Cosmic Gas in one card
    editions = ("ffg",)
    description = ("In the resolution phase, before compensation and rewards: nobody takes compensation and no "
                   "ally collects "
                   "rewards this encounter; allies who would have collected them still take their ships "
                   "back to their colonies.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if not ch or not ch["revealed"] or any(e["source"] == self.source for e in ch["effects"]):
            return []
        return [self.offer(card, label="no compensation and no rewards this encounter")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def consolation_count(self, state, me, value, *, player, effect):
        return 0

    def reward_count(self, state, me, value, *, player, effect):
        return 0


EDICT = IonicGas()
