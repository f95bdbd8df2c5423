"""Taking over the scheduler of a dead worker (workers/scheduler.py, workers/timekeeper.py), on fakeredis and
real Redis."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rq import SimpleWorker

from tests.workers import clock_jobs
from workers.scheduler import CHECK_SECONDS, STALE_SECONDS, ServiceWorker, lock_key, reclaim_stale_locks
from workers.timekeeper import DelayedJobs


def test_a_scheduler_lock_not_refreshed_for_a_while_is_reclaimed_and_a_live_one_is_kept(redis_client, key_prefix):
    dead, alive, odd = (f"{key_prefix}.{name}" for name in ("dead", "alive", "odd"))
    lock_ttl = 61_000  # RQ's scheduler sets its lock for 61 s and refreshes it every second
    redis_client.set(lock_key(dead), "scheduler-a", px=lock_ttl - (STALE_SECONDS + 1) * 1000)
    redis_client.set(lock_key(alive), "scheduler-b", px=lock_ttl - 1000)
    redis_client.set(lock_key(odd), "scheduler-c")  # no TTL: not RQ's doing, not ours to judge
    try:
        assert reclaim_stale_locks(redis_client, [dead, alive, odd, f"{key_prefix}.none"]) == [dead]
        assert redis_client.get(lock_key(dead)) is None
        assert redis_client.get(lock_key(alive)) == b"scheduler-b"
        assert redis_client.get(lock_key(odd)) == b"scheduler-c"
    finally:
        redis_client.delete(lock_key(dead), lock_key(alive), lock_key(odd))


def test_the_service_worker_forks_no_process_per_job_and_wakes_for_its_maintenance(runtime):
    worker = ServiceWorker(runtime.queues(), connection=runtime.rq_redis, name=f"{runtime.settings.prefix}-w",
                           runtime=runtime)
    assert isinstance(worker, SimpleWorker)
    assert worker.dequeue_timeout <= CHECK_SECONDS and worker.maintenance_interval == CHECK_SECONDS


def test_a_clock_takes_over_the_locks_a_dead_scheduler_left_and_moves_the_due_jobs(runtime):
    names = [queue.name for queue in runtime.queues()]
    for name in names:  # a killed worker's scheduler: its locks not refreshed for a while
        runtime.rq_redis.set(lock_key(name), "dead-scheduler", px=61_000 - (STALE_SECONDS + 1) * 1000)
    retry = runtime.queue("default").enqueue_at(datetime.now(UTC) - timedelta(seconds=1), clock_jobs.note, "retry")
    mover = DelayedJobs(runtime, name=f"{runtime.settings.prefix}-clock")
    mover.move()
    assert [runtime.rq_redis.get(lock_key(name)) for name in names] == [mover.mover.name.encode()] * 3
    assert retry.get_status(refresh=True) == "queued"
    mover.release()
    assert [runtime.rq_redis.get(lock_key(name)) for name in names] == [None] * 3
