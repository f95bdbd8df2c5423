"""Plague: a chosen player loses three tokens and one card of each kind it holds.

004 adds, with War cards in the game, that the victim "also loses one War card". We read
"lose" as discard (what Plague does to every other card) and War as a kind of card of its
own, next to Attack, Compromise, reinforcement, kicker, edict and flare: so a victim holding
War cards discards exactly one of them along with one card of each other kind. Without War
cards in the game nobody can hold one, so the same rule serves both.
"""

from engine import cards, shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import discard_cards
from engine.powers.base import ANY_WINDOW, Edict
from engine.state import hand
from engine.steps.tokens import loss_sources

TOKENS_LOST = 3
# the editions whose Plague may strike its own player (RULES.md 9: the FFG artifact names any player)
SELF_TARGET = ("ffg",)


class Plague(Edict):
    name = "Plague"
    editions = ("mayfair", "ffg")  # an artifact of the Fantasy Flight deck too
    windows = (ANY_WINDOW,)
    windows_by_edition = {"ffg": ("regroup",)}  # the FFG artifact is played at the start of an encounter
    provenance = "mayfair"
    description = ("Any time (under ffg: in the regroup phase): choose another player (under ffg: any player, "
                   "yourself included). It loses 3 tokens of its choice to the warp, then discards "
                   "one card of each kind it holds (Attack, Compromise, War, reinforcement, kicker, edict, "
                   "flare), choosing which card of each kind.")

    def options(self, state, me, card, window):
        anyone = (state.get("ruleset") or "mayfair") in SELF_TARGET
        victims = [c for c in state["order"] if (anyone or c != me) and (hand(state, c) or loss_sources(state, c))]
        if not victims:
            return []
        return [self.offer(card, {"player": shapes.choice(victims)}, label="plague a player")]

    def use(self, ctx, me, card, args, use):
        victim = args["player"]
        ctx.then(ctx.step("losses", player=victim, count=TOKENS_LOST, reason="Plague", by=me),
                 ctx.step("plague_discards", player=victim))


def by_kind(state: dict, player: str) -> dict[str, list[str]]:
    """A player's hand grouped by kind of card, in hand order."""
    grouped: dict[str, list[str]] = {}
    for card_id in hand(state, player):
        grouped.setdefault(cards.kind(card_id), []).append(card_id)
    return grouped


def open_choices(state: dict, player: str) -> dict[str, list[str]]:
    """The kinds where the victim's choice matters: it holds two different cards of that kind."""
    return {kind: held for kind, held in by_kind(state, player).items()
            if len({cards.card_kind_name(c) for c in held}) > 1}


@register
class PlagueDiscards(Step):
    """The victim discards one card of each kind it holds, choosing which where it holds several."""

    op = "plague_discards"

    def prompts(self, state, step):
        choices = open_choices(state, step["player"])
        if not choices:
            return []
        args = {kind: shapes.choice(held) for kind, held in sorted(choices.items())}
        return [prompt(step, step["player"], "plague_discards", [option("discard", args, rule="edict:Plague")],
                       rule="edict:Plague", info={"kinds": sorted(by_kind(state, step["player"]))})]

    def run(self, ctx, step):
        self.discard(ctx, step["player"], {})

    def answer(self, ctx, step, prompt_, opt, args):
        self.discard(ctx, step["player"], args)

    def discard(self, ctx, player: str, chosen: dict) -> None:
        """Discard the chosen card of each kind, or the only card (any copy) where there was no choice."""
        picked = [chosen.get(kind) or held[0] for kind, held in by_kind(ctx.state, player).items()]
        ctx.done()
        discard_cards(ctx, player, picked, "Plague")


EDICT = Plague()
