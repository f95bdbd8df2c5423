"""Who gives the consolation (compensation) and who chooses the cards taken (Hacker).

By the rules the player owed consolation takes cards at random from its opponent's hand
(`engine.steps.resolve.Consolation`). Before it does, everything in force hears
``before_compensation(owed)``; a power or flare may then note, in the challenge's public notes
(``ch["notes"]["compensation"]``: ``{"from": giver, "picker": player}``), another player to take the
cards from and a player who looks through that hand and chooses them. The choosing is a
``pick_compensation`` decision owed by the picker: it alone sees the hand's cards (in its own prompt);
the cards move as any consolation does, seen by giver and receiver only.
"""

from __future__ import annotations

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.handcards import give_cards, return_kept
from engine.state import hand

NOTE = "compensation"


def noted(state: dict, owed: dict) -> tuple[str, str | None]:
    """``(giver, picker)`` of the consolation owed: the opponent and nobody (random), unless a power noted others."""
    note = (state["ch"]["notes"].get(NOTE) or {}) if state.get("ch") else {}
    return note.get("from") or owed["from"], note.get("picker")


def note(ctx, owed: dict, *, giver: str | None = None, picker: str | None = None) -> None:
    """Record who gives the consolation and who picks its cards (a public fact: the cards stay secret)."""
    old_giver, old_picker = noted(ctx.state, owed)
    ctx.emit("ChallengeNoted", key=NOTE, value={"from": giver or old_giver, "picker": picker or old_picker})


@register
class PickCompensation(Step):
    """The picker looks through the giver's hand and chooses the ``count`` cards the receiver takes."""

    op = "pick_compensation"

    def prompts(self, state, step):
        held = list(hand(state, step["giver"]))
        count = min(step["count"], len(held))
        if count < 1:
            return []
        return [prompt(step, step["player"], "pick_compensation",
                       [option("take", {"cards": shapes.subset(held, count, count)}, rule="power:Hacker",
                               label=f"choose the {count} card(s) {step['receiver']} takes from {step['giver']}")],
                       rule="power:Hacker", info={"giver": step["giver"], "receiver": step["receiver"],
                                                  "count": count})]

    def run(self, ctx, step):
        ctx.done()
        return_kept(ctx, step["giver"])

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        give_cards(ctx, step["giver"], step["receiver"], list(args["cards"]), "consolation")
        return_kept(ctx, step["giver"])

    def default(self, state, step, prompt_, rng):
        """Out of time: the cards are taken at random, as without the power."""
        held = prompt_["options"][0]["args"]["cards"]["values"]
        return {"action": "take", "args": {"cards": rng.sample(list(held), prompt_["info"]["count"])}}
