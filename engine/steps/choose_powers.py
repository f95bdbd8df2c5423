"""Setup under ``ffg`` (RULES.md 9): every player chooses its power among the ones it was offered.

The offers are private (`PowersOffered`); so is each choice (`PowerChosen`) until every player has
made one, when the powers are dealt in the open (`PowersDealt`). Nobody holds a card while choosing:
then the deck, with every offered flare, is shuffled and the hands are dealt (`deal_after_choice`; a
step without ``deal``, of a game begun when hands were dealt first, deals nothing), and the first turn
begins. A player whose power a scenario fixes is offered none and chooses nothing.
"""

from __future__ import annotations

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.hooks import fire
from engine.setup import deal_after_choice

RULE = "9.setup"


def still_choosing(state: dict, step: dict) -> list[str]:
    """The players offered powers who have not chosen yet, in seat order."""
    return [color for color in state["order"] if color not in step["fixed"]
            and state["players"][color].get("chosen") is None]


@register
class ChoosePowers(Step):
    """Each player offered powers keeps as many as the game deals (``powers_per_player``)."""

    op = "choose_powers"

    def prompts(self, state, step):
        keep = state["options"]["powers_per_player"]
        found = []
        for color in still_choosing(state, step):
            offered = state["players"][color]["offered"]
            args = {"power": shapes.choice(offered)} if keep == 1 else {"powers": shapes.subset(offered, keep, keep)}
            found.append(prompt(step, color, "choose_power", [option("choose", args, rule=RULE)], rule=RULE,
                                info={"offered": list(offered), "keep": keep}))
        return found

    def run(self, ctx, step):
        state = ctx.state
        powers = {color: list(step["fixed"].get(color) or state["players"][color].get("chosen") or [])
                  for color in state["order"]}
        ctx.done()
        ctx.emit("PowersDealt", powers=powers)
        if step.get("deal"):  # (a game begun before: its hands were dealt before the choice)
            deal_after_choice(ctx)
        fire(ctx, "on_game_setup")  # a power's "game setup" (Miser's hoard), before the first turn

    def answer(self, ctx, step, prompt_, opt, args):
        chosen = [args["power"]] if "power" in args else sorted(args["powers"])
        ctx.emit("PowerChosen", player=prompt_["player"], powers=chosen)
