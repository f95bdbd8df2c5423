"""``cosmic worker``: the service's jobs and clocks on ``REDIS_URL``, in one process without forks.

Three parts run in it:

- the clock (`workers.timekeeper.Timekeeper`), a thread that fires each timer when its deadline
  passes and moves RQ's due scheduled jobs to their queues;
- the job loop (`workers.scheduler.ServiceWorker`, RQ's non-forking worker) on the main
  thread: bots, webhooks, snapshots, sweeps, audits and replays;
- with ``COSMIC_WORKER_METRICS`` (or ``--metrics``), a Prometheus exporter on its own HTTP port
  (`workers.metrics`).

When Redis goes away mid-job RQ's loop ends; the worker waits for Redis and starts its loop again
under a new name, while the clock keeps trying by itself.
"""

from __future__ import annotations

import logging
import sys
import time

import redis
from redis.exceptions import ClusterError, RedisClusterException

from workers import metrics
from workers import runtime as runtime_module
from workers.runtime import Runtime
from workers.scheduler import ServiceWorker
from workers.settings import Settings, address
from workers.timekeeper import Timekeeper

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL while another waits (Python's default: 0.005)


def run_worker(settings: Settings, *, burst: bool = False, name: str | None = None,
               logging_level: str = "INFO", metrics_address: str | None = None) -> bool:
    """Serve the queues and the timers until stopped (or, with ``burst``, until the queues are empty)."""
    if settings.embedded:
        raise SystemExit("cosmic worker needs REDIS_URL: without it the service's Redis lives inside "
                         "`cosmic serve`, which runs its own worker thread")
    logging.basicConfig(level=logging_level)
    exporter = address(metrics_address) if metrics_address is not None else settings.worker_metrics_address
    runtime = Runtime(settings)
    runtime_module.install(runtime)
    # a timer thread back from Redis gets the interpreter within a millisecond of a bot move's computing
    sys.setswitchinterval(SWITCH_INTERVAL)
    if exporter is not None:
        metrics.serve(exporter)
    clock = Timekeeper(runtime, name=name).start()
    try:
        return _work(runtime, burst=burst, name=name, logging_level=logging_level)
    finally:
        clock.stop()


def _work(runtime: Runtime, *, burst: bool, name: str | None, logging_level: str) -> bool:
    incarnation = 0
    while True:
        incarnation += 1
        # a new name after an outage: the old registration may not have expired in Redis yet
        named = name if name is None or incarnation == 1 else f"{name}.{incarnation}"
        worker = ServiceWorker(runtime.queues(), connection=runtime.rq_redis, name=named, runtime=runtime,
                               log_job_description=False)
        try:
            worked = worker.work(burst=burst, logging_level=logging_level)
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
