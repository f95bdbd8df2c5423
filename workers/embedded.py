"""The worker inside the web process, for the embedded mode (fakeredis lives in this process).

RQ's own worker forks (a child would not see the parent's in-memory Redis) and installs
signal handlers (only the main thread may). `ThreadWorker` is RQ's `SimpleWorker` that does
neither, with thread-based job timeouts. `EmbeddedWorker` runs two daemon threads:

- the *clock*: the same `workers.timekeeper.Timekeeper` as ``cosmic worker``'s, firing each
  timer on its own thread when its deadline passes (the same precision: a timer is late by what
  firing it takes) and moving RQ's due scheduled jobs (retries) to their queues. It needs no
  Redis lock (only this process uses its Redis) and never forks RQ's scheduler: forked, the
  in-process Redis was a copy, and a 5-second deal timer once fired 53.7 s late (issue 15.7);
- the *jobs* thread: a `ThreadWorker` serving every queue in short bursts (bots, webhooks,
  snapshots), so a slow job (a bot job playing its moves, a webhook target that takes its full
  timeout) never holds a timer back.

When it starts, the clock first schedules the timers of every game being played and asks the
bots that owe decisions to play (`workers.sweep`): the in-process Redis starts empty, so the
jobs of the games loaded from the data folder must be made again.

Under gevent's monkey patching (``cosmic serve`` may serve with gevent) both threads are
greenlets: the clock waits with `threading.Event.wait`, which yields, and a bot job yields
between moves, so the clock keeps its precision as long as no single step hogs the process.
"""

from __future__ import annotations

import logging
import threading

from rq import SimpleWorker
from rq.timeouts import TimerDeathPenalty

from workers.queues import job_id
from workers.timekeeper import Timekeeper

log = logging.getLogger(__name__)


class ThreadWorker(SimpleWorker):
    """A SimpleWorker that can run in a thread: no signal handlers, timer-based timeouts.

    ``before_dequeue`` (if given) runs before every dequeue (tests use it to fire due timers and
    move due jobs in the same burst). It never starts RQ's scheduler.
    """

    death_penalty_class = TimerDeathPenalty

    def __init__(self, *args, before_dequeue=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.before_dequeue = before_dequeue

    def _install_signal_handlers(self):
        """Signals belong to the main thread (the web server's)."""

    def run_maintenance_tasks(self):
        """RQ's periodic cleaning, without its step that forks a scheduler process."""
        self.clean_registries()
        self.clean_group_registries()

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """Run ``before_dequeue``, then take the next job (None when every queue is empty)."""
        if self.before_dequeue is not None:
            self.before_dequeue()
        return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)


class EmbeddedWorker:
    """Serves the runtime's timers and queues from two background threads (clock and jobs) until `stop`."""

    def __init__(self, runtime, interval: float = 0.2, name: str | None = None):
        self.runtime = runtime
        self.interval = interval
        self.name = name or job_id(runtime.settings.prefix, "embedded-worker")
        self.clock = Timekeeper(runtime, threads=0, lock=False, sweep_first=True)
        self.jobs = ThreadWorker(runtime.queues(), connection=runtime.rq_redis, name=f"{self.name}-jobs")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> EmbeddedWorker:
        """Start the clock (which first sweeps the games loaded) and the jobs thread."""
        self.clock.start()
        self._thread = threading.Thread(target=self._serve, daemon=True, name="cosmic-embedded-jobs")
        self._thread.start()
        return self

    def run_once(self) -> bool:
        """One burst: run queued jobs until the queues are empty; True if any ran."""
        try:
            return self.jobs.work(burst=True, logging_level="WARNING")
        except Exception:  # keep serving: one broken burst must not end the worker
            log.exception("embedded worker %s: a burst failed", self.jobs.name)
            return False

    def _serve(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            self._stop.wait(self.interval)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the current burst and timer."""
        self._stop.set()
        self.clock.stop(timeout)
        if self._thread is not None:
            self._thread.join(timeout)
