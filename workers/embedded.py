"""RQ workers inside the web process, for the embedded mode (fakeredis lives in this process).

RQ's own worker forks (a child would not see the parent's in-memory Redis) and installs
signal handlers (only the main thread may). `ThreadWorker` is RQ's `SimpleWorker` that does
neither, with thread-based job timeouts. `EmbeddedWorker` runs two of them in daemon
threads, in short bursts, so they can be stopped between bursts:

- the *clock* thread serves only the timers' queue (``high``), so a slow job (a bot playing
  200 moves, a webhook target that takes its full timeout to answer) never holds a timer back;
- the *jobs* thread serves every queue.

Scheduled jobs (timers, webhook retries) are moved to their queues by `DueJobs` before every
dequeue of either thread, not by RQ's scheduler. RQ's scheduler is built for processes: it
takes a lock in Redis (``rq:scheduler-lock:<queue>``, 61 s TTL) and, at the worker's
maintenance run every 10 minutes, starts itself in a *forked* process. Forked, the in-process
Redis is a copy: the child heartbeats and moves jobs in its copy while the lock it took stays
in ours, held by a scheduler nobody runs, so for up to 61 s no burst could move a due timer
(a 5-second deal timer fired 53.7 s late: issue 15.7). `DueJobs` needs no Redis lock (only
this process uses its Redis; a thread lock keeps the two threads from moving a job twice,
and it dies with the process), and `ThreadWorker` never starts RQ's scheduler. A due timer
therefore waits at most for the clock thread's pause between bursts (`interval`) and for
the timer job running before it; ``bench/timers.py`` measures the lateness.

When it starts, the worker schedules the timers of every game being played
(`workers.timers.sweep_runtime`) and asks the bots that owe decisions to play
(`workers.bots.sweep_runtime`): the in-process Redis starts empty, so the jobs of the games
loaded from the data folder must be made again.
"""

from __future__ import annotations

import logging
import threading

from rq import SimpleWorker
from rq.scheduler import RQScheduler
from rq.timeouts import TimerDeathPenalty

from workers import bots
from workers.queues import job_id
from workers.timers import QUEUE as TIMER_QUEUE
from workers.timers import sweep_runtime

log = logging.getLogger(__name__)


class DueJobs:
    """Moves scheduled jobs whose time has come to their queues, for every queue of a runtime.

    It uses RQ's own mover (`RQScheduler.enqueue_scheduled_jobs`, which keeps RQ's handling
    of rate-limited and missing jobs) without RQ's Redis lock: callers share one `DueJobs`,
    whose thread lock lets one thread move at a time.
    """

    def __init__(self, runtime):
        queues = runtime.queues()
        self._mover = RQScheduler(queues, connection=runtime.rq_redis, logging_level="WARNING")
        self._mover.prepare_registries([queue.name for queue in queues])
        self._lock = threading.Lock()

    def move(self) -> None:
        """Move every due scheduled job to its queue now."""
        with self._lock:
            self._mover.enqueue_scheduled_jobs()


class ThreadWorker(SimpleWorker):
    """A SimpleWorker that can run in a thread: no signal handlers, timer-based timeouts.

    With ``due_jobs`` it moves the due scheduled jobs to their queues before every dequeue,
    so a burst that runs many jobs still picks up a timer that came due meanwhile. It never
    starts RQ's scheduler (see the module docstring).
    """

    death_penalty_class = TimerDeathPenalty

    def __init__(self, *args, due_jobs: DueJobs | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.due_jobs = due_jobs

    def _install_signal_handlers(self):
        """Signals belong to the main thread (the web server's)."""

    def run_maintenance_tasks(self):
        """RQ's periodic cleaning, without its step that forks a scheduler process."""
        self.clean_registries()
        self.clean_group_registries()

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """Move the due scheduled jobs first, then take the next job (None when every queue is empty)."""
        if self.due_jobs is not None:
            self.due_jobs.move()
        return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)


class EmbeddedWorker:
    """Serves the runtime's queues from two background threads (clock and jobs) until `stop`."""

    def __init__(self, runtime, interval: float = 0.2, name: str | None = None):
        self.runtime = runtime
        self.interval = interval
        self.name = name or job_id(runtime.settings.prefix, "embedded-worker")
        self.due_jobs = DueJobs(runtime)
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.clock = self._worker([runtime.queue(TIMER_QUEUE)], "clock")
        self.jobs = self._worker(runtime.queues(), "jobs")

    def _worker(self, queues, role: str) -> ThreadWorker:
        return ThreadWorker(queues, connection=self.runtime.rq_redis, name=f"{self.name}-{role}", due_jobs=self.due_jobs)

    def start(self) -> EmbeddedWorker:
        """Recreate the timers and bot jobs of the games loaded, then serve in two daemon threads."""
        self._threads = [threading.Thread(target=self._serve, args=(self.clock, True), daemon=True,
                                          name="cosmic-embedded-clock"),
                         threading.Thread(target=self._serve, args=(self.jobs, False), daemon=True,
                                          name="cosmic-embedded-jobs")]
        for thread in self._threads:
            thread.start()
        return self

    def sweep(self) -> None:
        """Schedule the timers of every game being played and wake the bots that owe a decision."""
        try:  # the embedded Redis starts empty: schedule the timers of the games loaded from the data folder
            sweep_runtime(self.runtime)
        except Exception:
            log.exception("embedded worker: the timer sweep failed")
        try:  # ... and ask their bots to answer what they owe
            bots.sweep_runtime(self.runtime)
        except Exception:
            log.exception("embedded worker: the bot sweep failed")

    def run_once(self, worker: ThreadWorker | None = None) -> bool:
        """One burst: move the due jobs and run queued jobs until the queues are empty; True if any ran."""
        worker = worker or self.jobs
        try:
            return worker.work(burst=True, logging_level="WARNING")
        except Exception:  # keep serving: one broken burst must not end the worker
            log.exception("embedded worker %s: a burst failed", worker.name)
            return False

    def _serve(self, worker: ThreadWorker, sweeps: bool) -> None:
        if sweeps:
            self.sweep()
        while not self._stop.is_set():
            self.run_once(worker)
            self._stop.wait(self.interval)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the current bursts."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
