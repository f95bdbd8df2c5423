"""Timing windows (RULES.md section 5): who is asked, in what order, and what using something does.

A window asks players in timing order (non-main players clockwise from the offense's left,
then the offense, then the defense). A player is asked only if it has something usable
(an active power's optional use, a flare, an edict, a reinforcement). After a use the
window reopens to everyone, so responses can follow; it closes when all have passed.

Using something is announced first (`PowerUsed` or `CardPlayed`), then a *response* window
lets players holding a zap cancel it, and only then is the effect applied.

"Any time" (000's infinity icon) also covers two decisions that are not stage boundaries: a
window named ``alliance_answers`` opens before each invitee answers (`engine.steps.launch`), and
while the main players negotiate a deal, what is usable in the ``negotiation`` window is offered
beside their deal decisions and to everyone else at the same time (`engine.steps.deal`). Only
what is usable at any time answers to those names.
"""

from __future__ import annotations

from engine import cards, rulesets
from engine.abilities import card_ability, handler_for
from engine.flow import Step, option, prompt, register
from engine.handcards import discard
from engine.hooks import fire
from engine.playable import from_elsewhere
from engine.state import timing_order
from engine.steps.game import OUT_OF_CARDS, WINDOWS_NEEDING_A_CARD, end_turn_now, ends_turn_before_planning
from engine.usable import anyone_can_respond, in_reach, passed_for_stage, response_options, window_options


def source_of(state: dict, player: str, ability_key: str) -> str:
    """The handler key of an ability as it is used now (a flare's mode is fixed when played)."""
    if ability_key.startswith("power:"):
        return ability_key
    card = ability_key[5:]
    handler = card_ability(state, player, card)
    if cards.kind(card) == "reinforcement":
        return "reinforcement"
    return handler.source


def begin_use(ctx, player: str, opt: dict, args: dict, window: str, target: dict | None = None) -> None:
    """Announce a use, open the response window if anyone can respond, then apply it."""
    key = opt["ability"]
    apply_step = ctx.step("apply_use")
    use = {"id": apply_step["sid"], "player": player, "ability": key, "args": args, "window": window,
           "source": source_of(ctx.state, player, key)}
    if target is not None:
        use["target"] = target
    apply_step["use"] = use
    if key.startswith("power:"):
        ctx.emit("PowerUsed", player=player, power=key[6:], use=str(use["id"]), detail=args or None)
    else:
        handler = handler_for(use["source"])
        elsewhere = from_elsewhere(ctx.state, player, key[5:])  # played from its hoard, not its hand
        if elsewhere:
            use["src"] = elsewhere["src"]
        ctx.emit("CardPlayed", player=player, card=key[5:], effect=getattr(handler, "mode", None),
                 args=args or None, **elsewhere)
    reopened = dict(ctx.state["agenda"][-1], passed=[], round=ctx.state["agenda"][-1].get("round", 0) + 1)
    steps = [ctx.step("respond", use=use, passed=[])] if anyone_can_respond(ctx.state, use) else []
    ctx.replace(*steps, apply_step, reopened)


def keep_flare(ctx, player: str, card_id: str, src: str | None = None) -> None:
    """RULES.md 9 (ffg): a flare goes back to its owner's hand once used (its lasting effect, if any, stays in
    force for the encounter); one played from a hoard goes back to the hoard. A flare a Card Zap cancelled is
    discarded instead (`ApplyUse`)."""
    if card_id in ctx.state["table"]:
        ctx.emit("CardsMoved", cards=[card_id], src="table", dst=src or f"hand:{player}", seen_by=None,
                 reason="flare kept")


def discard_from_table(ctx, player: str, card_id: str, reason: str) -> None:
    """A played flare or edict is discarded after use; a discarded edict may be taken (Vulch)."""
    if card_id in ctx.state["table"]:
        discard(ctx, player, [card_id], "table", reason)


PASSING = [option("pass", rule="5"), option("pass_stage", rule="5", label="pass until the next stage")]


def window_choices(offered: list[dict]) -> list[dict]:
    """A window prompt's options: what the player could use, then passing once or for the stage."""
    return offered + PASSING


