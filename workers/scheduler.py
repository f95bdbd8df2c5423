"""Keeping RQ's scheduler running, so timers fire after a worker crashes.

RQ runs one scheduler per queue across all workers: the one holding the queue's lock
(``rq:scheduler-lock:<queue>``, kept alive by its heartbeat every second with a TTL of 61 s).
A worker killed with SIGKILL leaves its lock behind, and a stock RQ worker started next
to it tries the lock again only at its maintenance run (every 10 minutes), so scheduled
jobs (our timers) would wait that long. `ServiceWorker` (what ``cosmic worker`` runs) fixes
both halves:

- `reclaim_stale_locks` deletes a scheduler lock whose holder has not refreshed it for
  `STALE_SECONDS` (its remaining TTL tells when it was last refreshed); the worker does
  this when it starts and every `CHECK_SECONDS` while it has no scheduler of its own, then
  takes the lock and starts its scheduler. Taking over from a scheduler that is only slow
  is harmless: the old one notices at its next heartbeat and stops, and a job moved to its
  queue twice runs twice, which every timer job tolerates (the second run is a no-op).
- It queues a timer sweep (`workers.timers.sweep`) when it starts and every `SWEEP_SECONDS`,
  so a deadline whose timer was never scheduled (an enqueue that failed after its append)
  still expires, and bot seats whose job was lost with a crashed worker play on.
"""

from __future__ import annotations

import logging
import time

from rq import Worker
from rq.scheduler import SCHEDULER_LOCKING_KEY_TEMPLATE

log = logging.getLogger(__name__)

SCHEDULER_INTERVAL = 1      # RQ's scheduler heartbeat (seconds); its lock TTL is this + 60
STALE_SECONDS = 5           # a lock not refreshed for this long belongs to a dead scheduler
CHECK_SECONDS = 5           # how often a worker without a scheduler looks for a stale lock
CLEAN_SECONDS = 600         # how often a worker cleans RQ's registries (RQ's own default)
SWEEP_SECONDS = 600         # how often a worker queues a timer sweep

# Delete the lock only if it is still stale, atomically (a live holder may refresh it meanwhile).
RECLAIM_SCRIPT = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl >= 0 and ttl < tonumber(ARGV[1]) then
    redis.call('DEL', KEYS[1])
    return 1
end
return 0
"""


def lock_key(queue_name: str) -> str:
    """The key of RQ's scheduler lock for a queue."""
    return SCHEDULER_LOCKING_KEY_TEMPLATE % queue_name


def reclaim_stale_locks(connection, queue_names, stale_seconds: float = STALE_SECONDS) -> list[str]:
    """Delete the scheduler locks of ``queue_names`` not refreshed for ``stale_seconds``; returns their queues."""
    fresh_ttl_ms = (SCHEDULER_INTERVAL + 60 - stale_seconds) * 1000
    script = connection.register_script(RECLAIM_SCRIPT)
    reclaimed = [name for name in queue_names if script(keys=[lock_key(name)], args=[int(fresh_ttl_ms)])]
    if reclaimed:
        log.warning("scheduler locks of %s were stale (their scheduler died); reclaimed", ", ".join(reclaimed))
    return reclaimed


class ServiceWorker(Worker):
    """RQ's forking worker that keeps a scheduler running and the timers complete (see the module doc)."""

    def __init__(self, *args, runtime=None, **kwargs):
        kwargs.setdefault("maintenance_interval", CHECK_SECONDS)
        super().__init__(*args, **kwargs)
        self.runtime = runtime
        self._cleaned_at: float | None = None
        self._swept_at: float | None = None

    @property
    def dequeue_timeout(self) -> int:
        """Wake up every `CHECK_SECONDS` while idle, so the maintenance below runs that often."""
        return max(1, min(self.worker_ttl - 15, CHECK_SECONDS))

    def work(self, *args, **kwargs) -> bool:
        """RQ's work loop, after reclaiming a dead scheduler's locks so this worker's scheduler can start."""
        if kwargs.get("with_scheduler"):
            reclaim_stale_locks(self.connection, self.queue_names())
        return super().work(*args, **kwargs)

    def run_maintenance_tasks(self) -> None:
        """Every `CHECK_SECONDS`: restart the scheduler if needed; registries and sweeps less often."""
        if self.last_cleaned_at is not None:  # at the first run, work() has just started the scheduler
            self.keep_scheduler()
        clock = time.monotonic()
        if self._cleaned_at is None or clock - self._cleaned_at >= CLEAN_SECONDS:
            self.clean_registries()
            self.clean_group_registries()
            self._cleaned_at = clock
        if self.runtime is not None and (self._swept_at is None or clock - self._swept_at >= SWEEP_SECONDS):
            from workers.timers import enqueue_sweep
            try:
                enqueue_sweep(self.runtime)
            except Exception:  # a sweep is a safety net: failing to queue one must not stop the worker
                log.exception("could not queue a timer sweep")
            self._swept_at = clock
        self.last_cleaned_at = self._now()

    def keep_scheduler(self) -> None:
        """Start this worker's scheduler if it is not running and the locks are free (or stale)."""
        scheduler = self.scheduler
        if scheduler is None:
            return
        process = scheduler._process
        if process is not None and process.is_alive():
            return
        reclaim_stale_locks(self.connection, self.queue_names())
        scheduler.acquire_locks(auto_start=True)

    @staticmethod
    def _now():
        from rq.utils import now
        return now()
