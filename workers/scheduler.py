"""``cosmic worker``'s job loop, and taking over the scheduler locks of a worker that died.

`ServiceWorker` is RQ's `SimpleWorker`: it runs each job in its own process, one after the
other, instead of forking a child per job. A bot move then costs what an HTTP action costs (no
fork, no fresh process whose game caches are empty), and one worker drives a few hundred moves
a second (``bench/load.py``). Timers are not its business: the worker's clock thread fires them
(`workers.timekeeper`), and moves RQ's scheduled jobs to their queues, so the worker is started
without RQ's forked scheduler. Its maintenance queues a sweep (`workers.sweep`) when it starts
and every `SWEEP_SECONDS`, so a deadline whose timer was never scheduled still expires, and bot
seats whose job was lost with a crashed worker play on.

RQ keeps one scheduler per queue across all workers: the one holding the queue's lock
(``rq:scheduler-lock:<queue>``, refreshed every second with a TTL of 61 s). A worker killed with
SIGKILL leaves its locks behind; `reclaim_stale_locks` deletes a lock whose holder has not
refreshed it for `STALE_SECONDS` (its remaining TTL tells when it was last refreshed), which the
clocks of the other workers do every `CHECK_SECONDS` while they lack a lock. Taking over from a
scheduler that is only slow is harmless: the old one notices at its next refresh and stops, and
a job moved to its queue twice runs twice, which every such job tolerates.
"""

from __future__ import annotations

import logging
import time

from rq import SimpleWorker
from rq.scheduler import SCHEDULER_LOCKING_KEY_TEMPLATE

from workers.sweep import enqueue_sweep

log = logging.getLogger(__name__)

SCHEDULER_INTERVAL = 1      # RQ's scheduler refresh (seconds); its lock TTL is this + 60
STALE_SECONDS = 5           # a lock not refreshed for this long belongs to a dead scheduler
CHECK_SECONDS = 5           # how often a clock without every lock looks for stale ones
CLEAN_SECONDS = 600         # how often a worker cleans RQ's registries (RQ's own default)
SWEEP_SECONDS = 600         # how often a worker queues a sweep

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


class ServiceWorker(SimpleWorker):
    """RQ's non-forking worker, with the service's maintenance (see the module docstring)."""

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

    def run_maintenance_tasks(self) -> None:
        """Clean RQ's registries and queue a sweep, each every ten minutes (and at the start)."""
        clock = time.monotonic()
        if self._cleaned_at is None or clock - self._cleaned_at >= CLEAN_SECONDS:
            self.clean_registries()
            self.clean_group_registries()
            self._cleaned_at = clock
        if self.runtime is not None and (self._swept_at is None or clock - self._swept_at >= SWEEP_SECONDS):
            try:
                enqueue_sweep(self.runtime)
            except Exception:  # a sweep is a safety net: failing to queue one must not stop the worker
                log.exception("could not queue a sweep")
            self._swept_at = clock
        self.last_cleaned_at = self._now()

    @staticmethod
    def _now():
        from rq.utils import now
        return now()
