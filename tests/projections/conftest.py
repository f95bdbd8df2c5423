"""Fixtures for projection tests: stores, repositories and seeded games played through the write path."""

from __future__ import annotations

import random

import pytest

from engine import flow, prompts
from engine.errors import EngineError
from engine.players import random_command
from events.store import EventStore
from projections.commands import CommandRunner
from projections.repository import Repository

RETRIES = 25


def lobby_commands(seed: str, players: int, options: dict | None = None) -> list[dict]:
    """Create, join every seat, start."""
    commands = [{"action": "create", "ruleset": "mayfair", "options": options or {}, "seats": players,
                 "seed": seed, "setup": {}, "at": 0}]
    commands += [{"action": "join", "name": f"p{k}", "at": 0} for k in range(players)]
    return commands + [{"action": "start", "at": 0}]


def random_move(state: dict, rng, clock: int) -> list[dict]:
    """Commands to try for one random owed decision: random picks, then the decision's default."""
    prompt = rng.choice(prompts(state))
    tries = []
    for _ in range(RETRIES):
        command = random_command(state, prompt, rng)
        command["at"] = clock
        tries.append(command)
    fallback = flow.default_command(state, prompt, rng)
    fallback["at"] = clock
    return tries + [fallback]


class Game:
    """A seeded game driven through a CommandRunner by random legal players."""

    def __init__(self, runner: CommandRunner, game_id: str, seed: str):
        self.runner, self.game_id, self.seed = runner, game_id, seed
        self.rng = random.Random(seed)
        self.clock = 0
        self.outcomes = []

    def start(self, players: int = 4, options: dict | None = None) -> Game:
        """Create the game, seat everyone, start."""
        for command in lobby_commands(self.seed, players, options):
            self.outcomes.append(self.runner.run(self.game_id, command))
        return self

    def moves(self, count: int | None = None, runner: CommandRunner | None = None, on_outcome=None) -> Game:
        """Play ``count`` more commands (None: to the end), through ``runner`` (default the game's)."""
        runner = runner or self.runner
        done = 0
        while count is None or done < count:
            state = runner.repository.current(self.game_id)
            if state["status"] != "playing":
                break
            self.clock += 1000
            for command in random_move(state, self.rng, self.clock):
                try:
                    self.outcomes.append(runner.run(self.game_id, command))
                    break
                except EngineError:
                    continue
            else:
                raise AssertionError("no legal command found")
            if on_outcome is not None:
                on_outcome(self.outcomes[-1])
            done += 1
        return self


@pytest.fixture
def play():
    """``play(runner, game_id, seed, players=4, commands=None)``: a started seeded game, ``commands`` moves in."""
    def run(runner: CommandRunner, game_id: str, seed: str, players: int = 4, commands: int | None = None,
            options: dict | None = None, on_outcome=None) -> Game:
        return Game(runner, game_id, seed).start(players, options).moves(commands, on_outcome=on_outcome)
    return run


@pytest.fixture
def make_runner(redis_client, redis_factory, key_prefix):
    """``make_runner(new_connection=False, **repository_options)``: a store + repository + runner."""
    def make(new_connection: bool = False, **options) -> CommandRunner:
        client = redis_factory() if new_connection else redis_client
        store = EventStore(client, prefix=key_prefix)
        return CommandRunner(store, Repository(store, **options))
    return make
