"""Cosmic Zap: cancel one use of a power, or a power for the rest of the challenge.

Under ``ffg`` (RULES.md 9, the published artifact) the power whose use is cancelled may not be used
again in the encounter: it is switched off as a zap for the challenge switches it (`PowerZapped`), so
its other uses and mandatory effects stop and its owner's flare plays only Wild until the encounter
ends. The FFG zap may also cancel a Super flare as it is played: the flare goes back to its owner's
hand and does not count as that player's flare of the encounter (a ``flares_zapped`` note beside
``ch["flares"]``: `engine.usable.may_play_a_flare`).
"""

from engine import shapes
from engine.hooks import fire
from engine.powers.base import ANY_WINDOW, Edict, cancel_use
from engine.state import power_active, powers_of

# the editions whose zap switches the power off for the encounter and may cancel a Super flare
ENCOUNTER_LONG = ("ffg",)
FLARES_ZAPPED = "flares_zapped"  # the challenge note: players whose Super flare a zap sent back to hand


def encounter_long(state: dict) -> bool:
    """Whether a zap here is the FFG artifact (RULES.md 9) rather than the Mayfair edict (RULES.md 6)."""
    return (state.get("ruleset") or "mayfair") in ENCOUNTER_LONG


def super_flare(use: dict) -> bool:
    """Whether a use being announced plays a flare's Super effect."""
    return use["ability"].startswith("card:Flare:") and use.get("source", "").endswith(":super")


class CosmicZap(Edict):
    name = "CosmicZap"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = (ANY_WINDOW,)
    provenance = "mayfair"
    description = ("Any time: cancel one use of an alien power as it is used, or switch one player's power "
                   "off for the rest of this challenge (mandatory effects included). Under ffg a power whose "
                   "use is cancelled may not be used again this encounter (its flare plays only Wild), and a "
                   "Super flare may be cancelled as it is played: it goes back to its owner's hand.")

    def options(self, state, me, card, window):
        if state["ch"] is None:
            return []
        targets = [f"{color}:{name}" for color in state["order"] for name in powers_of(state, color)
                   if power_active(state, color, name)]
        if not targets:
            return []
        return [self.offer(card, {"target": shapes.choice(targets)}, label="zap a power for this challenge")]

    def respond_options(self, state, me, card, use):
        if use["ability"].startswith("power:"):
            return [self.offer(card, label=f"cancel {use['player']}'s use of {use['ability'][6:]}")]
        if super_flare(use) and encounter_long(state):
            return [self.offer(card, label=f"cancel {use['player']}'s {use['ability'][5:]} (Super)")]
        return []

    def use(self, ctx, me, card, args, use):
        target = use.get("target")
        if target is not None and target["ability"].startswith("card:"):  # (ffg) a Super flare as it is played
            self.send_back(ctx, me, target)
            return
        if target is not None:  # answering a power use: that use is cancelled
            cancel_use(ctx, me, target)
            color, name = target["player"], target["ability"][6:]
            fire(ctx, "on_zapped", target=color, power=name)
            if encounter_long(ctx.state) and power_active(ctx.state, color, name):
                ctx.emit("PowerZapped", player=me, target=color, power=name)  # not again this encounter
            return
        color, name = args["target"].split(":", 1)
        if power_active(ctx.state, color, name):
            # told first, while the zapped power is still in force, so that it hears of its own zap (Human)
            fire(ctx, "on_zapped", target=color, power=name)
            ctx.emit("PowerZapped", player=me, target=color, power=name)

    def send_back(self, ctx, me: str, target: dict) -> None:
        """Cancel a Super flare being played: back to its owner's hand (or hoard), not counted as its flare."""
        cancel_use(ctx, me, target)
        player, flare = target["player"], target["ability"][5:]
        if flare in ctx.state["table"]:
            ctx.emit("CardsMoved", cards=[flare], src="table", dst=target.get("src") or f"hand:{player}",
                     seen_by=None, reason="flare zapped")
        zapped = list(ctx.state["ch"]["notes"].get(FLARES_ZAPPED) or [])
        ctx.emit("ChallengeNoted", key=FLARES_ZAPPED, value=zapped + [player])


EDICT = CosmicZap()
