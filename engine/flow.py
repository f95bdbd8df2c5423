"""The turn sequence as an agenda of steps, and the driver that runs it up to the next decision.

The agenda is a stack of small JSON step records (``{"op": "launch", "sid": 41}``) kept in
the state, so a game can stop between any two decisions and be resumed from a snapshot.
Each ``op`` is a `Step` subclass registered here:

- ``prompts(state, step)`` lists the decisions the step is waiting for (none: it can run);
- ``run(ctx, step)`` does the step's automatic work and must make progress (a fact or a change
  of the agenda, usually ending the step);
- ``answer(ctx, step, prompt, option, args)`` applies a player's decision;
- ``default(state, step, prompt, rng)`` is the answer applied when a deadline passes.

`advance` runs steps until a decision is owed or the game ends, so everything without a
choice happens inside the same `decide` call.
"""

from __future__ import annotations

from engine import shapes
from engine.errors import CommandError, EngineStuck, NotOwed, RulesError

STEPS: dict[str, Step] = {}
# what the driver reads of each kind of step, in one tuple (`register`): (handler, settles_wins, acts_at_boundary,
# asks); `advance` reads it at every step it runs
DRIVEN: dict[str, tuple] = {}
MAX_STEPS_PER_COMMAND = 20000
IDENTITY_EXCLUDED = frozenset({"action", "args", "rule", "label", "info"})


class Step:
    """One kind of step of the turn sequence."""

    op = ""
    # a boundary of the turn sequence, where every rule started before has been carried out:
    # winners are declared here (engine.winning)
    settles_wins = False

    def prompts(self, state: dict, step: dict) -> list[dict]:
        """Decisions this step waits for; empty when it can run on its own."""
        return []

    def run(self, ctx, step: dict) -> None:
        """The step's automatic work; must make progress: a fact, or a change of the agenda (usually ending the step)."""
        raise NotImplementedError(self.op)

    def answer(self, ctx, step: dict, prompt: dict, option: dict, args: dict) -> None:
        """Apply a player's decision (already checked against the prompt's options)."""
        raise NotImplementedError(self.op)

    def default(self, state: dict, step: dict, prompt: dict, rng) -> dict:
        """The command applied when this prompt's deadline passes: by default, its first option."""
        return default_from_first_option(prompt, rng)

    def at_boundary(self, ctx, step: dict) -> None:
        """At a boundary step (`settles_wins`), before it asks or runs: a rule that applies the moment
        a condition holds (an offense out of challenge cards) may act here. Nothing by default."""


def register(cls):
    """Class decorator: make a Step subclass the handler of its ``op``."""
    handler = STEPS[cls.op] = cls()
    # what the driver may skip for this kind of step: asking for decisions it never owes, a boundary hook
    # that does nothing
    handler.asks = cls.prompts is not Step.prompts
    handler.acts_at_boundary = cls.at_boundary is not Step.at_boundary
    DRIVEN[cls.op] = (handler, cls.settles_wins, handler.acts_at_boundary, handler.asks)
    return cls


# Prompts and options -----------------------------------------------------------------------

def option(action: str, args: dict | None = None, *, rule: str | None = None, label: str | None = None,
           **identity) -> dict:
    """One thing a player may do: an action, what identifies it (an ability, a card) and its argument shapes."""
    opt = {"action": action, **identity, "args": args or {}}
    if rule:
        opt["rule"] = rule
    if label:
        opt["label"] = label
    return opt


def prompt(step: dict, player: str, kind: str, options: list[dict], *, rule: str,
           info: dict | None = None, round: int | None = None, deadline: int | None = None) -> dict:
    """A decision owed by one player: what it is about (``kind``), its legal options, the rule behind it."""
    suffix = f".{round}" if round else ""
    made = {"id": f"{kind}.{step['sid']}{suffix}.{player}", "player": player, "kind": kind,
            "rule": rule, "options": options, "info": info or {}}
    if deadline is not None:
        made["deadline"] = deadline
    return made


