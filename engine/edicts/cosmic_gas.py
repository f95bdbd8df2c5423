"""Cosmic Gas: no rewards are collected this challenge."""

from engine.powers.base import Edict


class CosmicGas(Edict):
    name = "CosmicGas"
    windows = ("reveal",)
    lasting = True
    provenance = "mayfair"
    description = ("After the challenge cards are revealed: no ally collects rewards this challenge; allies "
                   "who would have collected them still take their tokens back to their bases.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        # only allies collect rewards: without any, the card could do nothing
        if not ch or not ch["revealed"] or not ch["allies"] or \
                any(e["source"] == self.source for e in ch["effects"]):
            return []
        return [self.offer(card, label="no rewards this challenge")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def reward_count(self, state, me, value, *, player, effect):
        return 0


EDICT = CosmicGas()
