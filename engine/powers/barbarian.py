"""Barbarian: after winning as the offense, loot the defense's hand and burn the rest."""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import discard_cards, give_cards
from engine.powers.base import Flare, Power
from engine.state import hand, main_player, opponent_side, side_of_main


def tokens_had(outcome: dict, side: str, player: str) -> int:
    """How many of a player's tokens were on a side when the challenge was decided."""
    return (outcome.get("tokens") or {}).get(side, {}).get(player, 0)


def won_as(state: dict, outcome: dict, me: str) -> str | None:
    """The side ``me`` won the challenge on as a main player, or None."""
    side = side_of_main(state, me)
    if side is None or outcome.get("both_lose") or outcome.get("kind") == "deal":
        return None
    return side if outcome.get("winner") == side else None


def best_first(card_ids: list[str]) -> list[str]:
    """Cards ordered by what a looter wants most: flares and edicts, then the highest Attacks."""
    def worth(card_id: str) -> tuple:
        kind = cards.kind(card_id)
        special = kind in ("flare", "edict", "war")
        return (not special, -(cards.attack_value(card_id) or 0), card_id)
    return sorted(card_ids, key=worth)


class Barbarian(Power):
    name = "Barbarian"
    editions = ("mayfair", "ffg")
    who = ("offense",)
    mandatory = True
    timing = "after winning a challenge as the offense (stage 8)"
    provenance = "mayfair"
    description = ("When you win a challenge as the offense, you look at the defense's hand and take one card "
                   "of your choice from it for each of your tokens that was in the challenge; every other card "
                   "in the defense's hand is discarded.")
    # the FFG card: the looting comes before any compensation is collected
    readings = {"ffg": {"timing": "after winning an encounter as the offense, before compensation", "description": (
        "When you win an encounter as the offense, before any compensation is collected, you look at the "
        "defense's hand and take one card of your choice from it for each of your ships that was in the "
        "encounter; every other card in the defense's hand is discarded.")}}

    def acts_before_consolation(self, state, me, value, *, effect=None):
        return True if self.reads(state, "ffg") and won_as(state, state["ch"]["outcome"], me) else value

    def before_consolation(self, ctx, me, *, outcome, effect=None):
        if self.reads(ctx.state, "ffg"):
            self.loot(ctx, me, outcome)

    def on_resolved(self, ctx, me, *, outcome, effect=None):
        if not self.reads(ctx.state, "ffg"):
            self.loot(ctx, me, outcome)

    def loot(self, ctx, me, outcome: dict) -> None:
        """Announce the pillage of the beaten main player's hand, if Barbarian may loot it."""
        side = won_as(ctx.state, outcome, me)
        may_loot = side == "offense" or (side == "defense" and SUPER.in_force(ctx.state, me))
        if not may_loot:
            return
        victim = main_player(ctx.state, opponent_side(side))
        if not hand(ctx.state, victim):
            return
        self.announce(ctx, me, "pillage", {"victim": victim, "count": tokens_had(outcome, side, me)})

    def pillage(self, ctx, me, context):
        """Take ``count`` cards of the victim's hand (chosen after looking at it); discard the rest."""
        victim = context["victim"]
        held = list(hand(ctx.state, victim))
        take = min(context["count"], len(held))
        if take == len(held) or take == 0:
            give_cards(ctx, victim, me, held[:take], "Barbarian")
            discard_cards(ctx, victim, held[take:], "Barbarian")
            return
        ctx.emit("HandRevealed", player=victim, to=[me], cards=held)
        ctx.then(ctx.step("barbarian_loot", player=me, victim=victim, count=take))


POWER = Barbarian()


@register
class BarbarianLoot(Step):
    """The Barbarian picks the cards it keeps from the defeated hand; the rest is discarded."""

    op = "barbarian_loot"

    def prompts(self, state, step):
        held = hand(state, step["victim"])
        if len(held) <= step["count"]:
            return []
        shape = shapes.subset(held, step["count"], step["count"])
        return [prompt(step, step["player"], "barbarian_loot", [option("take", {"cards": shape},
                                                                         rule="power:Barbarian")],
                       rule="power:Barbarian", info={"victim": step["victim"], "count": step["count"]})]

    def run(self, ctx, step):
        # the hand shrank to no more than the loot (nothing to choose): take it all
        ctx.done()
        self.loot(ctx, step, list(hand(ctx.state, step["victim"])))

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        self.loot(ctx, step, args["cards"])

    def loot(self, ctx, step, taken: list[str]) -> None:
        """Move the chosen cards to the Barbarian and discard what is left of the victim's hand."""
        victim = step["victim"]
        give_cards(ctx, victim, step["player"], taken, "Barbarian")
        discard_cards(ctx, victim, [c for c in hand(ctx.state, victim) if c not in taken], "Barbarian")

    def default(self, state, step, prompt_, rng):
        """The flares, edicts and highest Attacks first."""
        values = prompt_["options"][0]["args"]["cards"]["values"]
        return {"action": "take", "args": {"cards": best_first(values)[:step["count"]]}}


class BarbarianWild(Flare):
    """Wild: after winning as the offense, grab cards at random from the defense's hand."""

    power = "Barbarian"
    mode = "wild"
    windows = ("resolution",)
    provenance = "house"
    description = ("After winning a challenge as the offense, take at random from the defense's hand one card "
                   "for each of your tokens that was in the challenge. The rest of its hand stays.")

    def options(self, state, me, card, window):
        outcome = state["ch"]["outcome"] or {}
        if won_as(state, outcome, me) != "offense" or not tokens_had(outcome, "offense", me):
            return []
        if not hand(state, main_player(state, "defense")):
            return []
        return [self.offer(card, label="take cards at random from the defense")]

    def use(self, ctx, me, card, args, use):
        victim = main_player(ctx.state, "defense")
        held = list(hand(ctx.state, victim))
        count = min(tokens_had(ctx.state["ch"]["outcome"], "offense", me), len(held))
        give_cards(ctx, victim, me, ctx.rng.sample(held, count), "Barbarian Wild Flare")


class BarbarianSuper(Flare):
    """Super: the Barbarian loots after winning as the defense too."""

    power = "Barbarian"
    mode = "super"
    windows = ("committed", "reveal")
    lasting = True
    provenance = "house"
    description = ("As the Barbarian defense, before the challenge is decided: if you win it, your power loots "
                   "the offense's hand as it would the defense's, one card per token you defended with, and "
                   "the rest of the offense's hand is discarded.")

    def options(self, state, me, card, window):
        if side_of_main(state, me) != "defense" or state["ch"]["outcome"]:
            return []
        return [self.offer(card, label="loot the offense if you win")]

    def use(self, ctx, me, card, args, use):
        # a marker: the Barbarian power reads it, so a zapped Barbarian loots nothing
        self.add_effect(ctx, me)


WILD = BarbarianWild()
SUPER = BarbarianSuper()
