"""Decision clocks: one RQ job per deadline, run by the scheduler when the deadline passes.

The engine states every deadline (the deal window's ``deal_seconds``; every prompt's
``decision_seconds`` when that option is set) and keeps the open ones in ``state["clock"]``
(prompt id -> deadline in ms). This module turns them into timers:

- `on_append` (a `CommandRunner` listener) schedules `fire` on the ``high`` queue for every
  deadline an append opened, at the first whole second not before the deadline (RQ's
  scheduler counts in whole seconds, so a timer never runs before its deadline). The job
  carries the game id, the prompt id, the deadline and the version it was set at; its id
  is derived from (game, prompt, deadline) and scheduled with RQ's ``unique``, so the same
  deadline is never scheduled twice.
- `fire` (the job) reads the game's current state and does nothing when the decision is no
  longer owed, its deadline changed or the game is over (a *stale* timer). Otherwise it sends
  the engine's ``timeout`` command (actor ``timer``: the default answer, or the deal's
  failure) with the wall clock as its time and ``expected_version`` = the version it just
  read, so a concurrent duplicate loses the optimistic append and finds the decision closed.
  Correctness never depends on the unique job id: a second run is always a no-op.
- Scheduled jobs live in Redis, so timers survive worker restarts. `sweep` schedules again
  every deadline of every game being played that has no pending timer (after a lost enqueue,
  a restart of the embedded mode, whose Redis lives in the process); workers run it when
  they start and every few minutes, and ``cosmic timers --sweep`` runs it by hand.

Every function returns a small JSON-able report, so a job's result says what it did.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from datetime import UTC, datetime

import engine
from engine.errors import EngineError
from projections.errors import VersionConflict
from workers.clock import now_ms as wall_ms  # the timers' clock: the one the API stamps commands with
from workers.outage import again_after_outage
from workers.queues import fetch_job, safe_id, status_of
from workers.queues import job_id as fresh_job_id

log = logging.getLogger(__name__)

QUEUE = "high"
EARLY_WAIT_MS = 3000        # a timer this early (clock skew between hosts) waits; earlier ones re-schedule
ATTEMPTS = 5                # re-reads after losing the append to an unrelated command
RESULT_TTL = 3600           # seconds a timer's result is kept (shown by ``cosmic timers GAME_ID``)
PENDING = ("scheduled", "queued", "started", "deferred")


# Which deadlines are open -----------------------------------------------------------------------

def open_deadlines(state: dict) -> dict[str, int]:
    """The game's open decisions that have a deadline: prompt id -> deadline (ms)."""
    if not state or state.get("status") != "playing":
        return {}
    return {pid: deadline for pid, deadline in (state.get("clock") or {}).items() if deadline is not None}


def newly_opened(before: dict, after: dict) -> dict[str, int]:
    """Deadlines open after a change that were not open (with that deadline) before it."""
    earlier = open_deadlines(before)
    return {pid: deadline for pid, deadline in open_deadlines(after).items() if earlier.get(pid) != deadline}


def stale_reason(state: dict, prompt_id: str, deadline: int) -> str | None:
    """Why a timer set for (prompt, deadline) must do nothing now; None when it is due to apply."""
    if state.get("status") != "playing":
        return f"the game is {state.get('status')}"
    clock = state.get("clock") or {}
    if prompt_id not in clock:
        return "the decision is no longer owed"
    if clock[prompt_id] != deadline:
        return f"the decision's deadline is now {clock[prompt_id]}, not {deadline}"
    if prompt_id not in {p["id"] for p in engine.prompts(state)}:
        return "the decision is no longer owed"
    return None


# Scheduling ----------------------------------------------------------------------------------------

def timer_job_id(prefix: str, game_id: str, prompt_id: str, deadline: int) -> str:
    """The one job id of the timer of (game, prompt, deadline) (RQ allows [A-Za-z0-9_-])."""
    digest = hashlib.sha256(f"{game_id}\n{prompt_id}\n{deadline}".encode()).hexdigest()[:16]
    return safe_id(f"{prefix}-timer-{game_id[:64]}-{digest}")


