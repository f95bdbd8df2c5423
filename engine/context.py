"""The working context of one `decide` call: a scratch state, the events emitted so far, the RNG.

Every change goes through `Ctx.emit`, which applies the event to the scratch state with
`evolve` at once, so the rules code always reads the state as it now is, and the events
returned are exactly what folding will reproduce.
"""

from __future__ import annotations

import hashlib
import random
from contextlib import contextmanager

from engine.evolve import BOOKKEEPING, evolve
from engine.winning import GameOver, declare_winners

__all__ = ["Ctx", "GameOver"]


class Ctx:
    """A scratch state plus the events that made it."""

    def __init__(self, state: dict, *, actor: str, time: int):
        self.state = state
        self.events: list[dict] = []
        self.facts = 0  # how many of them are facts of the game (not bookkeeping: engine.evolve.BOOKKEEPING)
        self.actor = actor
        self.time = int(time)
        self._rng: random.Random | None = None
        self._position = state.get("ply", 0)  # the line of play's position in facts (engine.rewind)
        self._sid = state.get("sid", 0)
        # tokens may have moved since winners were last looked for (an earlier command may have
        # stopped inside a rule), so the first boundary of every command looks (engine.winning)
        self.tokens_moved = True
        self.expired: set[str] = set()  # decisions whose deadline's default this command applied
        self._collected: list[dict] | None = None  # steps noted by `then` inside `collecting`

    @property
    def rng(self) -> random.Random:
        """The command's random source: from the secret seed and the position in the line of play only."""
        if self._rng is None:
            digest = hashlib.sha256(f"{self.state.get('seed', '')}:{self._position}".encode()).hexdigest()
            self._rng = random.Random(int(digest, 16))
        return self._rng

    def emit(self, event_type: str, **payload) -> dict:
        """Record a fact: apply it to the scratch state and keep it for the stream."""
        event = {"type": event_type, "payload": payload, "actor": self.actor, "time": self.time}
        evolve(self.state, event)
        self.events.append(event)
        if event_type not in BOOKKEEPING:
            self.facts += 1
        if event_type == "TokensMoved":
            self.tokens_moved = True
        return event

    def settle_wins(self) -> None:
        """At a boundary of the turn sequence: declare the winners, if tokens moved since the last look."""
        if self.tokens_moved and self.state["status"] == "playing":
            self.tokens_moved = False
            declare_winners(self)

    # The agenda ------------------------------------------------------------------------------

    def step(self, op: str, **args) -> dict:
        """A new step for the agenda, with a fresh serial number."""
        self._sid = max(self._sid, self.state["sid"]) + 1
        return {"op": op, "sid": self._sid, **args}

    def replace(self, *steps: dict) -> None:
        """Replace the current step by ``steps`` (the first runs first); none means it is done."""
        self.emit("StepsScheduled", steps=list(steps))

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

    @contextmanager
    def collecting(self):
        """Schedule everything `then` is asked for inside the block at once, first asked first run.

        RULES.md 5: effects triggered by one event resolve in timing order. Each handler of a
        trigger schedules its step with `then`; scheduled one by one, the last would run first.
        """
        outer, self._collected = self._collected, []
        try:
            yield
        finally:
            collected, self._collected = self._collected, outer
            if collected:
                self.then(*collected)

    def update(self, **changes) -> None:
        """Record progress within the current step."""
        self.emit("StepUpdated", changes=changes)

    def unwind(self, to: str, **changes) -> None:
        """Abandon every step above the nearest ``to`` step, then update it."""
        self.emit("AgendaUnwound", to=to, changes=changes)
