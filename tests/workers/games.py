"""Games for the worker tests (timers, bots, webhooks, audit, rewind, fork, export/import).

- `lobby` gives the commands that create, fill (people or bots) and start a game;
- `recorded_commands` plays a game between random legal players in process and returns the
  commands it played (each with its own ``at``), so a test can play exactly the same
  commands again through a runtime, or through two, and compare;
- `play` runs commands through a runtime's command runner (so its listeners see every
  append, as in the service); `random_move` / `random_moves` answer owed decisions with
  random legal commands through it;
- `compromises` stacks a game to a deal window closing when a test wants (the timers' tests);
- `make_runtime` builds a runtime with small snapshot and checkpoint intervals.
"""

from __future__ import annotations

import json
import random
from functools import partial

import engine
from engine.players import random_command
from events.envelope import canonical_json
from tests.rediscluster import queue_client_for
from workers.clock import now_ms
from workers.runtime import Runtime
from workers.settings import Settings

ADMIN_TOKEN = "history-admin"
TRIES = 50  # random commands tried for one decision before giving up on it


def lobby(seed: str, players: int = 3, options: dict | None = None, *, bots: list[str | None] | None = None,
          names: str = "player {n}") -> list[dict]:
    """The commands that create, fill and start a game; ``bots`` gives each seat's level (None: a person)."""
    levels = bots if bots is not None else [None] * players
    options = dict(options or {})
    if len(levels) == 2:
        # two random players without the honeymoon often play for hundreds of turns (see
        # tests/engine/test_simulation.py); the history tests want short complete games
        options.setdefault("honeymoon", True)
    commands = [{"action": "create", "seats": len(levels), "seed": seed, "options": options, "at": 0}]
    for k, level in enumerate(levels):
        join = {"action": "join", "name": names.format(n=k + 1, k=k), "at": 0}
        if level is not None:
            join["bot"] = level
        commands.append(join)
    return commands + [{"action": "start", "at": 0}]


def legal_random(state: dict, prompt: dict, rng, run, *, at: int = 1, view: dict | None = None):
    """Try random answers to ``prompt`` (chosen from ``view``, default the state) until ``run(command)`` accepts one.

    ``run`` raises `engine.EngineError` for a refused command. Returns ``(command, what run
    returned)``, or None when `TRIES` attempts were all refused.
    """
    for _ in range(TRIES):
        command = random_command(state if view is None else view, prompt, rng)
        command["at"] = at
        try:
            outcome = run(command)
        except engine.EngineError:
            continue
        return command, outcome
    return None


def recorded_commands(seed: str, *, commands: int | None = None, events: int | None = None, players: int = 3,
                      options: dict | None = None) -> list[dict]:
    """A random legal game's commands: until ``commands`` commands or ``events`` events (or its end)."""
    played = lobby(seed, players, options)
    state, count = None, 0
    for command in played:
        emitted, state = engine.execute(state, command)
        count += len(emitted)
    rng = random.Random(f"history:{seed}")
    while state["status"] == "playing":
        if commands is not None and len(played) >= commands:
            break
        if events is not None and count >= events:
            break
        prompt = rng.choice(engine.prompts(state))
        found = legal_random(state, prompt, rng, partial(engine.execute, state), at=1000 * len(played))
        if found is not None:
            command, (emitted, state) = found
            played.append(command)
            count += len(emitted)
    return played


def play(runtime, game_id: str, commands: list[dict]) -> dict:
    """Run commands through the runtime's command runner; returns the state after the last."""
    state = None
    for command in commands:
        state = runtime.commands.run(game_id, command).state
    return state


