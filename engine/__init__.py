"""The rules of Cosmic Encounter: pure, deterministic, no I/O.

- `decide(state, command) -> [event, ...]`: check a command and return the events it causes.
- `evolve(state, event) -> state`: apply one event (in place; returns the state).
- `prompts(state) -> [prompt, ...]`: every decision owed now, with its legal options.
- `fold(events) -> state`: the state after a sequence of events (rewind markers included, see `engine.rewind`).

Nothing here imports redis, flask, rq or marshmallow. The hot modules run compiled when `make install`
built them and they match their sources (`engine.compiled`).
"""

from engine import compiled

compiled.install()  # before any other engine module is imported

from engine import legacy, steps  # noqa: E402, F401  (register the turn sequence and the format-1 events)
from engine.decide import decide, execute, prompts  # noqa: E402
from engine.errors import CommandError, EngineError, EngineStuck, NotOwed, RulesError  # noqa: E402
from engine.evolve import evolve  # noqa: E402
from engine.rewind import fold  # noqa: E402

__all__ = ["CommandError", "EngineError", "EngineStuck", "NotOwed", "RulesError", "decide", "evolve", "execute",
           "fold", "prompts"]
