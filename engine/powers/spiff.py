"""Spiff: crash-lands on the planet it failed to take by a wide margin."""

from engine import shapes
from engine.powers.base import Flare, Power
from engine.state import bases, warp_count
from engine.steps.tokens import move

MARGIN = 10
SUPER_MARGIN = 5


def lost_by(state: dict) -> int | None:
    """By how much the offense lost an Attack against Attack, or None if it did not lose one."""
    result = state["ch"]["outcome"] or {}
    if result.get("kind") != "attack" or result.get("winner") != "defense" or not result.get("totals"):
        return None
    # the gap between the totals, whichever way round the lower total wins (Anti-Matter, Loser)
    return abs(result["totals"]["defense"] - result["totals"]["offense"])


def landing_sources(state: dict, me: str) -> list[str]:
    """Where the landing token comes from: the warp where the lost ones went, else one of my bases."""
    planet = state["ch"]["planet"]
    return (["warp"] if warp_count(state, me) else []) + [p for p in bases(state, me) if p != planet]


def land(ctx, me: str, src: str, reason: str) -> None:
    """One of my tokens lands on the target planet, beside whatever is there."""
    if src == "warp" and not warp_count(ctx.state, me):
        return
    if src != "warp" and not ctx.state["planets"].get(src, {}).get(me):
        return
    move(ctx, [(me, src, ctx.state["ch"]["planet"], 1)], reason)


class Spiff(Power):
    name = "Spiff"
    editions = ("mayfair", "ffg")
    who = ("offense",)
    mandatory = False
    timing = "after losing an Attack against Attack by 10 or more"
    windows = ("resolution",)
    provenance = "mayfair"
    description = ("As the offense, if you lose an Attack against Attack by 10 or more, you may crash-land: "
                   "one of your tokens (from the warp, or else from one of your bases) lands on the target "
                   "planet anyway, giving you a base there beside the defense.")

    def options(self, state, me, window):
        gap = lost_by(state)
        if me != state["turn"]["offense"] or gap is None or not state["ch"]["planet"]:
            return []
        if gap < (SUPER_MARGIN if SUPER.in_force(state, me) else MARGIN):
            return []
        sources = landing_sources(state, me)
        if not sources:
            return []
        return [self.offer({"from": shapes.choice(sources)}, label="crash-land one token on the planet")]

    def use(self, ctx, me, args, use):
        land(ctx, me, args["from"], self.name)


POWER = Spiff()


class SpiffWild(Flare):
    """Wild: a beaten defense keeps a foothold."""

    power = "Spiff"
    mode = "wild"
    windows = ("resolution",)
    provenance = "ffg"
    description = ("As the defense, after losing the challenge, one of the tokens you lost comes back from the "
                   "warp onto the planet, where it stays beside the winners.")

    def options(self, state, me, card, window):
        result = state["ch"]["outcome"] or {}
        if me != state["ch"]["defense"] or result.get("winner") != "offense" or not warp_count(state, me):
            return []
        if not (result.get("tokens") or {}).get("defense", {}).get(me):  # it defended with no token
            return []
        return [self.offer(card, label="keep one token on the planet")]

    def use(self, ctx, me, card, args, use):
        land(ctx, me, "warp", "Spiff Wild Flare")


class SpiffSuper(Flare):
    """Super: crash-land after losing by 5 or more."""

    power = "Spiff"
    mode = "super"
    windows = ("launch", "alliance", "planning", "committed", "reveal", "resolution")
    lasting = True
    provenance = "ffg"
    description = ("As the offense, for the rest of this challenge you may use your power if you lose by 5 "
                   "or more instead of 10.")

    def options(self, state, me, card, window):
        if me != state["turn"]["offense"] or self.in_force(state, me):
            return []
        return [self.offer(card, label="crash-land after losing by 5 or more")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me)


WILD = SpiffWild()
SUPER = SpiffSuper()
