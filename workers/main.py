"""``cosmic worker``: an RQ worker with its scheduler, serving our queues on ``REDIS_URL``.

It is a `workers.scheduler.ServiceWorker`: it takes over the scheduler of a worker that died
and queues timer sweeps (see that module).
"""

from __future__ import annotations

import logging

from workers import runtime as runtime_module
from workers.runtime import Runtime
from workers.scheduler import ServiceWorker
from workers.settings import Settings


def run_worker(settings: Settings, *, burst: bool = False, name: str | None = None,
               logging_level: str = "INFO") -> bool:
    """Serve the queues until stopped (or, with ``burst``, until they are empty); True if any job ran."""
    if settings.embedded:
        raise SystemExit("cosmic worker needs REDIS_URL: without it the service's Redis lives inside "
                         "`cosmic serve`, which runs its own worker thread")
    logging.basicConfig(level=logging_level)
    runtime = Runtime(settings)
    runtime_module.install(runtime)
    worker = ServiceWorker(runtime.queues(), connection=runtime.redis, name=name, runtime=runtime)
    return worker.work(burst=burst, with_scheduler=True, logging_level=logging_level)
