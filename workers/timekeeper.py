"""The clock of a worker process: a thread that fires timers on time, whatever the jobs are doing.

Every ``cosmic worker`` and ``cosmic serve``'s embedded worker runs one `Timekeeper` beside its
job loop. Its thread:

- sleeps until the earliest timer's deadline, and never longer than `POLL_SECONDS` (a timer
  scheduled meanwhile by another process is seen within that); then claims the due timers
  (`workers.timers.claim`, atomic across every clock of the deployment) and fires each on a
  small pool of threads of its own (``threads``; 0 fires them on the clock's thread), so a
  timer never waits behind a bot's turn or a webhook that takes its full timeout, and a timer
  whose game sits on a failed cluster master does not hold the others back. A timer is late
  by the time its firing takes, not by a whole second;
- a second thread, about once a second, moves RQ's scheduled jobs that are due (retries and
  follow-ups; not timers) to their queues (`DelayedJobs`), and sets the queue and timer gauges
  (`workers.metrics`): the clock's own thread does nothing but claim and hand out timers.

RQ's own scheduler runs in a process it forks from the worker. A fork of a process with threads
running is unsafe, and in the embedded mode the fork got a copy of the in-process Redis
(issue 15.7, design note 8), so `DelayedJobs` drives RQ's scheduler object from this thread:
RQ's locks (one per queue, so one mover per queue across the deployment) are taken, refreshed
every second, and reclaimed from a killed worker after `workers.scheduler.STALE_SECONDS`.

Under gevent's monkey patching (the embedded mode may serve with gevent) the threads are
greenlets: the waits here yield, and a bot job yields between moves (`workers.bots`).
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from rq.scheduler import RQScheduler

from workers import metrics, timers
from workers.clock import now_ms
from workers.scheduler import CHECK_SECONDS, reclaim_stale_locks
from workers.sweep import sweep_runtime

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1        # the longest the clock sleeps before looking for timers again
HOUSEKEEPING_SECONDS = 1  # how often RQ's due scheduled jobs are moved and the gauges set
CLAIM_BATCH = 100         # timers claimed at most per look
ERROR_PAUSE = 1.0         # the pause after RQ's Redis failed to answer


class DelayedJobs:
    """Moves RQ's scheduled jobs whose time has come to their queues, with RQ's own mover.

    With ``lock`` it holds RQ's scheduler locks (see the module docstring); without, it moves
    whatever is due (the embedded mode and tests: one process owns that Redis).
    """

    def __init__(self, runtime, *, lock: bool = True, name: str | None = None):
        queues = runtime.queues()
        self.names = {queue.name for queue in queues}
        self.lock = lock
        self.mover = RQScheduler(queues, connection=runtime.rq_redis, logging_level="WARNING", name=name)
        if not lock:
            self.mover.prepare_registries(sorted(self.names))
        self._reclaimed_at: float | None = None

    def move(self) -> None:
        """Move every due scheduled job now (first taking or refreshing the locks, with ``lock``)."""
        if self.lock:
            held = self.mover.acquired_locks
            clock = time.monotonic()
            if held != self.names and (self._reclaimed_at is None or clock - self._reclaimed_at >= CHECK_SECONDS):
                reclaim_stale_locks(self.mover.connection, sorted(self.names - held))
                self._reclaimed_at = clock
            if not self.mover.acquire_locks():  # takes the free locks and refreshes ours
                return
        self.mover.enqueue_scheduled_jobs()

    def release(self) -> None:
        """Give RQ's scheduler locks back (another worker's clock takes them at once)."""
        if self.lock:
            self.mover.release_locks()


class Timekeeper:
    """Fires due timers and moves RQ's due scheduled jobs from a thread of its own (see the module doc)."""

    def __init__(self, runtime, *, threads: int = 8, lock: bool = True, sweep_first: bool = False,
                 poll: float = POLL_SECONDS, name: str | None = None):
        self.runtime = runtime
        self.threads = threads
        self.poll = poll
        self.sweep_first = sweep_first
        self.delayed = DelayedJobs(runtime, lock=lock, name=name)
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="cosmic-timer") if threads else None
        self._in_flight = 0
        self._in_flight_lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._failing = False
        self.started_at: int | None = None  # wall ms when the clock's first look began

    # --- running -----------------------------------------------------------------------------

    def start(self) -> Timekeeper:
        """Start the clock's threads (daemons: they die with the process)."""
        self._threads = [threading.Thread(target=self._run, daemon=True, name="cosmic-clock"),
                         threading.Thread(target=self._keep_house, daemon=True, name="cosmic-clock-housekeeping")]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop looking for timers, let the ones being fired finish, give RQ's locks back."""
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout)
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=False)
        try:
            self.delayed.release()
        except Exception:  # (Redis gone: the locks expire by themselves)
            log.warning("clock: could not release RQ's scheduler locks", exc_info=True)

    @property
    def alive(self) -> bool:
        """Whether the clock's threads run."""
        return bool(self._threads) and all(thread.is_alive() for thread in self._threads)

    def _run(self) -> None:
        if self.sweep_first:
            self._sweep()
        self.started_at = now_ms()
        log.info("clock: firing timers (%s threads)", self.threads or "the clock's own")
        while not self._stop.is_set():
            self._stop.wait(self.tick())

    def _keep_house(self) -> None:
        failing = False
        while not self._stop.wait(HOUSEKEEPING_SECONDS):
            try:
                self.housekeep()
            except Exception as err:  # RQ's Redis is unreachable: the clock's thread says so; try again later
                if not failing:
                    log.warning("clock: housekeeping failed (%s); trying again every %s s", err, HOUSEKEEPING_SECONDS)
                failing = True
                continue
            failing = False

    def _sweep(self) -> None:
        try:  # the embedded Redis starts empty: schedule the timers of the games loaded from the data folder
            sweep_runtime(self.runtime)
        except Exception:
            log.exception("clock: the sweep failed")

    # --- one look ----------------------------------------------------------------------------

    def tick(self) -> float:
        """Fire (or hand to the pool) every due timer there is room for; seconds until the next look."""
        room = self._room()
        if room == 0:
            return 0.01  # every pool thread is busy: a moment, then more room
        try:
            claimed, earliest = timers.claim(self.runtime, limit=room)
            for one in claimed:
                self._dispatch(one)
            if self._failing:
                log.warning("clock: RQ's Redis answers again")
                self._failing = False
        except Exception as err:  # RQ's Redis is unreachable: look again in a moment
            if not self._failing:
                log.warning("clock: cannot reach RQ's Redis (%s); trying again every %s s", err, ERROR_PAUSE)
                self._failing = True
            return ERROR_PAUSE
        if len(claimed) == room:
            return 0.0  # there may be more due
        if earliest is None:
            return self.poll
        return min(self.poll, max(0.0, (earliest - now_ms()) / 1000))

    def _room(self) -> int:
        if self._pool is None:
            return CLAIM_BATCH
        with self._in_flight_lock:
            return max(0, min(CLAIM_BATCH, 2 * self.threads - self._in_flight))

    def _dispatch(self, claimed: str) -> None:
        if self._pool is None:
            self._fire(claimed)
            return
        with self._in_flight_lock:
            self._in_flight += 1
        self._pool.submit(self._fire_in_pool, claimed)

    def _fire_in_pool(self, claimed: str) -> None:
        try:
            self._fire(claimed)
        finally:
            with self._in_flight_lock:
                self._in_flight -= 1

    def _fire(self, claimed: str) -> None:
        try:
            report = timers.fire_claimed(self.runtime, claimed)
        except Exception:  # left claimed: due again when its claim expires
            log.exception("clock: timer %s failed", claimed)
            metrics.TIMERS_FIRED.labels("failed").inc()
            return
        metrics.TIMERS_FIRED.labels(report["result"]).inc()
        if report["result"] == "applied":
            metrics.TIMER_LATENESS.observe(max(0, report["late_ms"]) / 1000)

    def housekeep(self) -> None:
        """Move RQ's due scheduled jobs and set the gauges (about once a second)."""
        self.delayed.move()
        set_gauges(self.runtime)


def set_gauges(runtime) -> None:
    """Queue depths, scheduled jobs and pending timers, read in one round trip."""
    queues = runtime.queues()
    pipe = runtime.rq_redis.pipeline(transaction=False)
    for queue in queues:
        pipe.llen(queue.key)
        pipe.zcard(queue.scheduled_job_registry.key)
    for key in (timers.due_key(runtime.settings.prefix), timers.firing_key(runtime.settings.prefix)):
        pipe.zcard(key)
    replies = pipe.execute()
    for k, queue in enumerate(queues):
        label = queue.name.rpartition(".")[2]
        metrics.QUEUE_DEPTH.labels(label).set(replies[2 * k])
        metrics.QUEUE_SCHEDULED.labels(label).set(replies[2 * k + 1])
    metrics.TIMERS_PENDING.set(replies[-2] + replies[-1])
