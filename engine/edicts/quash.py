"""Quash: a deal just made is cancelled and counts as a failed deal."""

from engine.powers.base import Edict


class Quash(Edict):
    name = "Quash"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = ("deal",)
    provenance = "mayfair"
    description = ("After a deal is agreed, before it is carried out: cancel it. Nothing in it happens and it "
                   "counts as a failed deal, so each main player loses 3 tokens of its choice.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        deal = ch and ch["deal"]
        if not deal or deal["accepted"] is None or deal["made"] is not None or ch["notes"].get("deal_quashed"):
            return []
        return [self.offer(card, label="cancel the deal")]

    def use(self, ctx, me, card, args, use):
        # engine.steps.deal fails a quashed deal instead of carrying it out
        ctx.emit("ChallengeNoted", key="deal_quashed", value=True)


EDICT = Quash()
