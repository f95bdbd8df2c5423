"""An RQ worker inside the web process, for the embedded mode (fakeredis lives in this process).

RQ's own worker forks (a child would not see the parent's in-memory Redis) and installs
signal handlers (only the main thread may). `ThreadWorker` is RQ's `SimpleWorker` that does
neither, with thread-based job timeouts; `EmbeddedWorker` runs it in a daemon thread in
short bursts (each burst also moves due scheduled jobs to their queues, as the scheduler
of a real worker does), so it can be stopped between bursts. When it starts it schedules
the timers of every game being played (`workers.timers.sweep_runtime`) and asks the bots
that owe decisions to play (`workers.bots.sweep_runtime`): the in-process Redis starts
empty, so the jobs of the games loaded from the data folder must be made again.
"""

from __future__ import annotations

import logging
import threading

from rq import SimpleWorker
from rq.timeouts import TimerDeathPenalty

from workers import bots
from workers.queues import job_id
from workers.timers import sweep_runtime

log = logging.getLogger(__name__)


class ThreadWorker(SimpleWorker):
    """A SimpleWorker that can run in a thread: no signal handlers, timer-based timeouts."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        """Signals belong to the main thread (the web server's)."""


class EmbeddedWorker:
    """Serves the runtime's queues from a background thread until `stop`."""

    def __init__(self, runtime, interval: float = 0.2, name: str | None = None):
        self.runtime = runtime
        self.interval = interval
        self.name = name or job_id(runtime.settings.prefix, "embedded-worker")
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> EmbeddedWorker:
        """Start serving in a daemon thread."""
        self._thread = threading.Thread(target=self._loop, name="cosmic-embedded-worker", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        worker = ThreadWorker(self.runtime.queues(), connection=self.runtime.redis, name=self.name)
        try:  # the embedded Redis starts empty: schedule the timers of the games loaded from the data folder
            sweep_runtime(self.runtime)
        except Exception:
            log.exception("embedded worker: the timer sweep failed")
        try:  # ... and ask their bots to answer what they owe
            bots.sweep_runtime(self.runtime)
        except Exception:
            log.exception("embedded worker: the bot sweep failed")
        while not self._stop.is_set():
            try:
                worker.work(burst=True, with_scheduler=True, logging_level="WARNING")
            except Exception:  # keep serving: one broken burst must not end the worker
                log.exception("embedded worker: a burst failed")
            self._stop.wait(self.interval)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the current burst."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
