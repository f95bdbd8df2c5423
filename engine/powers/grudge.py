"""Grudge: whoever turns down Grudge's invitation pays for it once the challenge is decided."""

from engine.powers.base import Flare, Power
from engine.state import side_of_main

LOSS_IF_WON = 1
LOSS_IF_LOST = 4


class Grudge(Power):
    name = "Grudge"
    editions = ("mayfair", "ffg")
    who = ("main",)
    mandatory = True
    timing = "stage 8, once the challenge is decided"
    provenance = "mayfair"
    description = ("As a main player, every player you invited to ally who did not join you (declining, or joining "
                   "the other side) pays once the challenge is "
                   "decided: each loses 1 token of its choice to the warp if you won, 4 if you lost. A deal "
                   "(made or failed) decides nothing, so it costs nobody anything.")
    # the FFG card: a deal made counts as a win, a failed deal as a loss
    readings = {"ffg": {"timing": "once the encounter is decided or the deal made or failed", "description": (
        "As a main player, every player you invited to ally who did not join you (declining, or joining the "
        "other side) pays once the encounter is decided: each loses 1 ship of its choice to the warp if you "
        "won or made a deal, 4 if you lost or the deal failed.")}}

    def on_resolved(self, ctx, me, *, outcome, effect=None):
        state = ctx.state
        targets = snubbers(state, me)
        count = revenge_count(state, me, outcome)
        if targets and count:
            self.announce(ctx, me, "revenge", {"targets": targets, "count": count})

    def on_deal_concluded(self, ctx, me, *, made, effect=None):
        if not self.reads(ctx.state, "ffg"):
            return
        targets = snubbers(ctx.state, me)
        count = LOSS_IF_WON if made and not SUPER.in_force(ctx.state, me) else LOSS_IF_LOST
        if targets:
            self.announce(ctx, me, "revenge", {"targets": targets, "count": count})

    def revenge(self, ctx, me, context):
        """Each player who snubbed Grudge loses the tokens it owes, of its own choice."""
        ctx.then(*[ctx.step("losses", player=p, count=context["count"], reason="Grudge", by=me)
                   for p in context["targets"]])


POWER = Grudge()


def snubbers(state: dict, me: str) -> list[str]:
    """Players ``me``'s side invited who did not join it, in the order they answered.

    Declining everyone and joining the other side both turn Grudge down (14.7).
    """
    side = side_of_main(state, me)
    if side is None:
        return []
    ch = state["ch"]
    invited = ch["invited"][side] or []
    return [p for p in ch["answered"] if p in invited and (p in ch["declined"] or ch["allies"].get(p) not in (None, side))]


def revenge_count(state: dict, me: str, outcome: dict) -> int:
    """Tokens each snubber loses: 1 if Grudge won, 4 if it lost, 4 either way under its Super."""
    result = (outcome.get("record") or {}).get(me)
    if result is None:
        return 0
    if SUPER.in_force(state, me):
        return LOSS_IF_LOST
    return LOSS_IF_WON if result == "won" else LOSS_IF_LOST


class GrudgeWild(Flare):
    """Wild: if you lose as a main player, the winner's allies gain nothing (FFG's published Wild)."""

    power = "Grudge"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = ("As a main player, after the reveal: if you lose this challenge, your opponent's allies gain "
                   "nothing from the win (no base, no rewards) and simply take their tokens back to their bases.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) is None or not state["ch"]["revealed"]:
            return []
        return [self.offer(card, label="if you lose, the winner's allies gain nothing")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side=side_of_main(ctx.state, me))

    def ally_gains(self, state, me, value, *, winner, effect):
        if winner == effect["side"]:
            return value
        return {"land": [], "reward": []}


class GrudgeSuper(Flare):
    """Super: the players who snubbed you lose 4 tokens whoever wins (FFG's published Super)."""

    power = "Grudge"
    mode = "super"
    windows = ("alliance", "planning", "committed", "reveal")
    lasting = True
    provenance = "ffg"
    description = ("As a main player, once alliances are formed: this challenge, every player who declined your "
                   "invitation loses 4 tokens whether you win or lose.")

    def options(self, state, me, card, window):
        if not snubbers(state, me) or self.in_force(state, me):
            return []
        return [self.offer(card, label="full revenge: 4 tokens from each who declined, win or lose")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = GrudgeWild()
SUPER = GrudgeSuper()
