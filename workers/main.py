"""``cosmic worker``: an RQ worker with its scheduler, serving our queues on ``REDIS_URL``.

It is a `workers.scheduler.ServiceWorker`: it takes over the scheduler of a worker that died
and queues timer sweeps (see that module).
"""

from __future__ import annotations

import logging
import time

import redis
from redis.exceptions import ClusterError, RedisClusterException

from workers import runtime as runtime_module
from workers.runtime import Runtime
from workers.scheduler import ServiceWorker
from workers.settings import Settings

log = logging.getLogger(__name__)


def run_worker(settings: Settings, *, burst: bool = False, name: str | None = None,
               logging_level: str = "INFO") -> bool:
    """Serve the queues until stopped (or, with ``burst``, until they are empty); True if any job ran."""
    if settings.embedded:
        raise SystemExit("cosmic worker needs REDIS_URL: without it the service's Redis lives inside "
                         "`cosmic serve`, which runs its own worker thread")
    logging.basicConfig(level=logging_level)
    runtime = Runtime(settings)
    runtime_module.install(runtime)
    incarnation = 0
    while True:
        incarnation += 1
        # a new name after an outage: the old registration may not have expired in Redis yet
        named = name if name is None or incarnation == 1 else f"{name}.{incarnation}"
        worker = ServiceWorker(runtime.queues(), connection=runtime.rq_redis, name=named, runtime=runtime)
        try:
            worked = worker.work(burst=burst, with_scheduler=True, logging_level=logging_level)
        except (redis.ConnectionError, redis.TimeoutError) as exc:  # (RQ's teardown, with Redis gone)
            log.warning("the worker lost Redis: %s", exc)
            worked = False
        if worker._stop_requested or burst or (redis_answers(runtime.rq_redis) and redis_answers(runtime.redis)):
            return worked
        # RQ quits on an error it did not expect (Redis going away mid-job): wait for Redis and go on;
        # the new worker's first maintenance sweeps the open deadlines and bot seats (design note 5)
        log.warning("Redis is unreachable: the worker waits for it and starts again")
        wait_for_redis(runtime.rq_redis)
        wait_for_redis(runtime.redis)


def redis_answers(client) -> bool:
    """Whether Redis (or every node of a cluster) answers a PING now."""
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, ClusterError, RedisClusterException, OSError):
        return False


def wait_for_redis(client, *, first: float = 0.5, longest: float = 10.0) -> None:
    """Block until Redis answers, trying again with a growing pause (0.5 s, doubling, at most 10 s)."""
    pause = first
    while not redis_answers(client):
        time.sleep(pause)
        pause = min(longest, pause * 2)
    log.warning("Redis answers again")
