"""Stages 3-6: launch, invitations and alliances."""

from __future__ import annotations

from engine import shapes
from engine.flow import Step, option, prompt, register
from engine.hooks import fire, fold
from engine.state import clockwise_from_left, home_planets, tokens_on_bases
from engine.steps.game import STAGE_NAMES, end_turn_now
from engine.steps.tokens import move
from engine.usable import anyone_may_act

MAX_TOKENS = 4


def launch_targets(state: dict) -> list[str]:
    """Planets the cone may point at: any planet of the defense's system, or, in an own-system
    challenge, the planets of the offense's system where the defense has a base (a power may add some:
    ``launch_targets``, the FFG Will)."""
    ch = state["ch"]
    if ch["notes"].get("own_system"):
        offense = state["turn"]["offense"]
        return [p for p in home_planets(state, offense) if state["planets"][p].get(ch["defense"], 0)]
    return fold(state, "launch_targets", home_planets(state, ch["defense"]))


def token_range(state: dict, player: str, role: str) -> tuple[int, int]:
    """How many tokens a player must and may commit (1-4 unless a power says otherwise)."""
    low, high = fold(state, "launch_range", (1, MAX_TOKENS), player=player, role=role)
    return low, high


@register
class Launch(Step):
    """Stage 3: the offense puts 1-4 tokens on the cone and aims it at a planet."""

    op = "launch"

    def prompts(self, state, step):
        offense = state["turn"]["offense"]
        sources = tokens_on_bases(state, offense)
        already = state["cone"]["offense"].get(offense, 0)
        if not sources and not already:
            return []
        low, high = token_range(state, offense, "offense")
        shape = shapes.distribution(sources, max(0, low - already), max(0, high - already))
        targets = launch_targets(state)
        if not shapes.satisfiable(shape) or not targets:
            return []
        return [prompt(step, offense, "launch",
                       [option("launch", {"tokens": shape, "planet": shapes.choice(targets)},
                               rule="4.3")], rule="4.3", info={"on_cone": already})]

    def run(self, ctx, step):
        # (decision) no planet to aim at ends the turn too: an own-system challenge whose target base
        # was emptied before the launch (a Plague or a Vacuum in the destiny window) has nothing to attack
        end_turn_now(ctx, "no token to launch" if launch_targets(ctx.state) else "no planet to aim at")

    def answer(self, ctx, step, prompt_, opt, args):
        offense = prompt_["player"]
        move(ctx, [(offense, src, "cone:offense", n) for src, n in sorted(args["tokens"].items())], "launch")
        ctx.emit("ConeAimed", planet=args["planet"])
        ctx.done()
        fire(ctx, "on_launched")

    def default(self, state, step, prompt_, rng):
        opt = prompt_["options"][0]["args"]
        sources = opt["tokens"]["sources"]
        biggest = max(sources, key=lambda p: (sources[p], p)) if sources else None
        tokens = {biggest: min(opt["tokens"]["min"] or 1, sources[biggest])} if biggest and opt["tokens"]["max"] else {}
        return {"action": "launch", "args": {"tokens": tokens, "planet": opt["planet"]["values"][0]}}


@register
class Invite(Step):
    """Stages 4 and 5: the offense, then the defense, names the players it invites as allies.

    Where the step stands is read from the facts (who has invited: `AlliesInvited`; the stage:
    `StageBegan`), so the offense's answer leaves the agenda as it was."""

    op = "invite"

    def prompts(self, state, step):
        side = inviting_side(state)
        eligible = eligible_allies(state)
        if side is None or not eligible or STAGE_OF_INVITATION[side] != state["ch"]["stage"]:
            return []
        inviter = state["turn"]["offense"] if side == "offense" else state["ch"]["defense"]
        rule = RULE_OF_INVITATION[side]
        return [prompt(step, inviter, "invite", [option("invite", {"players": shapes.subset(eligible)}, rule=rule)],
                       rule=rule)]

    def run(self, ctx, step):
        side = inviting_side(ctx.state)
        if side is None:
            ctx.done()
        elif STAGE_OF_INVITATION[side] != ctx.state["ch"]["stage"]:
            ctx.emit("StageBegan", stage=STAGE_OF_INVITATION[side], name=STAGE_NAMES[STAGE_OF_INVITATION[side]])
        else:  # nobody could be invited
            ctx.emit("AlliesInvited", side=side, players=[])

    def answer(self, ctx, step, prompt_, opt, args):
        ordered = [c for c in eligible_allies(ctx.state) if c in args["players"]]
        ctx.emit("AlliesInvited", side=inviting_side(ctx.state), players=ordered)

    def default(self, state, step, prompt_, rng):
        return {"action": "invite", "args": {"players": []}}


