"""Fixtures for worker tests: a runtime on this test's Redis backend and prefix (its RQ keys purged after),
games played through it (`ServiceGame`), and webhook receivers on loopback (``receiver``)."""

from __future__ import annotations

import time

import pytest

from engine.scenario import Scenario
from tests.workers.games import make_runtime
from tests.workers.hooks import Receiver
from workers import runtime as runtime_module
from workers.queues import purge
from workers.runtime import Runtime
from workers.settings import Settings


@pytest.fixture
def rt(redis_client, key_prefix):
    """A runtime (not installed) with small snapshot and checkpoint intervals, for the history tests."""
    return make_runtime(redis_client, key_prefix)


@pytest.fixture
def runtime(redis_client, rq_client, key_prefix):
    """A runtime installed as this process's (jobs find it with ``current()``), uninstalled afterwards."""
    built = Runtime(Settings(prefix=key_prefix, admin_token="adm", snapshot_every=10**6, checkpoint_every=10**6),
                    redis_client=redis_client, rq_client=rq_client)
    runtime_module.install(built)
    yield built
    runtime_module.install(None)
    purge(rq_client, key_prefix)


class ServiceGame(Scenario):
    """A `Scenario` played through a runtime's command runner (so listeners, e.g. timers, see every append).

    Commands are stamped with ``self.clock`` (ms), which starts a minute in the past unless
    ``clock`` says when the game is created: a test places the command that opens a deadline
    where it wants in real time (answers after a deadline get its default, as in play).
    """

    def __init__(self, runtime, game_id: str, players: int = 2, *, powers=None, hands=None, destiny=None,
                 first="red", options=None, seed="timers", clock: int | None = None):
        setup = {"powers": powers or {}, "hands": hands or {}, "deck_top": [], "destiny_top": destiny or [],
                 "tokens": {}, "first": first}
        defaults = {"edicts": False, "flares": False, "reinforcements": False, "reverse_cone": False}
        self.runtime, self.game_id = runtime, game_id
        self.clock = int(time.time() * 1000) - 60_000 if clock is None else clock
        self.auto_pass = True
        self.log, self.state = [], None
        lobby = [{"action": "create", "options": {**defaults, **(options or {})}, "seats": players, "seed": seed,
                  "setup": setup, "at": self.clock}]
        lobby += [{"action": "join", "name": f"player {k + 1}", "at": self.clock} for k in range(players)]
        for command in lobby + [{"action": "start", "at": self.clock}]:
            self._run(command)

    def _run(self, command: dict) -> list[dict]:
        outcome = self.runtime.commands.run(self.game_id, command)
        self.state = outcome.state
        self.log += outcome.events
        return outcome.events

    def command(self, player: str, action: str, args: dict | None = None, **identity) -> list[dict]:
        self.clock += 1000
        return self._run({"action": action, "player": player, "args": args or {}, "at": self.clock, **identity})

    def timeout(self, prompt_id: str, at: int | None = None) -> list[dict]:
        self.clock = max(self.clock, at if at is not None else self.clock + 1000)
        return self._run({"action": "timeout", "prompt": prompt_id, "at": self.clock})

    def refresh(self) -> dict:
        """The game's state as stored now (after jobs appended to it)."""
        self.state = self.runtime.repository.current(self.game_id)
        return self.state


@pytest.fixture
def service_game(runtime):
    """Make `ServiceGame`s (on this test's runtime unless given another): ``service_game("g1", players=2)``."""
    def make(game_id: str, runtime=runtime, **kw) -> ServiceGame:
        return ServiceGame(runtime, game_id, **kw)
    return make


@pytest.fixture
def service_game_class():
    """`ServiceGame` itself, for a test that builds its own runtime."""
    return ServiceGame


@pytest.fixture
def receiver():
    """Make webhook receivers on loopback (``receiver(fail_first=2)``), closed after the test."""
    made = []

    def make(fail_first: int = 0) -> Receiver:
        made.append(Receiver(fail_first))
        return made[-1]
    yield make
    for item in made:
        item.close()
