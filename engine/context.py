"""The working context of one `decide` call: a scratch state, the events emitted so far, the RNG.

Every fact goes through `Ctx.emit`, which applies the event to the scratch state with `evolve`
at once, so the rules code always reads the state as it now is, and the events returned are
exactly what folding will reproduce.

The turn sequence's agenda (engine/flow.py) is the engine's own bookkeeping, not a fact of the
game: `replace`, `then`, `update` and `unwind` change it in the scratch state directly. What a
fold needs to stand where `decide` stopped is written once, at the end of the command, as one
`Bookmark` event: the agenda's steps that changed (as "keep the first k steps, then these"),
the step counter and the deadlines of the decisions owed (`close_segment`). A command that left
the agenda, the counter and the deadlines as they were writes none. The last event of every
command carries ``end: true``: a fold knows the game waits for a decision there
(`engine.rewind.at_rest`).

Only one fact reads the agenda as it is applied: `Passed` (a window notes who passed). It is
the first thing a command does, when the fold's agenda is the one the last bookmark left; if
the agenda changed before it (a deadline's default applied first), the bookmark is written
just before it, so the fold applies it to the same step `decide` did.
"""

from __future__ import annotations

import hashlib
import random

from engine import flow
from engine.evolve import BOOKKEEPING, evolve
from engine.winning import CLAIM, GameOver, declare_winners

__all__ = ["Ctx", "GameOver"]

# facts whose `evolve` reads or replaces the agenda: a pending bookmark is written before them
READS_AGENDA = frozenset({"Passed", "GameEnded"})
BOOKMARK = "Bookmark"
# facts after which someone may have won: tokens moved, or a note (a win claimed: engine.winning.CLAIM)
MAY_WIN = frozenset({"TokensMoved", "PlayerNoted"})