def passed_fact(player: str, window: str, action: str) -> dict:
    """The `Passed` fact of a ``pass`` or a ``pass_stage`` answer (the second keeps the player out until
    the next stage: `engine.usable.passed_for_stage`)."""
    return {"player": player, "window": window, **({"until": "next stage"} if action == "pass_stage" else {})}


@register
class Window(Step):
    """A timing window: ask, in timing order, each player who can use something."""

    op = "window"
    settles_wins = True

    def prompts(self, state, step):
        only = step.get("only")
        window = step["name"]
        candidates = in_reach(state).players_for(window)  # (the others hold nothing that reaches this window)
        if not candidates:
            return []
        passed = step.get("passed", []) + passed_for_stage(state)
        for player in timing_order(state):
            if player not in candidates or player in passed or (only and player not in only):
                continue
            offered = window_options(state, player, window)
            if offered:
                return [prompt(step, player, "window", window_choices(offered), rule="5",
                               info={"window": step["name"]}, round=step.get("round", 0))]
        return []

    def run(self, ctx, step):
        ctx.done()

    def at_boundary(self, ctx, step):
        """000: an offense left without a challenge card before stage 7 ends its turn at that moment (not
        under ``ffg``: `ends_turn_before_planning`)."""
        if step["name"] in WINDOWS_NEEDING_A_CARD and ctx.state["ch"] and ends_turn_before_planning(ctx.state):
            end_turn_now(ctx, OUT_OF_CARDS)

    def answer(self, ctx, step, prompt_, opt, args):
        player = prompt_["player"]
        if opt["action"] in ("pass", "pass_stage"):
            ctx.emit("Passed", **passed_fact(player, step["name"], opt["action"]))
        else:
            begin_use(ctx, player, opt, args, step["name"])

    def default(self, state, step, prompt_, rng):
        return {"action": "pass", "args": {}}


@register
class Respond(Step):
    """The response window after a power use or a card play: only zaps may answer it."""

    op = "respond"

    def prompts(self, state, step):
        use = step["use"]
        if state["ch"] is None or use["id"] in state["ch"]["cancelled"]:
            return []
        passed = step.get("passed", [])
        for player in timing_order(state):
            if player in passed:
                continue
            offered = response_options(state, player, use)
            if offered:
                return [prompt(step, player, "response", offered + [option("pass", rule="5")], rule="5",
                               info={"responding_to": {"player": use["player"], "ability": use["ability"]}},
                               round=step.get("round", 0))]
        return []

    def run(self, ctx, step):
        ctx.done()

    def answer(self, ctx, step, prompt_, opt, args):
        if opt["action"] == "pass":
            ctx.emit("Passed", player=prompt_["player"], window="response")
        else:
            begin_use(ctx, prompt_["player"], opt, args, "response", target=step["use"])

    def default(self, state, step, prompt_, rng):
        return {"action": "pass", "args": {}}


@register
class ApplyUse(Step):
    """Apply a use that survived its response window; discard a played flare or edict."""

    op = "apply_use"

    def run(self, ctx, step):
        use = step["use"]
        ctx.done()
        handler = handler_for(use["source"])
        cancelled = ctx.state["ch"] is not None and use["id"] in ctx.state["ch"]["cancelled"]
        player = use["player"]
        if use["ability"].startswith("power:"):
            if not cancelled:
                # a power answering another use (Reserve cancelling a reinforcement) applies its answer
                answering = use.get("target") is not None and hasattr(handler, "respond")
                (handler.respond if answering else handler.use)(ctx, player, use["args"], use)
            return
        card = use["ability"][5:]
        if not cancelled:
            handler.use(ctx, player, card, use["args"], use)
        if cancelled:  # a cancelled card is discarded, a flare included (RULES.md 9: Card Zap)
            discard_from_table(ctx, player, card, "cancelled")
        elif cards.kind(card) == "flare" and rulesets.of(ctx.state).flare_kept:
            keep_flare(ctx, player, card, use.get("src"))
        elif handler.discard_after_use:
            discard_from_table(ctx, player, card, "used")
        if not cancelled:
            fire(ctx, "on_use_applied", use=use)  # what a card changed may set off powers (Peacenik)
