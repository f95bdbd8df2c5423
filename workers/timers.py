"""Decision clocks: every open deadline is a timer in a sorted set, fired by a clock thread when it passes.

The engine states every deadline (the deal window's ``deal_seconds``; every prompt's
``decision_seconds`` when that option is set) and keeps the open ones in ``state["clock"]``
(prompt id -> deadline in ms). This module turns them into timers:

- `on_append` (a `CommandRunner` listener) schedules a timer for every deadline an append
  opened: one member ``[game, prompt, deadline]`` of the sorted set ``<prefix>:timers:due``,
  scored with the deadline in ms, and takes out of it the timers of the deadlines the append
  closed (a decision answered in time needs no timer), both in one call. The set lives on RQ's
  Redis (``RQ_REDIS_URL``; the game data's Redis when it is a plain one): never on a Redis
  Cluster, so a master that fails takes no other game's timers with it. The same deadline is
  never scheduled twice (`schedule`).
- The clock (`workers.timekeeper`, a thread of every ``cosmic worker`` and of ``cosmic serve``'s
  embedded worker) sleeps until the earliest deadline (at most a tenth of a second between
  looks), then `claim`s the due timers: an atomic move from ``due`` to ``<prefix>:timers:firing``
  (scored with the claim's expiry), so two clocks never fire one timer at once. It fires each
  (`fire_claimed`) on threads of its own, never behind a bot or webhook job, and `finish`es it.
  A clock that dies mid-fire leaves its claim to expire (`CLAIM_MS`); any clock then fires the
  timer again.
- Firing is `expire`: it reads the game's current state and does nothing when the decision is
  no longer owed, its deadline changed or the game is over (a *stale* timer). Otherwise it sends
  the engine's ``timeout`` command (actor ``timer``: the default answer, or the deal's failure)
  stamped with the wall clock (never before the deadline) and ``expected_version`` = the version
  it just read, so a concurrent duplicate loses the optimistic append and finds the decision
  closed. Correctness never depends on the timer being fired once: a second run is a no-op.
- Timers live in Redis, so they survive worker restarts: deadlines that passed while no worker
  ran are due the moment a clock starts. `sweep_runtime` schedules again every deadline of every
  game being played that has no timer (after a lost enqueue, or the embedded mode's restart,
  whose Redis lives in the process); workers run it at start and every ten minutes
  (`workers.sweep`), ``cosmic timers --sweep`` by hand.

`fire` is also an RQ job (the ``high`` queue): timers scheduled as RQ jobs by earlier versions
of the service still run, and do what the clock would.

Every function returns a small JSON-able report, so a run says what it did.
"""

from __future__ import annotations

import json
import logging
import time

import engine
from engine.errors import EngineError
from projections.errors import VersionConflict
from workers.clock import now_ms as wall_ms  # the timers' clock: the one the API stamps commands with
from workers.outage import STORAGE_ERRORS, again_after_outage

log = logging.getLogger(__name__)

QUEUE = "high"              # the RQ queue of `fire` jobs made by earlier versions
EARLY_WAIT_MS = 3000        # a timer this early (clock skew between hosts) waits; earlier ones go back in the set
ATTEMPTS = 5                # re-reads after losing the append to an unrelated command
CLAIM_MS = 30_000           # a claimed timer not finished by then is due again (its clock died)
BUSY_RETRY_MS = 100         # a timer that kept losing to a busy game's other commands tries again this soon
OUTAGE_RETRY_MS = 2000      # ... and one whose game could not be reached (a cluster master down) after this,
LONGEST_OUTAGE_RETRY_MS = 10_000  # or half its lateness, up to this (a long outage costs the clock little)

# A timer is scheduled unless it waits already, in either set.
SCHEDULE_SCRIPT = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
"""

# After an append: KEYS[1..2] as above; ARGV[1] = how many timers it opened, then each one's member and
# deadline, then the members of the timers of the deadlines it closed (those not being fired are dropped).
UPDATE_SCRIPT = """
local opened = tonumber(ARGV[1])
for i = 0, opened - 1 do
    local member, deadline = ARGV[2 + 2 * i], ARGV[3 + 2 * i]
    if not (redis.call('ZSCORE', KEYS[1], member) or redis.call('ZSCORE', KEYS[2], member)) then
        redis.call('ZADD', KEYS[1], deadline, member)
    end
end
for i = 2 + 2 * opened, #ARGV do
    redis.call('ZREM', KEYS[1], ARGV[i])