class Ctx:
    """A scratch state plus the events that made it."""

    __slots__ = ("state", "events", "facts", "progress", "actor", "time", "_rng", "_position", "_sid",
                 "may_have_won", "expired", "quaking", "_collected", "_marked_agenda", "_marked_sid",
                 "_clock_changed")

    def __init__(self, state: dict, *, actor: str, time: int):
        self.state = state
        self.events: list[dict] = []
        self.facts = 0  # how many of them are facts of the game (not bookkeeping: engine.evolve.BOOKKEEPING)
        self.progress = 0  # facts emitted and agenda changes made: the driver's test that a step did something
        self.actor = actor
        self.time = int(time)
        self._rng: random.Random | None = None
        self._position = state.get("ply", 0)  # the line of play's position in facts (engine.rewind)
        self._sid = state.get("sid", 0)
        # whether tokens moved or a win was claimed since winners were last looked for: an earlier
        # command may have stopped inside a rule, so the first boundary of every command looks (engine.winning)
        self.may_have_won = True
        self.expired: set[str] = set()  # decisions whose deadline's default this command applied
        self.quaking = False  # a Cosmic Quake is dealing new hands (engine.handcards): no second one inside it
        self._collected: list[dict] | None = None  # steps noted by `then` inside `collecting`
        # the agenda and step counter as a fold has them, copied at the first change since the last bookmark
        self._marked_agenda: list[dict] | None = None
        self._marked_sid = state.get("sid", 0)
        self._clock_changed = False

    @property
    def rng(self) -> random.Random:
        """The command's random source: from the secret seed and the position in the line of play only."""
        if self._rng is None:
            digest = hashlib.sha256(f"{self.state.get('seed', '')}:{self._position}".encode()).hexdigest()
            self._rng = random.Random(int(digest, 16))
        return self._rng

    def emit(self, event_type: str, **payload) -> dict:
        """Record a fact: apply it to the scratch state and keep it for the stream."""
        if self._marked_agenda is not None and event_type in READS_AGENDA:
            self.bookmark()
        event = {"type": event_type, "payload": payload, "actor": self.actor, "time": self.time}
        evolve(self.state, event)
        self.events.append(event)
        self.progress += 1
        if event_type not in BOOKKEEPING:
            self.facts += 1
            if event_type in MAY_WIN and (event_type == "TokensMoved" or payload["key"] == CLAIM):
                self.may_have_won = True
        return event

    def settle_wins(self) -> None:
        """At a boundary of the turn sequence: declare the winners (five external bases, alternate wins claimed),
        if tokens moved or a win was claimed since the last look."""
        if self.may_have_won and self.state["status"] == "playing":
            self.may_have_won = False
            declare_winners(self)

    # The agenda ------------------------------------------------------------------------------

    def step(self, op: str, **args) -> dict:
        """A new step for the agenda, with a fresh serial number."""
        self._sid = max(self._sid, self.state["sid"]) + 1
        return {"op": op, "sid": self._sid, **args}

    def spend_step(self) -> None:
        """A step that would open and close at once is passed over: its serial number is spent all the same."""
        self.state["sid"] = self._sid = max(self._sid, self.state["sid"]) + 1
        self.progress += 1

    def replace(self, *steps: dict) -> None:
        """Replace the current step by ``steps`` (the first runs first); none means it is done."""
        agenda = self._changing_agenda()
        agenda.pop()
        if not steps:
            return
        state = self.state
        top = state["sid"]
        # copies: the caller may keep and change its step records; the agenda's are its own
        for step in reversed(steps):
            agenda.append(dict(step))
            if step["sid"] > top:
                top = step["sid"]
        state["sid"] = top

    def done(self) -> None:
        """The current step is finished."""
        self.replace()

    def then(self, *steps: dict) -> None:
        """Run ``steps`` first, then come back to the current step.

        Inside `collecting` (a trigger being fired), the steps are only noted, so that what
        several handlers schedule runs in the order they were called, not the reverse.
        """
        if self._collected is not None:
            self._collected.extend(steps)
            return
        current = self.state["agenda"][-1]
        self.replace(*steps, dict(current))

    def collecting(self) -> Collecting:
        """Schedule everything `then` is asked for inside the block at once, first asked first run.

        RULES.md 5: effects triggered by one event resolve in timing order. Each handler of a
        trigger schedules its step with `then`; scheduled one by one, the last would run first.
        """
        return Collecting(self)

    def update(self, **changes) -> None:
        """Record progress within the current step."""
        agenda = self._changing_agenda()
        self._unshare(agenda[-1]).update(changes)

    def unwind(self, to: str, **changes) -> None:
        """Abandon every step above the nearest ``to`` step, then update it."""
        agenda = self._changing_agenda()
        while agenda and agenda[-1]["op"] != to:
            agenda.pop()
        if agenda:
            self._unshare(agenda[-1]).update(changes)

    def _changing_agenda(self) -> list[dict]:
        """The agenda, about to change: the first change since the last bookmark keeps a copy to compare.

        The copy is of the list: its step records are shared with the agenda until one is changed in place
        (`update`, `unwind`: `_unshare`); `replace` only takes records off and puts new ones on."""
        agenda = self.state["agenda"]
        if self._marked_agenda is None:
            self._marked_agenda = list(agenda)
        self.progress += 1
        return agenda

    def _unshare(self, step: dict) -> dict:
        """``step`` (a record of the agenda) is about to change in place: the copy kept to compare keeps its own,
        and what it waits for is to be worked out again (`engine.flow.waiting_for`)."""
        flow.agenda_changed()
        marked = self._marked_agenda
        for index, kept in enumerate(marked):
            if kept is step:
                marked[index] = dict(step)
        return step

    # Bookmarks -----------------------------------------------------------------------------

    def close_segment(self) -> None:
        """At the end of a command (or of a deadline's default applied first): note the deadlines of the
        decisions now owed, and write a bookmark if the fold would not stand where `decide` stopped."""
        if self.state["status"] == "playing":
            self._note_deadlines()
        self.bookmark()

    def _note_deadlines(self) -> None:
        """The clock holds the deadline of every decision owed that has one (prompt id -> ms).

        A new decision takes its own deadline (a deal's) or, with ``decision_seconds``, that many
        seconds from now; one asked anew by its own expired default (own colour, "draw again")
        gets a fresh one, so a timer is set for it and a person gets the full time to answer.
        """
        state = self.state
        clock = state["clock"]
        seconds = state["options"].get("decision_seconds")
        noted = {}
        for owed in flow.owed(state):
            prompt_id = owed["id"]
            if prompt_id in clock and prompt_id not in self.expired:
                if clock[prompt_id] is not None:  # (a stream of format 1 noted decisions without one too)
                    noted[prompt_id] = clock[prompt_id]
                continue
            deadline = owed.get("deadline")
            if (deadline is None or deadline <= self.time) and seconds:
                deadline = self.time + seconds * 1000
            if deadline is not None:
                noted[prompt_id] = deadline
        if noted != clock:
            state["clock"] = noted
            self._clock_changed = True

    def bookmark(self) -> None:
        """Write the `Bookmark` a fold needs to stand where `decide` now stands, if it needs one."""
        state = self.state
        if state["status"] != "playing":  # (a game over has no agenda: GameEnded wrote one before it)
            self._marked_agenda, self._clock_changed = None, False
            return
        upgrading = state.get("format", 1) < 2  # the first command on a stream of format 1: all of it, once
        marked = [] if upgrading else self._marked_agenda
        payload: dict = {}
        if marked is not None:
            agenda = state["agenda"]
            keep = kept_steps(marked, agenda)
            if upgrading or keep != len(marked) or keep != len(agenda):
                payload["agenda"] = {"keep": keep, "steps": [dict(step) for step in agenda[keep:]]}
        if upgrading or state["sid"] != self._marked_sid:
            payload["sid"] = state["sid"]
        if upgrading or self._clock_changed:
            payload["clock"] = dict(state["clock"])
        self._marked_agenda = None
        self._clock_changed = False
        self._marked_sid = state["sid"]
        if payload:
            self.emit(BOOKMARK, **payload)
            flow.bookmark_written(state)

    def finish(self) -> None:
        """The command is complete: its last event says so (``end``), and so does the state."""
        if self.events:
            self.events[-1]["end"] = True
        self.state["rest"] = True


class Collecting:
    """The block of `Ctx.collecting` (a plain class: entered at every trigger fired, it is cheaper than a generator)."""

    __slots__ = ("ctx", "outer")

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.outer: list[dict] | None = None

    def __enter__(self) -> None:
        self.outer, self.ctx._collected = self.ctx._collected, []

    def __exit__(self, kind, error, trace) -> bool:
        collected, self.ctx._collected = self.ctx._collected, self.outer
        if kind is None and collected:
            self.ctx.then(*collected)
        return False


def kept_steps(before: list[dict], after: list[dict]) -> int:
    """How many steps at the bottom of the agenda are the same before and after a change."""
    keep, common = 0, min(len(before), len(after))
    while keep < common:
        old, new = before[keep], after[keep]
        if old is not new and old != new:  # (most are the very same record: no field-by-field comparison)
            break
        keep += 1
    return keep
