"""A destiny card chosen from the destiny deck instead of drawn from its top (Dictator).

Before the offense draws destiny, everything in force hears ``before_destiny_drawn``
(`engine.steps.destiny.Destiny`). A power that chooses the card asks its player with a
``choose_destiny`` decision (`ChooseDestiny`): the options are the cards in the destiny deck, listed
sorted, so the chooser learns what the deck holds but never its order. The card chosen is noted
in the challenge's notes (``destiny_chosen``) and drawn at once, as though the offense had drawn it
(`take`): the same ``DestinyDrawn`` fact, the same consequences.
"""

from __future__ import annotations

from engine import shapes
from engine.flow import Step, option, prompt, register

NOTE = "destiny_chosen"


def ask(ctx, player: str, rule: str) -> None:
    """Ask ``player`` to choose the destiny card the offense draws (unless someone already has)."""
    ctx.then(ctx.step("choose_destiny", player=player, rule=rule))


def take(ctx) -> str | None:
    """The card chosen for this draw, if any (the note is cleared: the next draw is the deck's again)."""
    ch = ctx.state.get("ch")
    chosen = ch["notes"].get(NOTE) if ch else None
    if chosen:
        ctx.emit("ChallengeNoted", key=NOTE, value="")  # cleared ("" not null: a note's value is a JSON value)
    return chosen


@register
class ChooseDestiny(Step):
    """One player looks through the destiny deck and chooses the card the offense draws."""

    op = "choose_destiny"

    def prompts(self, state, step):
        if state["ch"]["notes"].get(NOTE) or not state["destiny"]:
            return []
        offered = sorted(set(state["destiny"]))
        return [prompt(step, step["player"], "choose_destiny",
                       [option("choose", {"card": shapes.choice(offered)}, rule=step["rule"],
                               label="choose the destiny card the offense draws")],
                       rule=step["rule"], info={"offense": state["turn"]["offense"]})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        ctx.emit("ChallengeNoted", key=NOTE, value=args["card"])

    def default(self, state, step, prompt_, rng):
        """Out of time: the card on top of the deck, as if nobody had chosen."""
        return {"action": "choose", "args": {"card": state["destiny"][-1]}}
