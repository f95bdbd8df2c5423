"""The embedded mode's clock (issue 15.7): a due timer fires however busy the worker is.

In `cosmic serve` without REDIS_URL the jobs run in threads of the web process. A 5-second
deal timer once fired 53.7 s late: RQ's maintenance (every 10 minutes) started RQ's scheduler
in a forked process, whose lock stayed in the in-process Redis for 61 s while the fork moved
jobs in its own copy of that Redis. These tests check the mechanism: RQ's maintenance starts no
scheduler and leaves no lock; RQ's scheduled jobs (retries) are moved by the clock thread; a
timer fires while a slow job holds the jobs thread; the clock's sweep at start schedules the
timers of the games it finds.
"""

from __future__ import annotations

import multiprocessing
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.workers import clock_jobs
from tests.workers.games import compromises
from workers import timers
from workers.embedded import EmbeddedWorker
from workers.scheduler import lock_key


@pytest.fixture
def embedded(runtime):
    worker = EmbeddedWorker(runtime, interval=0.05)
    yield worker
    worker.stop()


def wait_for(condition, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def timed_out(runtime, game_id: str) -> list[dict]:
    return [e for e in runtime.store.read(game_id) if e["type"] == "DecisionTimedOut"]


def test_rq_maintenance_in_the_embedded_worker_forks_no_scheduler_and_holds_no_lock(runtime, embedded):
    embedded.jobs.maintenance_interval = 0  # RQ's 10-minute maintenance, due at every burst
    for _ in range(3):
        embedded.run_once()
        embedded.clock.housekeep()
    assert multiprocessing.active_children() == []
    assert [runtime.rq_redis.get(lock_key(q.name)) for q in runtime.queues()] == [None, None, None]


def test_the_clock_moves_a_due_retry_to_its_queue_for_the_jobs_thread(runtime, embedded):
    runtime.queue("default").enqueue_at(datetime.now(UTC) - timedelta(seconds=1), clock_jobs.note, "retry")
    embedded.start()
    assert wait_for(lambda: clock_jobs.ran(runtime) == ["retry"])


def test_a_slow_job_does_not_hold_a_timer_back(runtime, embedded, service_game):
    clock_jobs.RELEASE.clear()
    embedded.start()
    runtime.enqueue(clock_jobs.hold, 60)
    assert wait_for(lambda: runtime.queue("default").count == 0)  # the jobs thread has taken the slow job
    g = compromises(service_game, "g-slow", 300)  # a deal window that closes in 0.3 s
    try:
        assert wait_for(lambda: timed_out(runtime, "g-slow"))
        assert clock_jobs.ran(runtime) == []  # the slow job still holds the jobs thread
    finally:
        clock_jobs.RELEASE.set()  # only now does the slow job end
    assert wait_for(lambda: clock_jobs.ran(runtime) == ["slow job"])
    assert [e["actor"] for e in timed_out(runtime, "g-slow")] == ["timer"]
    assert timed_out(runtime, "g-slow")[0]["time"] >= g.prompts()[0]["deadline"]


def test_the_clock_first_schedules_the_open_deadlines_it_finds(runtime, service_game):
    g = compromises(service_game, "g-found", -1000)
    runtime.rq_redis.delete(timers.due_key(runtime.settings.prefix))  # as after a restart of the embedded Redis
    worker = EmbeddedWorker(runtime, interval=0.05).start()
    try:
        assert wait_for(lambda: timed_out(runtime, "g-found"))
    finally:
        worker.stop()
    assert len(timed_out(runtime, "g-found")) == 1 and g.refresh()["status"] == "playing"
