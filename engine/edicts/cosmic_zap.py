"""Cosmic Zap: cancel one use of a power, or a power for the rest of the challenge."""

from engine import shapes
from engine.hooks import fire
from engine.powers.base import ANY_WINDOW, Edict, cancel_use
from engine.state import power_active, powers_of


class CosmicZap(Edict):
    name = "CosmicZap"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = (ANY_WINDOW,)
    provenance = "mayfair"
    description = ("Any time: cancel one use of an alien power as it is used, or switch one player's power "
                   "off for the rest of this challenge (mandatory effects included).")

    def options(self, state, me, card, window):
        if state["ch"] is None:
            return []
        targets = [f"{color}:{name}" for color in state["order"] for name in powers_of(state, color)
                   if power_active(state, color, name)]
        if not targets:
            return []
        return [self.offer(card, {"target": shapes.choice(targets)}, label="zap a power for this challenge")]

    def respond_options(self, state, me, card, use):
        if not use["ability"].startswith("power:"):
            return []
        return [self.offer(card, label=f"cancel {use['player']}'s use of {use['ability'][6:]}")]

    def use(self, ctx, me, card, args, use):
        target = use.get("target")
        if target is not None:  # answering a power use: that use is cancelled
            cancel_use(ctx, me, target)
            fire(ctx, "on_zapped", target=target["player"], power=target["ability"][6:])
            return
        color, name = args["target"].split(":", 1)
        if power_active(ctx.state, color, name):
            # told first, while the zapped power is still in force, so that it hears of its own zap (Human)
            fire(ctx, "on_zapped", target=color, power=name)
            ctx.emit("PowerZapped", player=me, target=color, power=name)


EDICT = CosmicZap()
