"""Citadel: builds citadels — Attack cards face up beside planets — and may add them to a planet's defense.

A citadel is a card in a place of its own (``citadel:<planet>``: `engine.evolve.card_place`), face up
and public (the board's ``citadels``), counted by the card invariants. After destiny (the ``destiny``
window) of any player's challenge, the Citadel may put an Attack card from its hand beside any planet
as a citadel. When the challenge's planet has citadels, after the challenge cards are committed and
before they are revealed (``committed`` window), it may activate them all: their values are added to
the defense's total (an effect with ``side``/``adds``, as reinforcements are). Activated citadels are
discarded if the defense loses; otherwise, and when not activated, they stay.
"""

from engine import cards, shapes
from engine.powers.base import Flare, Power
from engine.registry import register_effect
from engine.state import allies, hand, side_of_main

RULE = "power:Citadel"
ACTIVATED = "citadel"  # the source of the effect activated citadels put in force
WILD_ADDS = 5


def citadels(state: dict, planet: str) -> list[str]:
    """The citadels beside a planet (none if never built)."""
    return list((state.get("citadels") or {}).get(planet, []))


def activated(state: dict) -> bool:
    """Whether the challenge's citadels were activated this challenge."""
    return any(e["source"] == ACTIVATED for e in state["ch"]["effects"])


def citadel_value(state: dict, planet: str) -> int:
    """The combined printed value of the citadels beside a planet."""
    return sum(cards.attack_value(c) or 0 for c in citadels(state, planet))


def activate(ctx, me: str, sign: int, reason: str) -> None:
    """All the citadels of the challenge's planet add to (or, under the Super, take from) the defense's total."""
    planet = ctx.state["ch"]["planet"]
    if activated(ctx.state) or not citadels(ctx.state, planet):
        return
    ctx.emit("EffectAdded", effect={"source": ACTIVATED, "player": me, "side": "defense", "planet": planet,
                                    "adds": sign * citadel_value(ctx.state, planet), "by": reason})


class Citadel(Power):
    name = "Citadel"
    editions = ("ffg",)
    who = ("any",)
    mandatory = False
    timing = "after destiny (build); after cards are committed (activate)"
    windows = ("destiny", "committed")
    provenance = "ffg"
    uses_per_challenge = 2  # one citadel built, one activation
    description = ("During any player's encounter, after destiny is drawn, you may put an attack card from your "
                   "hand face up beside any planet as a citadel. When the targeted planet has citadels, after "
                   "encounter cards are selected and before they are revealed, you may activate them all: their "
                   "combined value is added to the defense's total. Activated citadels are discarded if the "
                   "defense loses; otherwise citadels stay where they are.")

    def options(self, state, me, window):
        ch = state["ch"]
        if window == "destiny":
            attacks = [c for c in hand(state, me) if cards.kind(c) == "attack"]
            if not attacks or ch["notes"].get("citadel_built"):
                return []
            return [self.offer({"card": shapes.choice(attacks), "planet": shapes.choice(sorted(state["planets"]))},
                               label="build a citadel beside a planet")]
        if window == "committed" and ch.get("planet") and citadels(state, ch["planet"]) and not activated(state):
            value = citadel_value(state, ch["planet"])
            return [self.offer(label=f"activate the citadels of {ch['planet']}: +{value} to the defense")]
        return []

    def use(self, ctx, me, args, use):
        if "card" not in args:  # the activation (the committed window)
            activate(ctx, me, +1, "Citadel")
            return
        card, planet = args["card"], args["planet"]
        if card not in hand(ctx.state, me):
            return
        ctx.emit("CardsMoved", cards=[card], src=f"hand:{me}", dst=f"citadel:{planet}", seen_by=None,
                 reason="Citadel")
        ctx.emit("ChallengeNoted", key="citadel_built", value=planet)


POWER = Citadel()


class Activated:
    """The hooks of activated citadels: discarded with the defense's loss (whatever became of the power)."""

    def on_resolved(self, ctx, me, *, outcome, effect=None):
        if outcome.get("winner") == "defense" and not outcome.get("both_lose"):
            return
        if outcome.get("winner") is None and not outcome.get("both_lose"):
            return  # a deal: nobody lost
        planet = effect["planet"]
        built = citadels(ctx.state, planet)
        if built:
            ctx.emit("CardsMoved", cards=built, src=f"citadel:{planet}", dst="discard", seen_by=None,
                     reason="citadels fall with the defense")


register_effect(ACTIVATED, Activated())


class CitadelWild(Flare):
    """Wild: as a main player or ally, after the reveal, add 5 to the defense's total."""

    power = "Citadel"
    mode = "wild"
    windows = ("reveal",)
    lasting = True
    provenance = "ffg"
    description = "As a main player or ally, after encounter cards are revealed, you may add 5 to the defense's total."

    def options(self, state, me, card, window):
        ch = state["ch"]
        involved = side_of_main(state, me) or me in allies(state, "offense") + allies(state, "defense")
        if not involved or not ch["revealed"] or self.in_force(state, me):
            return []
        return [self.offer(card, label="add 5 to the defense's total")]

    def use(self, ctx, me, card, args, use):
        self.add_effect(ctx, me, side="defense", adds=WILD_ADDS)


class CitadelSuper(Flare):
    """Super: activate your citadels to take their value from the defense's total instead."""

    power = "Citadel"
    mode = "super"
    windows = ("committed",)
    provenance = "ffg"
    description = ("When you activate your citadels you may subtract their combined value from the defense's total "
                   "instead of adding it; they are still discarded if the defense loses.")

    def options(self, state, me, card, window):
        ch = state["ch"]
        if not ch.get("planet") or not citadels(state, ch["planet"]) or activated(state):
            return []
        return [self.offer(card, label=f"activate the citadels of {ch['planet']}: "
                                       f"-{citadel_value(state, ch['planet'])} to the defense")]

    def use(self, ctx, me, card, args, use):
        activate(ctx, me, -1, "Citadel Super Flare")


WILD = CitadelWild()
SUPER = CitadelSuper()
