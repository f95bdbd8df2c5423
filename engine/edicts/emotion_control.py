"""Emotion Control: the revealed Attacks (and War cards) become Compromises."""

from engine.powers.base import Edict
from engine.revealed import card_kind

# 004's change to this edict: with War cards in the game, War cards are turned too
TURNED = {"attack", "war"}


class EmotionControl(Edict):
    name = "EmotionControl"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = ("reveal",)
    lasting = True
    provenance = "mayfair"
    description = ("After the challenge cards are revealed: every revealed Attack card counts as a Compromise "
                   "for the rest of the challenge. With War cards in the game (004), every revealed War card "
                   "counts as a Compromise too.")

    def options(self, state, me, card, window):
        if not state["ch"] or not state["ch"]["revealed"]:
            return []
        if not any(card_kind(state, side) in TURNED for side in ("offense", "defense")):
            return []
        return [self.offer(card, label="revealed Attacks become Compromises")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)

    def card_kind(self, state, me, value, *, side, effect):
        # a War card exists only with war_cards on, where 004 turns it as well
        return "compromise" if value in TURNED else value


EDICT = EmotionControl()
