"""Bot seats: a worker job answers the decisions owed by seats that joined with ``bot``.

A seat joins as a bot with ``{"bot": <level>}`` (a level of `engine.levels.LEVELS`: ``random``,
``heuristic``, ...; recorded in ``PlayerJoined``), or a person's seat is handed to one during play
(``SeatHandedToBot``, `engine.seats`: by the person, or by the ``hand_over_after`` option when it
missed decisions) until the person takes it back (``SeatTakenBack``). Either way the seat's
``bot`` in the state names its level, and that is all this module reads.
After every append, `listener` looks at the decisions now owed (``engine.prompts``); when any
belongs to a bot seat it enqueues ``play_bots(game_id, version)`` on the ``default`` queue (not
after table talk alone, workers/talk.py, which changes no decision).

The job (`play_bots`):

- takes the game's bot lease (one job plays a game's bots at a time; a job that finds it
  taken does nothing, except scheduling one look for when the lease would expire, in case
  its holder died);
- then, on the *current* state (whatever version it was enqueued for: a stale job is just
  an early or redundant look), answers the first decision a bot owes, through
  ``runtime.commands.run`` with ``expected_version`` = that state's version: the same rules
  check as a person's action, and a concurrent human append only means a re-read;
- loops while bots owe decisions (several bots owing at once are answered one after the
  other), at most ``COSMIC_BOT_MOVES`` answers per job; past that it enqueues a new job
  and stops, so a game of bots alone never runs in one unbounded job (timers never wait for
  it: they are fired by the clock's own threads, `workers.timekeeper`);
- its own appends do not enqueue more jobs (it is already looping), and after releasing
  the lease it looks once more, so an append that arrived while it held the lease (whose
  job found the lease taken) is never left unanswered.

What a bot knows: `seat_view` is the public board plus the seat's own hand and face-down
card; other hands are lists of ``None`` of the right length (hand sizes are public), and
the deck order and the seed are absent. The random and heuristic players of
`engine.players` choose from that view and from the seat's own prompt (which lists only
that seat's legal options). Only when 25 attempts found no legal answer does the job fall
back to the decision's default, the same one a decision timer applies when time runs out.

Pace: ``cosmic worker`` runs these jobs without forking (`workers.scheduler.ServiceWorker`), so
a move costs what an HTTP action costs: the game's state stays cached in the worker between
moves and jobs, and the lease is renewed only when a third of its time has gone.
"""

from __future__ import annotations

import logging
import random
import threading
import time

import engine
from engine import flow
from engine.errors import EngineError, EngineStuck
from engine.levels import LEVELS
from engine.players import random_command
from engine.state import main_player
from projections import views
from projections.errors import VersionConflict
from workers import metrics
from workers.clock import now_ms
from workers.leases import Lease, look_again_later
from workers.outage import again_after_outage
from workers.process import current
from workers.talk import is_talk

log = logging.getLogger(__name__)

ATTEMPTS = 25             # random picks tried before the decision's default
LEASE_MS = 30_000         # a bot job's hold on a game (renewed at every move)
QUEUE = "default"

_acting = threading.local()  # games whose bots this thread is playing right now


# --- what bots owe and what they may know ----------------------------------------------------

def bot_seats(state: dict) -> dict[str, str]:
    """The game's bot seats and their levels (``{colour: level}``): seats joined as bots and seats handed over."""
    return {color: seat["bot"] for color, seat in (state.get("players") or {}).items() if seat.get("bot")}


def owed_by_bots(state: dict) -> list[dict]:
    """The decisions bot seats owe now (several when bots owe at the same time)."""
    if state.get("status") != "playing":
        return []
    seats = bot_seats(state)
    if not seats:
        return []
    return [prompt for prompt in engine.prompts(state) if prompt["player"] in seats]


def seat_view(state: dict, color: str) -> dict:
    """What one seat may know of a game: the public board, its own hand and face-down card.

    Other seats' hands and face-down cards are ``None`` placeholders (their sizes are
    public); the deck's order, the cards set aside, the seed and the agenda are left out.
    A read-only value that shares parts with ``state``.
    """
    view = {name: state[name] for name in views.GAME_FIELDS + views.TABLE_FIELDS if name in state}
    view["v"] = state["v"]
    view["ch"] = state.get("ch")
    view["players"] = {c: {"name": seat.get("name"), "bot": seat.get("bot"), "powers": list(seat.get("powers") or []),
                           "hand": list(seat.get("hand") or []) if c == color else [None] * len(seat.get("hand") or [])}
                       for c, seat in (state.get("players") or {}).items()}
    committed = state.get("committed") or {}
    view["committed"] = {side: list(cards) if main_player(state, side) == color else [None] * len(cards)
                         for side, cards in committed.items()}
    return view


def choose(state: dict, prompt: dict, level: str, rng) -> dict:
    """A command answering ``prompt`` as a bot of ``level`` would, from the seat's view only."""
    chooser = LEVELS.get(level, random_command)
    return chooser(seat_view(state, prompt["player"]), prompt, rng)


# --- after every append ----------------------------------------------------------------------