STAGE_OF_INVITATION = {"offense": 4, "defense": 5}
RULE_OF_INVITATION = {"offense": "4.4", "defense": "4.5"}


def inviting_side(state: dict) -> str | None:
    """The side whose main player invites next (the offense first), None once both have."""
    invited = state["ch"]["invited"]
    return next((side for side in ("offense", "defense") if invited[side] is None), None)


def eligible_allies(state: dict) -> list[str]:
    """Players who could ally: everyone but the two main players, clockwise from the offense's left."""
    offense, defense = state["turn"]["offense"], state["ch"]["defense"]
    return [c for c in clockwise_from_left(state, offense) if c != defense]


def joinable_sides(state: dict, player: str) -> list[str]:
    """The sides a player may join: those that invited it, or more if a power allows."""
    invited = state["ch"]["invited"]
    sides = {side for side in ("offense", "defense") if player in (invited[side] or [])}
    sides = fold(state, "may_join", sides, player=player)
    return [s for s in ("offense", "defense") if s in sides]


def next_to_answer(state: dict) -> str | None:
    """The next player, clockwise from the offense's left, who may join a side and has not answered."""
    ch = state["ch"]
    for player in eligible_allies(state):
        if player not in ch["answered"] and joinable_sides(state, player):
            return player
    return None


ANSWERS_WINDOW = "alliance_answers"


def window_before(state: dict, step: dict, player: str) -> bool:
    """Whether a window opens before ``player`` answers: not yet opened for it, and somebody may act in it.

    000: "any time" cards and powers may be used at any time, so also between the alliance answers
    (after the invitations, before each answer: every answer may change the next one). Only players
    holding something usable at any time are asked; the alliance window follows the last answer.
    """
    return step.get("window_for") != player and anyone_may_act(state, ANSWERS_WINDOW)


@register
class Alliances(Step):
    """Stage 6: clockwise from the offense's left, each invited player joins a side or declines."""

    op = "alliances"

    def prompts(self, state, step):
        player = next_to_answer(state)
        if player is None or window_before(state, step, player):
            return []
        sources = tokens_on_bases(state, player)
        low, high = token_range(state, player, "ally")
        offered = [option("join", {"tokens": shapes.distribution(sources, low, high)}, side=side, rule="4.6")
                   for side in joinable_sides(state, player)]
        offered = [o for o in offered if sources and shapes.satisfiable(o["args"]["tokens"])]
        if not offered:
            return []
        return [prompt(step, player, "alliance", offered + [option("decline", rule="4.6")], rule="4.6",
                       info={"invited_by": [s for s in ("offense", "defense")
                                            if player in (state["ch"]["invited"][s] or [])]})]

    def run(self, ctx, step):
        player = next_to_answer(ctx.state)
        if player is not None and window_before(ctx.state, step, player):
            ctx.update(window_for=player)
            ctx.then(ctx.step("window", name=ANSWERS_WINDOW))
            return
        if player is not None:  # it may join but has no token to commit: it declines
            ctx.emit("AllianceAnswered", player=player, side=None)
            return
        ctx.done()
        fire(ctx, "on_alliances_formed")

    def answer(self, ctx, step, prompt_, opt, args):
        player = prompt_["player"]
        if opt["action"] == "decline":
            ctx.emit("AllianceAnswered", player=player, side=None)
            return
        side = opt["side"]
        ctx.emit("AllianceAnswered", player=player, side=side)
        move(ctx, [(player, src, f"cone:{side}", n) for src, n in sorted(args["tokens"].items())], "alliance")

    def default(self, state, step, prompt_, rng):
        return {"action": "decline", "args": {}}