end
return opened
"""

# Claims whose clock died are due again; then up to ARGV[3] due timers move to `firing` until ARGV[2].
# Returns the claimed members and the score of the earliest timer left ('' when none).
CLAIM_SCRIPT = """
local lost = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, member in ipairs(lost) do
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZADD', KEYS[1], ARGV[1], member)
end
local due = {}
if tonumber(ARGV[3]) > 0 then
    due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
    for _, member in ipairs(due) do
        redis.call('ZREM', KEYS[1], member)
        redis.call('ZADD', KEYS[2], ARGV[2], member)
    end
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {due, first[2] or ''}
"""


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


def closed(before: dict, after: dict) -> dict[str, int]:
    """Deadlines open before a change that are not open (with that deadline) after it."""
    return newly_opened(after, before)


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


# The schedule ------------------------------------------------------------------------------------

def due_key(prefix: str) -> str:
    """The sorted set of the timers waiting for their deadline (score: when to fire, ms)."""
    return f"{prefix}:timers:due"


def firing_key(prefix: str) -> str:
    """The sorted set of the timers a clock is firing (score: when its claim expires, ms)."""
    return f"{prefix}:timers:firing"


def member(game_id: str, prompt_id: str, deadline: int) -> str:
    """The one name of the timer of (game, prompt, deadline) in the sets."""
    return json.dumps([game_id, prompt_id, int(deadline)], separators=(",", ":"))


def parse_member(raw) -> tuple[str, str, int]:
    """(game id, prompt id, deadline) of a member."""
    game_id, prompt_id, deadline = json.loads(raw)
    return game_id, prompt_id, int(deadline)


def _keys(runtime) -> list[str]:
    return [due_key(runtime.settings.prefix), firing_key(runtime.settings.prefix)]


def schedule(runtime, game_id: str, prompt_id: str, deadline: int) -> str:
    """Schedule the timer of one deadline: ``scheduled``, or ``pending`` when it waits or is being fired."""
    added = runtime.rq_redis.eval(SCHEDULE_SCRIPT, 2, *_keys(runtime), member(game_id, prompt_id, deadline),
                                  int(deadline))
    return "scheduled" if added else "pending"


def schedule_at(runtime, game_id: str, prompt_id: str, deadline: int, at_ms: int) -> None:
    """Make the timer of a deadline due at ``at_ms`` (again: after an early or busy run, an outage)."""
    runtime.rq_redis.zadd(due_key(runtime.settings.prefix), {member(game_id, prompt_id, deadline): int(at_ms)})


def claim(runtime, now: int | None = None, limit: int = 100) -> tuple[list[str], int | None]:
    """Claim up to ``limit`` due timers for this clock; returns them and the earliest deadline left (ms)."""
    now = wall_ms() if now is None else now
    claimed, first = runtime.rq_redis.eval(CLAIM_SCRIPT, 2, *_keys(runtime), now, now + CLAIM_MS, int(limit))
    first = first.decode() if isinstance(first, bytes) else first
    return [m.decode() if isinstance(m, bytes) else m for m in claimed], (int(float(first)) if first else None)


def finish(runtime, claimed: str) -> None:
    """A claimed timer was fired: it leaves the ``firing`` set."""
    runtime.rq_redis.zrem(firing_key(runtime.settings.prefix), claimed)


def fire_claimed(runtime, claimed: str) -> dict:
    """Fire one claimed timer and finish it; a storage outage puts it back, due in `OUTAGE_RETRY_MS`."""
    game_id, prompt_id, deadline = parse_member(claimed)
    try:
        report = expire(runtime, game_id, prompt_id, deadline)
    except STORAGE_ERRORS as err:  # the game's data cannot be reached (a cluster master down): later
        now = wall_ms()
        wait = min(LONGEST_OUTAGE_RETRY_MS, max(OUTAGE_RETRY_MS, (now - deadline) // 2))
        log.warning("timer %s %s: the game data is unreachable (%s); again in %s ms", game_id, prompt_id, err, wait)
        schedule_at(runtime, game_id, prompt_id, deadline, now + wait)
        report = {"game": game_id, "prompt": prompt_id, "deadline": deadline, "result": "storage-unavailable",
                  "retry_in_ms": wait}
    finish(runtime, claimed)
    return report


def fire_due(runtime, now: int | None = None) -> list[dict]:
    """Claim and fire every due timer here and now (tests, `cosmic timers --fire`); their reports."""
    reports = []
    while True:
        claimed, _ = claim(runtime, now)
        if not claimed:
            return reports
        reports += [fire_claimed(runtime, one) for one in claimed]


def on_append(runtime):
    """A `CommandRunner` listener scheduling a timer for each deadline an append opened and dropping the
    timers of the deadlines it closed, in one round trip (none when it did neither)."""
    def update(game_id: str, before: dict, after: dict, events: list) -> None:
        opened = sorted(newly_opened(before, after).items())
        gone = sorted(closed(before, after).items())
        if not opened and not gone:
            return
        args = [len(opened)]
        for prompt_id, deadline in opened:
            args += [member(game_id, prompt_id, deadline), int(deadline)]
        args += [member(game_id, prompt_id, deadline) for prompt_id, deadline in gone]
        runtime.rq_redis.eval(UPDATE_SCRIPT, 2, *_keys(runtime), *args)
    return update


# Firing --------------------------------------------------------------------------------------------

@again_after_outage(QUEUE)
def fire(game_id: str, prompt_id: str, deadline: int, version: int | None = None) -> dict:
    """The RQ job of earlier versions' timers: `expire` on this process's runtime."""
    from workers.process import current
    return expire(current(), game_id, prompt_id, deadline, version)


def expire(runtime, game_id: str, prompt_id: str, deadline: int, version: int | None = None,
           now: int | None = None) -> dict:
    """Apply the default of ``prompt_id`` if its ``deadline`` passed and it is still owed (see the module doc).

    ``now`` (ms) fixes the clock (tests); by default each attempt is stamped with the wall clock.
    An applied report has ``late_ms``: from the deadline to the moment the default was appended.
    """
    report = {"game": game_id, "prompt": prompt_id, "deadline": deadline, "set_at_version": version}
    start = wall_ms() if now is None else now
    if start < deadline:
        if deadline - start > EARLY_WAIT_MS:
            schedule_at(runtime, game_id, prompt_id, deadline, deadline)
            return {**report, "result": "early", "detail": f"{deadline - start} ms early; due again at its deadline"}
        time.sleep((deadline - start) / 1000)
    conflicts = 0
    for _ in range(ATTEMPTS):
        state = runtime.repository.current(game_id)
        reason = stale_reason(state, prompt_id, deadline)
        if reason is not None:
            result = "already applied" if conflicts and _timed_out(runtime, game_id, prompt_id) else "stale"
            return {**report, "result": result, "detail": reason, "version": state["v"]}
        at = max(deadline, wall_ms() if now is None else now)
        command = {"action": "timeout", "prompt": prompt_id, "at": at}
        try:
            outcome = runtime.commands.run(game_id, command, expected_version=state["v"], state=state)
        except VersionConflict:
            conflicts += 1  # someone else appended first: read again (a duplicate then finds it stale)
            continue
        except EngineError as refused:
            return {**report, "result": "refused", "detail": str(refused), "version": state["v"]}
        late_ms = (wall_ms() if now is None else at) - deadline
        log.info("timer: %s %s expired at %s, %s ms after its deadline (version %s)", game_id, prompt_id, at,
                 late_ms, outcome.version)
        return {**report, "result": "applied", "version": outcome.version, "late_ms": late_ms,
                "events": [event["type"] for event in outcome.events]}
    schedule_at(runtime, game_id, prompt_id, deadline, wall_ms() + BUSY_RETRY_MS)  # a busy game: again soon
    return {**report, "result": "busy", "detail": f"{conflicts} conflicting appends in a row; due again shortly"}


def _timed_out(runtime, game_id: str, prompt_id: str, look_back: int = 200) -> bool:
    """Whether a recent event of the game is this decision's timeout (another run applied it)."""
    head = runtime.store.version(game_id)
    recent = runtime.store.read(game_id, after=max(0, head - look_back))
    return any(e["type"] == "DecisionTimedOut" and e["payload"].get("prompt") == prompt_id for e in recent)


