"""The write path: one command against a game's cached state, appended optimistically.

`CommandRunner.run` takes the current state from the repository (cache or snapshot plus the
events since), lets `engine.execute` check the command and produce its events and the
next state, and appends the events with ``expected_version`` = the state's version. The
state `engine.execute` returns becomes the cached state (it equals the fold), so the cost
of a command does not grow with the length of the game.

- With ``expected_version`` (the client pinned a version) a stale state is a
  `VersionConflict`; without it a conflicting append (another writer got there first)
  is retried on the fresher state a few times.
- With an ``idempotency_key`` a repeated request returns the first answer and writes
  nothing: ``respond(state_after, events)`` computes the answer before the append, so the
  store keeps it with the key in the same atomic step.
- Listeners run after every successful append (index, data-folder mirror, jobs); their
  failures are logged, never turned into a failed command (the events are written).
Engine errors (`engine.RulesError`, `engine.CommandError`, ...) propagate unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import engine
from events.exceptions import ConcurrencyConflict, IdempotencyMismatch
from projections.errors import IdempotencyKeyReused, VersionConflict

log = logging.getLogger(__name__)

Listener = Callable[[str, dict, dict, list], None]


@dataclass
class Outcome:
    """What a command did: the version after it, the sealed events, the new state, the response."""

    game_id: str
    version: int
    events: list[dict] = field(default_factory=list)
    state: dict | None = None
    response: object = None
    replayed: bool = False


class CommandRunner:
    """Runs commands for every game of one store; see the module docstring."""

    def __init__(self, store, repository, *, retries: int = 5, listeners: list[Listener] | None = None):
        self.store = store
        self.repository = repository
        self.retries = retries
        self.listeners: list[Listener] = list(listeners or [])

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(game_id, state_before, state_after, sealed_events)`` after each append."""
        self.listeners.append(listener)

    def run(self, game_id: str, command: dict, *, expected_version: int | None = None,
            idempotency_key: str | None = None, fingerprint: str | None = None,
            respond: Callable[[dict, list], object] | None = None, state: dict | None = None,
            check: Callable[[dict], None] | None = None) -> Outcome:
        """Check and append one command; see the module docstring for conflicts and retries.

        ``state``: the game's current state if the caller just read it (saves a read of the head).
        ``check(state)``: the caller's own checks of the request against the game, run only after
        an idempotent retry has had its stored answer and the expected version has been checked
        (a retry is answered as the first time; a stale version is a 409, whatever else is wrong).
        """
        if idempotency_key is not None:
            replay = self._replay(game_id, idempotency_key, fingerprint)
            if replay is not None:
                return replay
        current = None
        for attempt in range(self.retries + 1):
            if attempt or state is None:
                state = self.repository.current(game_id)
            if expected_version is not None and state["v"] != expected_version:
                raise VersionConflict(state["v"], expected_version)
            if check is not None:
                check(state)
            events, after = engine.execute(state, command)
            response = respond(after, events) if respond is not None else None
            try:
                result = self.store.append(game_id, events, state["v"], idempotency_key=idempotency_key,
                                           response=response, fingerprint=fingerprint)
            except ConcurrencyConflict as conflict:
                current = conflict.current_version
                if expected_version is not None:
                    raise VersionConflict(current, expected_version) from None
                continue
            except IdempotencyMismatch:
                raise IdempotencyKeyReused(idempotency_key) from None
            if result.replayed:
                return Outcome(game_id, result.version, response=result.response, replayed=True)
            if not result.events:
                return Outcome(game_id, state["v"], state=state, response=response)
            if state["v"] == 0:
                after = engine.fold(result.events)  # the first event carries the game id the engine did not know
            self.repository.record(game_id, after, result.events[-1]["hash"], state["v"])
            self._notify(game_id, state, after, result.events)
            return Outcome(game_id, after["v"], result.events, after, response)
        raise VersionConflict(current if current is not None else -1, None)

    def notify(self, game_id: str, before: dict, after: dict, events: list[dict]) -> None:
        """Run the listeners for events appended outside `run` (a rewind marker, a fork's or an import's events)."""
        self._notify(game_id, before, after, events)

    def _replay(self, game_id: str, key: str, fingerprint: str | None) -> Outcome | None:
        record = self.store.idempotency_record(game_id, key)
        if record is None:
            return None
        if fingerprint is not None and record.get("fingerprint") not in (None, fingerprint):
            raise IdempotencyKeyReused(key)
        return Outcome(game_id, record.get("version", 0), response=record.get("response"), replayed=True)

    def _notify(self, game_id: str, before: dict, after: dict, events: list[dict]) -> None:
        for listener in self.listeners:
            try:
                listener(game_id, before, after, events)
            except Exception:  # a listener is a side effect: the events are already written
                log.exception("listener %r failed after an append to game %s", listener, game_id)