def random_move(runtime, game_id: str, rng, *, player: str | None = None, view=None) -> dict | None:
    """Answer one owed decision (``player``'s first, if given) with a random legal command; returns it.

    None when nothing is owed (by ``player``) or the game is over; an `AssertionError` when
    no legal answer was found. ``view(state, colour)`` gives what the answering seat may
    know (default: the whole state).
    """
    state = runtime.repository.current(game_id)
    if state["status"] != "playing":
        return None
    owed = [p for p in engine.prompts(state) if player is None or p["player"] == player]
    if not owed:
        return None
    prompt = owed[0] if player is not None else rng.choice(owed)

    def run(command):
        return runtime.commands.run(game_id, command, expected_version=state["v"], state=state)

    seen = None if view is None else view(state, prompt["player"])
    found = legal_random(state, prompt, rng, run, view=seen)
    assert found is not None, f"no legal answer for {prompt['id']} found in {TRIES} tries"
    return found[0]


def random_moves(runtime, game_id: str, moves: int, rng) -> list[dict]:
    """Up to ``moves`` random legal commands by whoever owes (stops when the game ends); returns the game's events."""
    for _ in range(moves):
        if runtime.repository.current(game_id)["status"] != "playing":
            break
        random_move(runtime, game_id, rng)
    return runtime.store.read(game_id)


# A deal window on a stacked game (the timers' tests) ----------------------------------------------

HUMANS = {"red": ["Human"], "blue": ["Human"]}
RED_HAND = ["C", "A15", "A14", "A13", "A12", "A11", "A10"]
BLUE_HAND = ["C", "A4", "A5", "A6", "A7", "A8", "A9"]


def compromises(make, game_id: str, deadline_in_ms: int, *, launch=None, **options):
    """Red attacks blue; both play Compromises, opening a deal window (5 s) that ends ``deadline_in_ms`` from now.

    ``make(game_id, **setup)`` makes the game (a `ServiceGame`, see tests/workers/conftest.py);
    ``options`` are the game's options besides ``deal_seconds``.
    """
    # three commands (launch, red's card, blue's card), a second apart: blue's opens the deal
    opens_deal_at = now_ms() + deadline_in_ms - 5000
    g = make(game_id, players=2, powers=HUMANS, hands={"red": RED_HAND, "blue": BLUE_HAND},
             destiny=["blue.1"], options={"deal_seconds": 5, **options}, clock=opens_deal_at - 3000)
    g.launch(launch or {"red-0": 3}, "blue-0")
    g.play("red", "C")
    g.play("blue", "C")
    return g


# Tampering, as someone with access to Redis would: writing the stream key behind the store's back -----

def stream_entries(runtime, game_id: str) -> list[tuple[str, dict]]:
    """The stream's entries as stored: (entry id, event)."""
    return [(i.decode(), json.loads(f[b"e"])) for i, f in runtime.redis.xrange(runtime.store.stream_key(game_id))]


def rewrite_stream(runtime, game_id: str, entries: list[tuple[str, dict]]) -> None:
    """Replace the stream key's entries (DEL, then XADD each again under its id)."""
    key = runtime.store.stream_key(game_id)
    runtime.redis.delete(key)
    for entry_id, event in entries:
        runtime.redis.xadd(key, {"e": canonical_json(event)}, id=entry_id)


def tamper_time(runtime, game_id: str, seq: int) -> None:
    """Change one event's time without sealing it again (its hash no longer fits)."""
    entries = stream_entries(runtime, game_id)
    for _, event in entries:
        if event["seq"] == seq:
            event["time"] += 1
    rewrite_stream(runtime, game_id, entries)


def canonical(value) -> str:
    """A value as sorted JSON, for comparing states and views exactly."""
    return json.dumps(value, sort_keys=True)


def make_runtime(redis_client, prefix: str, **overrides) -> Runtime:
    """A runtime with small snapshot and checkpoint intervals (so the history code meets them)."""
    settings = {"prefix": prefix, "admin_token": ADMIN_TOKEN, "snapshot_every": 20, "checkpoint_every": 50,
                **overrides}
    return Runtime(Settings(**settings), redis_client=redis_client, rq_client=queue_client_for(redis_client))


def runtime_on(settings: Settings, redis_client) -> Runtime:
    """A runtime on ``redis_client`` (RQ on the cluster's queue server when it is a cluster client)."""
    return Runtime(settings, redis_client=redis_client, rq_client=queue_client_for(redis_client))