def listener(runtime):
    """A `CommandRunner` listener: enqueue `play_bots` when a bot owes a decision."""
    def on_append(game_id: str, before: dict, after: dict, events: list) -> None:
        if game_id in _playing() or is_talk(events) or not bot_seats(after) or not owed_by_bots(after):
            return
        runtime.enqueue(play_bots, game_id, after["v"], queue=QUEUE)
    return on_append


def _playing() -> set:
    if not hasattr(_acting, "games"):
        _acting.games = set()
    return _acting.games


# --- the job ---------------------------------------------------------------------------------

@again_after_outage(QUEUE)
def play_bots(game_id: str, version: int | None = None) -> dict:
    """Answer every decision the game's bots owe (see the module docstring); returns what it did."""
    runtime = current()
    lease = Lease(runtime.redis, runtime.store.game_key(game_id, "bots:lease"), LEASE_MS)
    if not lease.acquire():
        look_again_later(runtime, lease, runtime.store.game_key(game_id, "bots:later"), play_bots, game_id, None,
                         queue=QUEUE)
        return {"game_id": game_id, "moves": 0, "stopped": "busy"}
    _playing().add(game_id)
    try:
        moves, stopped = _play(runtime, game_id, lease)
    finally:
        _playing().discard(game_id)
        lease.release()
    if stopped == "idle" and owed_by_bots(runtime.repository.current(game_id)):
        runtime.enqueue(play_bots, game_id, None, queue=QUEUE)  # an append arrived while we held the lease
        stopped = "handed-over"
    return {"game_id": game_id, "moves": moves, "stopped": stopped}


def _play(runtime, game_id: str, lease: Lease) -> tuple[int, str]:
    """Answer bot decisions until none is owed, the move budget is spent, or no answer is found.

    After its own move the job goes on from the state its append made, without reading the game
    again: had anyone else appended meanwhile, its next append would meet a conflict and read.
    """
    moves = 0
    renewed = time.monotonic()
    state = None
    while True:
        state = state or runtime.repository.current(game_id)
        owed = owed_by_bots(state)
        if not owed:
            return moves, "idle"
        if moves >= runtime.settings.bot_moves:
            runtime.enqueue(play_bots, game_id, state["v"], queue=QUEUE)
            return moves, "handed-over"
        if time.monotonic() - renewed > LEASE_MS / 3000:  # (within a third of its time the lease is surely ours)
            if not lease.extend():
                return moves, "lease-lost"
            renewed = time.monotonic()
        started = time.perf_counter()
        result, state = answer(runtime, game_id, state, owed[0])
        if result == "stuck":
            return moves, "stuck"
        metrics.BOT_MOVES.inc()
        metrics.BOT_MOVE_SECONDS.observe(time.perf_counter() - started)
        moves += 1
        time.sleep(0)  # a moment for the other threads (greenlets, under gevent) between moves


def answer(runtime, game_id: str, state: dict, prompt: dict) -> tuple[str, dict | None]:
    """Submit one bot's answer to ``prompt``: (``"moved"``, the state after it), (``"moved-on"``, None) when
    the game changed first, or (``"stuck"``, None)."""
    level = state["players"][prompt["player"]].get("bot") or "random"
    rng = random.Random(f"{game_id}:{state['v']}:{prompt['id']}")
    last_error = None
    for _ in range(ATTEMPTS):
        command = choose(state, prompt, level, rng)
        result, after, last_error = _submit(runtime, game_id, state, command)
        if result is not None:
            return result, after
    fallback = flow.default_command(state, prompt, rng)
    if fallback is not None:
        result, after, last_error = _submit(runtime, game_id, state, fallback)
        if result is not None:
            return result, after
    log.error("bot %s found no legal answer to %s in game %s at version %s: %s",
              prompt["player"], prompt["id"], game_id, state["v"], last_error)
    return "stuck", None


def _submit(runtime, game_id: str, state: dict, command: dict) -> tuple[str | None, dict | None, Exception | None]:
    """Run one command as of ``state``; (result, state after, None), or (None, None, error) when the rules
    refused it."""
    command["at"] = now_ms()
    try:
        outcome = runtime.commands.run(game_id, command, expected_version=state["v"], state=state)
    except VersionConflict:
        return "moved-on", None, None
    except EngineStuck:
        raise
    except EngineError as error:
        return None, None, error
    return "moved", outcome.state, None


def sweep_runtime(runtime, game_ids) -> dict:
    """Enqueue `play_bots` for each of ``game_ids`` whose bots owe a decision; returns counts.

    After-append jobs are lost with an in-process Redis (the embedded mode's restart, or a
    ``cosmic rewind`` run on its data folder): `workers.sweep` runs this with the timers' sweep.
    """
    counts = {"games": 0, "enqueued": 0}
    for game_id in game_ids:
        counts["games"] += 1
        try:
            if owed_by_bots(runtime.repository.current(game_id)):
                runtime.enqueue(play_bots, game_id, None, queue=QUEUE)
                counts["enqueued"] += 1
        except Exception:  # one broken game must not keep the others' bots waiting
            log.exception("bot sweep: game %s skipped", game_id)
            counts["failed"] = counts.get("failed", 0) + 1
    return counts

