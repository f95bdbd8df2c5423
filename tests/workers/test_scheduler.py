"""Taking over the scheduler of a dead worker (workers/scheduler.py), on fakeredis and real Redis."""

from __future__ import annotations

from workers.scheduler import CHECK_SECONDS, STALE_SECONDS, ServiceWorker, lock_key, reclaim_stale_locks


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


def test_an_idle_service_worker_wakes_often_enough_to_take_over_a_dead_scheduler(runtime):
    worker = ServiceWorker(runtime.queues(), connection=runtime.rq_redis, name=f"{runtime.settings.prefix}-w",
                           runtime=runtime)
    assert worker.dequeue_timeout <= CHECK_SECONDS and worker.maintenance_interval == CHECK_SECONDS