def identity(opt: dict) -> dict:
    """The fields that tell one option from another of the same action (``ability``, ``card``)."""
    return {k: v for k, v in opt.items() if k not in IDENTITY_EXCLUDED}


def takes(command: dict, action, opt: dict) -> bool:
    """Whether a command takes an option: the same action and the same identity (`identity`)."""
    if opt["action"] != action:
        return False
    for key, value in opt.items():
        if key not in IDENTITY_EXCLUDED and command.get(key) != value:
            return False
    return True


def match(prompt_: dict, command: dict) -> tuple[dict, dict]:
    """The option a command takes and its checked arguments; refuses with the rule otherwise."""
    action = command.get("action")
    chosen = None
    for opt in prompt_["options"]:
        if takes(command, action, opt):
            chosen = opt
            break
    if chosen is None:
        refuse(prompt_, action)
    raw = command.get("args") or {}
    if not isinstance(raw, dict):
        raise CommandError("args must be an object", "args")
    expected = chosen["args"]
    unknown = sorted([name for name in raw if name not in expected])  # (a list: compiled, a generator is an object)
    if unknown:
        raise CommandError(f"unknown argument {unknown[0]!r} for {action!r}; expected: "
                           f"{', '.join(expected) or 'none'}", f"args.{unknown[0]}")
    if not expected:
        return chosen, {}
    rule = chosen.get("rule", prompt_["rule"])
    args = {name: shapes.check(shape, raw.get(name), f"args.{name}", rule) for name, shape in expected.items()}
    return chosen, args


def refuse(prompt_: dict, action) -> None:
    """No option of the prompt is the command's: say which actions, or which of their details, are possible."""
    candidates = [o for o in prompt_["options"] if o["action"] == action]
    if not candidates:
        possible = sorted({o["action"] for o in prompt_["options"]})
        raise RulesError(prompt_["rule"], f"{action!r} is not possible now; the decision owed "
                                          f"({prompt_['kind']}) allows: {', '.join(possible)}")
    keys = sorted({k for o in candidates for k in identity(o)})
    offered = "; ".join(", ".join(f"{k}={v}" for k, v in sorted(identity(o).items())) for o in candidates)
    raise RulesError(prompt_["rule"], f"no {action!r} with those {', '.join(keys) or 'details'} is "
                                      f"possible now; possible: {offered}")


def default_from_first_option(prompt_: dict, rng) -> dict:
    """A command taking the first option with random legal arguments (free shapes left empty)."""
    opt = prompt_["options"][0]
    return command_for(opt, {name: shapes.random_value(shape, rng) for name, shape in opt["args"].items()})


def command_for(opt: dict, args: dict) -> dict:
    """The command that takes an option with the given arguments."""
    return {"action": opt["action"], **identity(opt), "args": args}


# The driver ---------------------------------------------------------------------------------

def current(state: dict) -> dict | None:
    """The step at the top of the agenda."""
    agenda = state.get("agenda")
    return agenda[-1] if agenda else None


def default_command(state: dict, prompt_: dict, rng) -> dict | None:
    """The command a decision's owner sends to apply the decision's default (what a timer would apply).

    None when no step is waiting (nothing is owed).
    """
    step = current(state)
    if step is None or step["op"] not in STEPS:
        return None
    command = STEPS[step["op"]].default(state, step, prompt_, rng)
    command.update(player=prompt_["player"], prompt=prompt_["id"])
    return command


def owed(state: dict) -> list[dict]:
    """Every decision owed now (without deadlines attached). Callers must not change what they get."""
    if state.get("status") != "playing":
        return []
    step = current(state)
    return waiting_for(state, step) if step else []


