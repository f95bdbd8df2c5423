"""Running the service's jobs and timers in the test's own thread: RQ's worker without forking, as `cosmic serve`
runs them, with the due timers fired (and RQ's due scheduled jobs moved) before every job.

Jobs find their runtime with ``workers.runtime.current()``: the worker tests' ``runtime``
fixture installs its runtime; a test with a runtime of its own wraps the run in `installed`.
"""

from __future__ import annotations

import contextlib
import time

from workers import runtime as runtime_module
from workers import timers
from workers.embedded import ThreadWorker
from workers.queues import job_id
from workers.timekeeper import DelayedJobs


def run_jobs(runtime, *, scheduler: bool = True) -> bool:
    """Run every queued job (``scheduler``: first fire the due timers and move the due scheduled jobs), then
    return whether anything ran."""
    fired = []
    before = None
    if scheduler:
        delayed = DelayedJobs(runtime, lock=False)

        def before():
            fired.extend(timers.fire_due(runtime))
            delayed.move()

    worker = ThreadWorker(runtime.queues(), connection=runtime.rq_redis, name=job_id(runtime.settings.prefix, "test"),
                          before_dequeue=before)
    return worker.work(burst=True, logging_level="WARNING") or bool(fired)


def run_jobs_until(runtime, done, seconds: float = 30, *, scheduler: bool = True) -> None:
    """Run the queues (with the scheduler, for retries) until ``done()`` or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        run_jobs(runtime, scheduler=scheduler)
        time.sleep(0.1)


@contextlib.contextmanager
def installed(runtime):
    """Make ``runtime`` this process's runtime for the jobs run inside the block."""
    runtime_module.install(runtime)
    try:
        yield runtime
    finally:
        runtime_module.install(None)
