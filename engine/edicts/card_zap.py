"""Card Zap: cancel a flare or an edict as it is played."""

from engine.powers.base import Edict, cancel_use


class CardZap(Edict):
    name = "CardZap"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = ()
    provenance = "mayfair"
    description = ("When a flare or an edict (a Card Zap included) is played, cancel it: it has no effect "
                   "and is discarded.")

    def respond_options(self, state, me, card, use):
        if not use["ability"].startswith("card:") or use.get("source") == "reinforcement":
            return []
        return [self.offer(card, label=f"cancel {use['player']}'s {use['ability'][5:]}")]

    def use(self, ctx, me, card, args, use):
        cancel_use(ctx, me, use["target"])


EDICT = CardZap()