# The last answer of `waiting_for`: (state object, its version, the step record, the prompts). The
# same object at the same version (`evolve` counts every event) with the same step record on top owes
# the same decisions (a step's prompts read the step and the state, never the agenda beneath), and the
# driver, the decision clock and the readers all ask in turn. `decide` changes the agenda without
# events (engine.context): a step record put on is a new object, and one changed in place (its progress
# noted) makes the answer be forgotten (`agenda_changed`).
_LAST_WAITING: tuple = (None, -1, None, [])


def agenda_changed() -> None:
    """A step record of the agenda being decided on changed in place: what it waits for must be worked out again."""
    global _LAST_WAITING
    _LAST_WAITING = (None, -1, None, [])


def bookmark_written(state: dict) -> None:
    """`decide` wrote a bookmark (engine.context): the state's version moved on, and nothing else did."""
    global _LAST_WAITING
    last_state, last_version, last_step, found = _LAST_WAITING
    if last_state is state and last_version == state["v"] - 1:
        _LAST_WAITING = (state, state["v"], last_step, found)


def waiting_for(state: dict, step: dict) -> list[dict]:
    """The decisions ``step`` (the top of the agenda) waits for: `Step.prompts`, worked out once per version."""
    global _LAST_WAITING
    last_state, last_version, last_step, found = _LAST_WAITING
    if last_state is state and last_step is step and last_version == state["v"]:
        return found
    found = STEPS[step["op"]].prompts(state, step)
    _LAST_WAITING = (state, state["v"], step, found)  # one assignment: safe across threads
    return found


def advance(ctx) -> None:
    """Run automatic steps until a decision is owed or the game ends."""
    state = ctx.state
    for _ in range(MAX_STEPS_PER_COMMAND):
        if state["status"] != "playing":
            return
        step = state["agenda"][-1]
        handler, settles_wins, acts_at_boundary, asks = DRIVEN[step["op"]]
        if settles_wins:
            if ctx.may_have_won:
                ctx.settle_wins()
            if acts_at_boundary:
                before = ctx.progress
                handler.at_boundary(ctx, step)
                if ctx.progress != before:
                    continue  # the boundary changed the agenda (a turn ended at once)
        if asks and waiting_for(state, step):
            return
        before = ctx.progress
        handler.run(ctx, step)
        if ctx.progress == before:
            raise EngineStuck(f"step {step['op']} made no progress")
    raise EngineStuck("the turn sequence did not reach a decision")


def answer(ctx, command: dict, player: str, *, recorded: bool = False) -> None:
    """Apply a player's command to the decision it owes.

    Every decision leaves a fact in the log: most answers record their own (a pass, a launch, an
    alliance); one that moves nothing by itself (a reaction declined, the own system chosen as the
    target) is recorded as `DecisionTaken`, unless the caller already recorded it (``recorded``: a
    deadline's default follows its `DecisionTimedOut`).
    """
    step = current(ctx.state)
    handler = STEPS[step["op"]] if step else None
    prompts = waiting_for(ctx.state, step) if handler else []
    mine = [p for p in prompts if p["player"] == player]
    if not mine:
        waiting = sorted({p["player"] for p in prompts})
        raise NotOwed("prompt", f"{player} owes no decision now"
                      + (f"; waiting for {', '.join(waiting)}" if waiting else ""))
    owed_prompt = mine[0]
    wanted = command.get("prompt")
    if wanted is not None and wanted != owed_prompt["id"]:
        raise NotOwed("prompt", f"decision {wanted!r} is no longer owed; {player} now owes "
                                f"{owed_prompt['id']!r} ({owed_prompt['kind']})")
    chosen, args = match(owed_prompt, command)
    facts = ctx.facts
    handler.answer(ctx, step, owed_prompt, chosen, args)
    if ctx.facts == facts and not recorded:
        ctx.emit("DecisionTaken", player=player, kind=owed_prompt["kind"], action=chosen["action"],
                 **{k: v for k, v in identity(chosen).items() if k in ("ability", "side")})
