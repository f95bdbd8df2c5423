"""Rewinds: a game taken back to the state it had at an earlier version, its history kept.

A ``GameRewound`` event (payload ``to_version`` N) at stream position M means: from here on
the game is in the state it had at version N (the fold of its first N events, earlier
rewinds included), continued at stream version M. Versions stay stream positions:
``state["v"]`` counts every event, markers included, so optimistic appends, ETags and
``?version=`` keep their meaning, and the rewound events stay in the stream, readable and
auditable. Rewinding to a version inside an abandoned line is allowed: it means "the state
the game had when its stream was N events long".

So a state has two counters:

- ``v``: the stream version (every event);
- ``ply``: the position in the current line of play, in facts. Every fact advances it (the
  engine's bookkeeping events, `engine.evolve.BOOKKEEPING`, do not); a
  marker sets it back to its value at N. The engine's random source is keyed on ``ply``
  (`engine.context.Ctx.rng`), so a rewound game played on draws exactly what a fresh game
  played to N and continued with the same commands draws.

`evolve` cannot apply a marker alone (it would need the state at N), so every fold of a
stream goes through `fold` here: given ``state_at`` (the projections pass one that folds from
their nearest checkpoint), or from event 1, when `Replay` keeps the events and a copy of the
state every `Replay.every` events in memory to find the state at N. Deadlines owed at N move
by the marker's ``clock_shift`` (milliseconds), so a decision gets back the time it had left
at N instead of a deadline long past.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine import flow
from engine.errors import EngineError
from engine.evolve import evolve, handles
from engine.state import clone, empty

REWOUND = "GameRewound"


def is_marker(event: dict) -> bool:
    """Whether an event is a rewind marker."""
    return event.get("type") == REWOUND


def target_of(marker: dict, before: dict) -> int:
    """The version a marker rewinds to, checked against the state it is applied to."""
    to_version = (marker.get("payload") or {}).get("to_version")
    if type(to_version) is not int or not 1 <= to_version <= before["v"]:
        raise EngineError(f"a rewind at version {before['v'] + 1} names version {to_version!r}, "
                          f"not one of 1 to {before['v']}")
    return to_version


def rewound(target: dict, before: dict, marker: dict) -> dict:
    """The state after a marker: a copy of ``target`` (the state at ``to_version``) at the marker's version.

    ``before`` is the state the marker is appended to (its version gives the marker's). The
    inputs are not changed.
    """
    state = clone(target)
    state["ply"] = target.get("ply", 0)
    state["v"] = before["v"] + 1
    state["time"] = marker.get("time", before.get("time", 0))
    shift = (marker.get("payload") or {}).get("clock_shift") or 0
    if shift:
        _shift_deadlines(state, shift)
    return state


def _shift_deadlines(state: dict, shift: int) -> None:
    clock = state.get("clock") or {}
    for prompt_id, deadline in clock.items():
        if deadline is not None:
            clock[prompt_id] = deadline + shift
    deal = (state.get("ch") or {}).get("deal")
    if deal and deal.get("deadline") is not None:
        deal["deadline"] += shift


def at_rest(state: dict) -> bool:
    """Whether no command was half-applied at this state: a game being played waits for a decision.

    Format 2 (engine/context.py): the last event of every command says ``end``, and evolve keeps it
    as ``rest``. Format 1 (engine/legacy.py): after every command the game owed some decision and
    its clock listed exactly the owed decisions; between two events of one command it did not.
    Rewinding (or forking) to a version inside a command would leave nobody owing anything.
    """
    if state.get("status") != "playing":
        return True
    if state.get("format", 1) >= 2:
        return bool(state.get("rest"))
    owed = flow.owed(state)
    return bool(owed) and {p["id"] for p in owed} == set(state.get("clock") or {})


@handles(REWOUND)
def _rewound_alone(state, payload, event):
    raise EngineError("a GameRewound event needs the state at the version it names: fold streams with "
                      "engine.fold (engine.rewind.fold), not evolve")


StateAt = Callable[[int], dict]


def fold(events: Iterable[dict], state: dict | None = None, state_at: StateAt | None = None) -> dict:
    """The state reached by applying ``events`` in order, rewind markers included.

    From a new game (``state`` None) the events seen so far answer "the state at N" by
    themselves. Onto a given ``state``, a marker needs ``state_at(n)`` (the state after the
    stream's first ``n`` events, not changed by this function); without it a marker is an
    `EngineError`. ``state`` is changed in place when given; use the returned state.
    """
    if state is None and state_at is None:
        replay = Replay()
        for event in events:
            replay.apply(event)
        return replay.state
    state = state if state is not None else empty()
    for event in events:
        if is_marker(event):
            if state_at is None:
                raise EngineError("folding a GameRewound onto a given state needs state_at")
            state = rewound(state_at(target_of(event, state)), state, event)
        else:
            evolve(state, event)
    return state


class Replay:
    """A whole stream folded from event 1, keeping what it needs to apply rewinds.

    Holds every event applied and a private copy of the state every ``every`` events, so
    the state at any earlier version costs at most ``every`` events of folding.
    """

    def __init__(self, every: int = 500):
        self.every = every
        self.events: list[dict] = []
        self.state = empty()
        self._marks: dict[int, dict] = {0: empty()}

    def apply(self, event: dict) -> dict:
        """Apply the next event of the stream; returns the new state (do not change it)."""
        if is_marker(event):
            to_version = target_of(event, self.state)
            target = self.state if to_version == self.state["v"] else self.state_at(to_version)
            self.state = rewound(target, self.state, event)
        else:
            evolve(self.state, event)
        self.events.append(event)
        if self.state["v"] % self.every == 0:
            self._marks[self.state["v"]] = clone(self.state)
        return self.state

    def state_at(self, version: int) -> dict:
        """The state after the first ``version`` events applied so far (read-only: do not change it)."""
        if not 0 <= version <= len(self.events):
            raise EngineError(f"version {version} is not one of 0 to {len(self.events)}")
        if version == len(self.events):
            return self.state
        base = max(v for v in self._marks if v <= version)
        state = clone(self._marks[base])
        for event in self.events[base:version]:
            if is_marker(event):
                state = rewound(self.state_at(target_of(event, state)), state, event)
            else:
                evolve(state, event)
        return state
