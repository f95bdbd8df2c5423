"""The rules of Cosmic Encounter: pure, deterministic, no I/O.

- `decide(state, command) -> [event, ...]`: check a command and return the events it causes.
- `evolve(state, event) -> state`: apply one event (in place; returns the state).
- `prompts(state) -> [prompt, ...]`: every decision owed now, with its legal options.
- `fold(events) -> state`: the state after a sequence of events.

Nothing here imports redis, flask, rq or marshmallow.
"""

from engine import steps  # noqa: F401  (registers the turn sequence)
from engine.decide import decide, execute, prompts
from engine.errors import CommandError, EngineError, EngineStuck, NotOwed, RulesError
from engine.evolve import evolve
from engine.state import empty


def fold(events, state: dict | None = None) -> dict:
    """The state reached by applying ``events`` in order (to ``state`` or a new game)."""
    state = state if state is not None else empty()
    for event in events:
        evolve(state, event)
    return state


__all__ = ["CommandError", "EngineError", "EngineStuck", "NotOwed", "RulesError", "decide", "evolve", "execute",
           "fold", "prompts"]
