"""Running the service's jobs in the test's own thread: RQ's worker without forking, as `cosmic serve` runs them.

Jobs find their runtime with ``workers.runtime.current()``: the worker tests' ``runtime``
fixture installs its runtime; a test with a runtime of its own wraps the run in `installed`.
"""

from __future__ import annotations

import contextlib
import time

from workers import runtime as runtime_module
from workers.embedded import DueJobs, ThreadWorker
from workers.queues import job_id


def run_jobs(runtime, *, scheduler: bool = True) -> bool:
    """Run every queued job (``scheduler``: first move the due scheduled ones to their queues), then return."""
    worker = ThreadWorker(runtime.queues(), connection=runtime.rq_redis, name=job_id(runtime.settings.prefix, "test"),
                          due_jobs=DueJobs(runtime) if scheduler else None)
    return worker.work(burst=True, logging_level="WARNING")


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
