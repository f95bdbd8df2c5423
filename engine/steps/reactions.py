"""Powers that answer something that just happened (RULES.md 5 and 6): the steps that run them.

- An *optional* reaction (Healer healing a loss, Remora following a draw) is offered with
  `Power.ask_reaction` (a ``reaction`` step): the owner is asked with the power's
  ``reaction_options`` plus ``decline``; using it is announced, may be zapped, and then the
  power's ``react`` applies it.
- A *mandatory* triggered effect (Barbarian after a win, Hate at the start of a turn) is run
  with `Power.announce` (a ``power_effect`` step): announced as a power use (so a Cosmic Zap
  can cancel it), then the power's named method applies it.
- A flare *held* may be played in answer to what happens (Reserve's Wild taking a discarded
  reinforcement, Miser's Wild keeping cards through a new hand: `engine.held`): a ``card_reaction``
  step asks the holder; the card is played (`CardPlayed`), may be cancelled by a Card Zap, and is
  then applied and kept or discarded as any played flare (``apply_use``).

Both carry a ``context`` (JSON) describing what happened, so the step survives snapshots.
"""

from __future__ import annotations

from engine.abilities import card_ability
from engine.flow import Step, option, prompt, register
from engine.playable import from_elsewhere, playable_cards
from engine.registry import POWERS
from engine.state import power_active
from engine.usable import anyone_can_respond, may_play_a_flare


@register
class Reaction(Step):
    """One player decides whether its power reacts."""

    op = "reaction"

    def prompts(self, state, step):
        player, name = step["player"], step["power"]
        if step.get("answered") or not power_active(state, player, name):
            return []
        offered = POWERS[name].reaction_options(state, player, step["context"])
        if not offered:
            return []
        return [prompt(step, player, "reaction", offered + [option("decline", rule=f"power:{name}")],
                       rule=f"power:{name}", info={"power": name, "context": step["context"]})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        if opt["action"] == "decline":
            ctx.done()
            return
        player, name = step["player"], step["power"]
        apply_step = ctx.step("apply_reaction", player=player, power=name, args=args, context=step["context"])
        ctx.emit("PowerUsed", player=player, power=name, use=str(apply_step["sid"]), detail=args or None)
        use = {"id": apply_step["sid"], "player": player, "ability": f"power:{name}", "args": args,
               "window": "reaction", "source": f"power:{name}"}
        apply_step["use"] = use
        responding = [ctx.step("respond", use=use, passed=[])] if anyone_can_respond(ctx.state, use) else []
        ctx.replace(*responding, apply_step)

    def default(self, state, step, prompt_, rng):
        return {"action": "decline", "args": {}}


@register
class ApplyReaction(Step):
    """Apply a reaction that was not zapped."""

    op = "apply_reaction"

    def run(self, ctx, step):
        ctx.done()
        ch = ctx.state["ch"]
        if ch is not None and step["use"]["id"] in ch["cancelled"]:
            return
        POWERS[step["power"]].react(ctx, step["player"], step["args"], step["context"])


@register
class PowerEffect(Step):
    """A mandatory effect: announced, open to a Cosmic Zap, then applied if still in force."""

    op = "power_effect"

    def run(self, ctx, step):
        player, name = step["player"], step["power"]
        if not step.get("announced"):
            if not power_active(ctx.state, player, name):
                ctx.done()
                return
            use = {"id": step["sid"], "player": player, "ability": f"power:{name}", "args": {},
                   "window": "effect", "source": f"power:{name}"}
            ctx.emit("PowerUsed", player=player, power=name, use=str(step["sid"]), detail=None)
            ctx.update(announced=True, use=use)
            if anyone_can_respond(ctx.state, use):
                ctx.then(ctx.step("respond", use=use, passed=[]))
            return
        ctx.done()
        ch = ctx.state["ch"]
        if ch is not None and step["use"]["id"] in ch["cancelled"]:
            return
        getattr(POWERS[name], step["method"])(ctx, player, step["context"])


@register
class CardReaction(Step):
    """The holder of a flare decides whether it plays it in answer to what happened."""

    op = "card_reaction"

    def prompts(self, state, step):
        player, card = step["player"], step["card"]
        if card not in playable_cards(state, player) or not may_play_a_flare(state, player):
            return []
        ability = card_ability(state, player, card)
        offered = ability.reaction_options(state, player, card, step["context"]) if ability else []
        if not offered:
            return []
        return [prompt(step, player, "reaction", offered + [option("decline", rule=ability.rule)], rule=ability.rule,
                       info={"card": card, "context": step["context"]})]

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        if opt["action"] == "decline":
            ctx.done()
            return
        player, card = step["player"], step["card"]
        ability = card_ability(ctx.state, player, card)
        apply_step = ctx.step("apply_use")
        use = {"id": apply_step["sid"], "player": player, "ability": f"card:{card}", "args": args,
               "window": "reaction", "source": ability.source, "context": step["context"]}
        elsewhere = from_elsewhere(ctx.state, player, card)
        if elsewhere:
            use["src"] = elsewhere["src"]
        apply_step["use"] = use
        ctx.emit("CardPlayed", player=player, card=card, effect=getattr(ability, "mode", None), args=args or None,
                 **elsewhere)
        responding = [ctx.step("respond", use=use, passed=[])] if anyone_can_respond(ctx.state, use) else []
        ctx.replace(*responding, apply_step)

    def default(self, state, step, prompt_, rng):
        return {"action": "decline", "args": {}}
