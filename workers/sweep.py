"""The safety net of after-append work (design note 5): timers and bot turns that a crash lost.

Timers, bot jobs and webhook deliveries are made by listeners after an append; a crash between
the append and that step, or the embedded mode's restart (its Redis lives in the process), loses
them. `sweep` looks at every game being played: it schedules each open deadline that has no
timer (`workers.timers.sweep_runtime`) and queues a bot job where a bot seat owes a decision
(`workers.bots.sweep_runtime`). ``cosmic worker`` queues it when it starts and every ten minutes
(`enqueue_sweep`, on ``low``); the embedded worker runs it when ``cosmic serve`` starts.
"""

from __future__ import annotations

from workers import bots, timers
from workers.process import current
from workers.queues import safe_id


def playing_games(runtime, batch: int = 500):
    """Every game the index lists as being played."""
    key = runtime.index.status_key("playing")
    for member, _score in runtime.redis.zscan_iter(key, count=batch):
        yield member.decode("utf-8") if isinstance(member, bytes) else member


def sweep_runtime(runtime, game_ids=None) -> dict:
    """`sweep` on a given runtime (``game_ids``: only these games); the timers' counts and the bots'."""
    game_ids = list(game_ids if game_ids is not None else playing_games(runtime))
    counts = timers.sweep_runtime(runtime, game_ids)
    counts["bots"] = bots.sweep_runtime(runtime, game_ids)
    return counts


def sweep(game_ids=None) -> dict:
    """The periodic job: schedule the missing timers and wake the bots that owe a decision."""
    return sweep_runtime(current(), game_ids)


def enqueue_sweep(runtime) -> str:
    """Queue one sweep (on ``low``) unless one is already waiting; returns ``queued`` or ``pending``."""
    from rq.exceptions import DuplicateJobError

    jid = safe_id(f"{runtime.settings.prefix}-timers-sweep")
    try:
        runtime.queue("low").enqueue(sweep, job_id=jid, unique=True, result_ttl=0, description="timer and bot sweep")
        return "queued"
    except DuplicateJobError:
        return "pending"