# Recovery ----------------------------------------------------------------------------------------

def sweep_runtime(runtime, game_ids) -> dict:
    """Schedule every open deadline of ``game_ids`` that has no timer; returns counts by outcome."""
    counts = {"games": 0, "scheduled": 0, "pending": 0}
    for game_id in game_ids:
        counts["games"] += 1
        try:
            state = runtime.repository.current(game_id)
            for prompt_id, deadline in sorted(open_deadlines(state).items()):
                counts[schedule(runtime, game_id, prompt_id, deadline)] += 1
        except Exception:  # one broken game must not keep the others' timers from being scheduled
            log.exception("timer sweep: game %s skipped", game_id)
            counts["failed"] = counts.get("failed", 0) + 1
    return counts


# Inspection ----------------------------------------------------------------------------------------

def pending(runtime) -> int:
    """How many timers wait for their deadline or are being fired."""
    pipe = runtime.rq_redis.pipeline(transaction=False)
    for key in _keys(runtime):
        pipe.zcard(key)
    return sum(pipe.execute())


def describe(runtime, game_id: str, now: int | None = None) -> list[dict]:
    """The game's open deadlines and the state of each one's timer (for ``cosmic timers GAME_ID``)."""
    now = wall_ms() if now is None else now
    state = runtime.repository.current(game_id)
    owed = {p["id"]: p for p in engine.prompts(state)}
    due, firing = _keys(runtime)
    rows = []
    for prompt_id, deadline in sorted(open_deadlines(state).items(), key=lambda item: (item[1], item[0])):
        name = member(game_id, prompt_id, deadline)
        pipe = runtime.rq_redis.pipeline(transaction=False)
        pipe.zscore(due, name)
        pipe.zscore(firing, name)
        due_at, claimed = pipe.execute()
        status = "firing" if claimed is not None else ("scheduled" if due_at is not None else "missing")
        prompt = owed.get(prompt_id, {})
        rows.append({"prompt": prompt_id, "player": prompt.get("player"), "kind": prompt.get("kind"),
                     "deadline": deadline, "in_seconds": round((deadline - now) / 1000, 1), "timer": status,
                     "fires_at": int(due_at) if due_at is not None else None})
    return rows