def run_at(deadline: int) -> datetime:
    """When the scheduler should run a timer: the first whole second not before the deadline."""
    return datetime.fromtimestamp(math.ceil(deadline / 1000), tz=UTC)


def schedule(runtime, game_id: str, prompt_id: str, deadline: int, version: int) -> str:
    """Schedule the timer of one deadline; returns ``scheduled``, or ``pending`` if it already is.

    A timer of the same deadline that already ran (kept for its result) but left the decision
    owed (it failed, or was early) is replaced by a fresh one: ``rescheduled``.
    """
    from rq.exceptions import DuplicateJobError

    queue = runtime.queue(QUEUE)
    jid = timer_job_id(runtime.settings.prefix, game_id, prompt_id, deadline)
    try:
        queue.enqueue_at(run_at(deadline), fire, game_id, prompt_id, deadline, version, job_id=jid,
                         unique=True, result_ttl=RESULT_TTL, description=f"timer {game_id} {prompt_id}")
        return "scheduled"
    except DuplicateJobError:
        pass
    if status_of(fetch_job(runtime.rq_redis, jid)) in PENDING:
        return "pending"
    schedule_again(runtime, game_id, prompt_id, deadline, version)
    return "rescheduled"


def schedule_again(runtime, game_id: str, prompt_id: str, deadline: int, version: int) -> None:
    """Another timer for a deadline whose own timer already ran (a fresh job id, not unique).

    It runs at the deadline, or a second from now if the deadline has passed.
    """
    when = run_at(max(deadline, wall_ms() + 1000))
    runtime.queue(QUEUE).enqueue_at(when, fire, game_id, prompt_id, deadline, version,
                                    job_id=fresh_job_id(runtime.settings.prefix, "timer-again"),
                                    result_ttl=RESULT_TTL, description=f"timer {game_id} {prompt_id} (again)")


def on_append(runtime):
    """A `CommandRunner` listener scheduling a timer for each deadline an append opened."""
    def schedule_opened(game_id: str, before: dict, after: dict, events: list) -> None:
        for prompt_id, deadline in sorted(newly_opened(before, after).items()):
            schedule(runtime, game_id, prompt_id, deadline, after["v"])
    return schedule_opened


# The job -----------------------------------------------------------------------------------------

@again_after_outage(QUEUE)
def fire(game_id: str, prompt_id: str, deadline: int, version: int) -> dict:
    """The timer job: apply the default of ``prompt_id`` if its ``deadline`` passed and it is still owed."""
    from workers.runtime import current
    return expire(current(), game_id, prompt_id, deadline, version)


def expire(runtime, game_id: str, prompt_id: str, deadline: int, version: int | None = None,
           now: int | None = None) -> dict:
    """What `fire` does, with the clock as a parameter (``now`` ms; default: the wall clock)."""
    report = {"game": game_id, "prompt": prompt_id, "deadline": deadline, "set_at_version": version}
    now = wall_ms() if now is None else now
    if now < deadline:
        if deadline - now > EARLY_WAIT_MS:
            schedule_again(runtime, game_id, prompt_id, deadline, version or 0)
            return {**report, "result": "early", "detail": f"{deadline - now} ms early; scheduled again"}
        time.sleep((deadline - now) / 1000)
        now = max(wall_ms(), deadline)
    conflicts = 0
    for _ in range(ATTEMPTS):
        state = runtime.repository.current(game_id)
        reason = stale_reason(state, prompt_id, deadline)
        if reason is not None:
            result = "already applied" if conflicts and _timed_out(runtime, game_id, prompt_id) else "stale"
            return {**report, "result": result, "detail": reason, "version": state["v"]}
        command = {"action": "timeout", "prompt": prompt_id, "at": now}
        try:
            outcome = runtime.commands.run(game_id, command, expected_version=state["v"], state=state)
        except VersionConflict:
            conflicts += 1  # someone else appended first: read again (a duplicate then finds it stale)
            continue
        except EngineError as refused:
            return {**report, "result": "refused", "detail": str(refused), "version": state["v"]}
        log.info("timer: %s %s expired at %s (version %s)", game_id, prompt_id, now, outcome.version)
        return {**report, "result": "applied", "version": outcome.version,
                "events": [event["type"] for event in outcome.events]}
    schedule_again(runtime, game_id, prompt_id, deadline, version or 0)  # a busy game: try again in a second
    return {**report, "result": "busy", "detail": f"{conflicts} conflicting appends in a row; scheduled again"}


