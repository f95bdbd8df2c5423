"""`decide(state, command)`: check a command against the rules and return the events it causes.

Commands are JSON objects with an ``action``. Lobby actions: ``create``, ``join``, ``start``.
``timeout`` (from the workers) applies the default of a decision whose deadline passed.
Every other action answers the decision the sending ``player`` owes, as listed by
`engine.prompts`. After the command, everything automatic runs up to the next decision,
so the returned events always leave the game waiting for someone (or finished).

`decide` never changes its input state.
"""

from __future__ import annotations

from engine import flow, seats, setup
from engine.context import Ctx, GameOver
from engine.errors import CommandError, EngineError, NotOwed, RulesError, StateSpoiled
from engine.rewind import at_rest
from engine.state import clone, empty

LOBBY_ACTIONS = ("create", "join", "start")


def decide(state: dict | None, command: dict) -> list[dict]:
    """The events a command causes, or an error naming the rule that forbids it."""
    return execute(state, command)[0]


def execute(state: dict | None, command: dict, *, in_place: bool = False) -> tuple[list[dict], dict]:
    """The events a command causes and the state they lead to (equal to folding them onto ``state``).

    Callers that keep the state in memory use the returned state instead of folding again.
    ``execute`` works on a copy of ``state``; with ``in_place`` a caller that owns its state and
    needs no other copy of it (the simulator) lets the command change it directly and saves the
    copy. A command refused in place leaves the state as it was: every refusal comes before the
    first change (`StateSpoiled` otherwise, an engine fault), and a command that finds deadlines
    passed, whose defaults apply before its own answer is checked, is applied to a copy.
    """
    if not isinstance(command, dict) or not isinstance(command.get("action"), str):
        raise CommandError("a command is an object with an 'action'", "action")
    if not state:
        state = empty()
    elif not in_place or deadline_passed(state, command.get("at")):
        state = clone(state)
    at = command.get("at", state.get("time", 0))
    if not isinstance(at, int) or isinstance(at, bool):
        raise CommandError("'at' must be a time in milliseconds", "at")
    player = command.get("player")
    actor = "timer" if command["action"] == "timeout" else (player or command.get("actor") or "system")
    ctx = Ctx(state, actor=actor, time=at)
    try:
        apply_command(ctx, command)
    except EngineError as err:
        if in_place and ctx.progress:
            raise StateSpoiled(f"{command['action']!r} was refused after it had changed the state ({err}); "
                               "that state is no longer the game's") from err
        raise
    ctx.finish()
    return ctx.events, ctx.state


def deadline_passed(state: dict, at) -> bool:
    """Whether some decision's deadline has passed by ``at`` (its default applies first)."""
    clock = state.get("clock")
    if clock and isinstance(at, int):
        for deadline in clock.values():
            if deadline is not None and deadline <= at:
                return True
    return False


def apply_command(ctx, command: dict) -> None:
    """Check a command and apply it, then everything automatic up to the next decision (or the game's end)."""
    state, action, player = ctx.state, command["action"], command.get("player")
    try:
        if action == "create":
            if state["status"] != "none":
                raise RulesError("lobby", "this game already exists")
            setup.create(ctx, command)
            return
        if state["status"] == "none":
            raise RulesError("lobby", "there is no such game")
        if action == "join" and state["status"] == "lobby":  # in play, "join" answers an alliance invitation
            setup.join(ctx, command)
            return
        if action in seats.SEAT_ACTIONS:  # outside the turn sequence: no step changes, no deadline applies
            seats.apply(ctx, command)
            return
        if action == "start":
            setup.start(ctx)
        elif state["status"] != "playing":
            raise RulesError("lobby", f"the game is {state['status']}, not being played")
        elif action == "timeout":
            expire(ctx, command)
        else:
            if not isinstance(player, str) or player not in state["players"]:
                raise CommandError("the command must name the acting player", "player")
            if not expire_passed_deadlines(ctx, player):
                flow.answer(ctx, command, player)
        flow.advance(ctx)
        ctx.close_segment()
    except GameOver:
        pass


def expire(ctx, command: dict) -> None:
    """Apply the default of a decision whose deadline has passed (RULES.md: deadlines)."""
    wanted = command.get("prompt")
    owed = {p["id"]: p for p in flow.owed(ctx.state)}
    if wanted not in owed:
        raise NotOwed("timer", f"decision {wanted!r} is no longer owed")
    deadline = ctx.state["clock"].get(wanted)
    if deadline is None or ctx.time < deadline:
        raise RulesError("timer", f"decision {wanted!r} has no deadline that has passed")
    owed_prompt = owed[wanted]
    ctx.expired.add(wanted)
    step = flow.current(ctx.state)
    handler = flow.STEPS[step["op"]]
    expiring = getattr(handler, "expire", None)
    default = None if expiring else handler.default(ctx.state, step, owed_prompt, ctx.rng)
    ctx.emit("DecisionTimedOut", player=owed_prompt["player"], prompt=wanted, kind=owed_prompt["kind"],
             default={"action": default["action"]} if default else {"action": "expire"})
    if expiring:
        expiring(ctx, step, owed_prompt)
    else:
        flow.answer(ctx, {**default, "prompt": wanted}, owed_prompt["player"], recorded=True)
    seats.after_timeout(ctx, owed_prompt["player"])


def expire_passed_deadlines(ctx, player: str) -> bool:
    """Deadlines are rules: a command carries its time, and what it finds past its deadline has expired.

    Before a player's answer is applied, every decision whose deadline passed by the command's
    ``at`` gets its default, exactly as its timer would have applied it (actor ``timer``), whether
    or not the timer has run yet. Returns True if the acting player's own decision was among them:
    its late answer is then void (a deal accepted after its deadline is not made).
    """
    own_expired = False
    for _ in range(flow.MAX_STEPS_PER_COMMAND):
        if not deadline_passed(ctx.state, ctx.time):
            break  # (the usual case, and cheap: no deadline has passed)
        clock = ctx.state["clock"]
        due = [p for p in flow.owed(ctx.state) if clock.get(p["id"]) is not None and clock[p["id"]] <= ctx.time]
        if not due:
            break
        own_expired = own_expired or any(p["player"] == player for p in due)
        acting, ctx.actor = ctx.actor, "timer"
        try:
            expire(ctx, {"prompt": due[0]["id"]})
            flow.advance(ctx)
            ctx.close_segment()
        finally:
            ctx.actor = acting
    return own_expired


def prompts(state: dict | None) -> list[dict]:
    """Every decision owed now, by whom, with its legal options and deadline.

    None in the middle of a command (a version between two events of one command): the game
    waits for no one there (`engine.rewind.at_rest`).
    """
    if not state or not at_rest(state):
        return []
    clock = state.get("clock") or {}
    return [{**owed_prompt, "deadline": clock.get(owed_prompt["id"], owed_prompt.get("deadline"))}
            for owed_prompt in flow.owed(state)]