def _timed_out(runtime, game_id: str, prompt_id: str, look_back: int = 200) -> bool:
    """Whether a recent event of the game is this decision's timeout (another run applied it)."""
    head = runtime.store.version(game_id)
    recent = runtime.store.read(game_id, after=max(0, head - look_back))
    return any(e["type"] == "DecisionTimedOut" and e["payload"].get("prompt") == prompt_id for e in recent)


# Recovery ----------------------------------------------------------------------------------------

def playing_games(runtime, batch: int = 500):
    """Every game the index lists as being played."""
    key = runtime.index.status_key("playing")
    for member, _score in runtime.redis.zscan_iter(key, count=batch):
        yield member.decode("utf-8") if isinstance(member, bytes) else member


def sweep(game_ids=None) -> dict:
    """The periodic safety-net job: schedule every open deadline that lacks a timer, and queue
    a bot job for every game whose bots owe a decision (after-append jobs lost to a crash)."""
    from workers import bots
    from workers.runtime import current
    runtime = current()
    counts = sweep_runtime(runtime, game_ids)
    counts["bots"] = bots.sweep_runtime(runtime, game_ids)
    return counts


def sweep_runtime(runtime, game_ids=None) -> dict:
    """`sweep` on a given runtime; returns counts by outcome (``scheduled``, ``pending``, ...)."""
    counts = {"games": 0, "scheduled": 0, "pending": 0, "rescheduled": 0}
    for game_id in (game_ids if game_ids is not None else playing_games(runtime)):
        counts["games"] += 1
        try:
            state = runtime.repository.current(game_id)
            for prompt_id, deadline in sorted(open_deadlines(state).items()):
                counts[schedule(runtime, game_id, prompt_id, deadline, state["v"])] += 1
        except Exception:  # one broken game must not keep the others' timers from being scheduled
            log.exception("timer sweep: game %s skipped", game_id)
            counts["failed"] = counts.get("failed", 0) + 1
    return counts


def enqueue_sweep(runtime) -> str:
    """Queue one sweep (on ``low``) unless one is already waiting; returns ``queued`` or ``pending``."""
    from rq.exceptions import DuplicateJobError

    jid = safe_id(f"{runtime.settings.prefix}-timers-sweep")
    try:
        runtime.queue("low").enqueue(sweep, job_id=jid, unique=True, result_ttl=0, description="timer sweep")
        return "queued"
    except DuplicateJobError:
        return "pending"


# Inspection ----------------------------------------------------------------------------------------

def describe(runtime, game_id: str, now: int | None = None) -> list[dict]:
    """The game's open deadlines and the state of each one's timer job (for ``cosmic timers GAME_ID``)."""
    now = wall_ms() if now is None else now
    state = runtime.repository.current(game_id)
    owed = {p["id"]: p for p in engine.prompts(state)}
    rows = []
    for prompt_id, deadline in sorted(open_deadlines(state).items(), key=lambda item: (item[1], item[0])):
        jid = timer_job_id(runtime.settings.prefix, game_id, prompt_id, deadline)
        job = fetch_job(runtime.rq_redis, jid)
        prompt = owed.get(prompt_id, {})
        rows.append({"prompt": prompt_id, "player": prompt.get("player"), "kind": prompt.get("kind"),
                     "deadline": deadline, "in_seconds": round((deadline - now) / 1000, 1),
                     "job": jid, "job_status": status_of(job) or "missing"})
    return rows
