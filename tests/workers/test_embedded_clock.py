"""The embedded mode's clock (issue 15.7): a due timer is moved and run however the worker is busy.

In `cosmic serve` without REDIS_URL the jobs run in threads of the web process. A 5-second
deal timer once fired 53.7 s late: RQ's maintenance (every 10 minutes) started RQ's scheduler
in a forked process, whose lock stayed in the in-process Redis for 61 s while the fork moved
jobs in its own copy of that Redis. These tests check the mechanism, never the wall clock:
RQ's maintenance starts no scheduler and leaves no lock; a timer that comes due during a burst
runs before the burst's next job; a slow job does not hold a timer back.
"""

from __future__ import annotations

import multiprocessing
import time
from datetime import UTC, datetime, timedelta

import pytest

from tests.workers import clock_jobs
from workers.embedded import EmbeddedWorker
from workers.scheduler import lock_key


@pytest.fixture
def embedded(runtime):
    worker = EmbeddedWorker(runtime, interval=0.05)
    yield worker
    worker.stop()


def due_now(runtime, func, *args):
    return runtime.queue("high").enqueue_at(datetime.now(UTC) - timedelta(seconds=1), func, *args)


def test_rq_maintenance_in_the_embedded_worker_forks_no_scheduler_and_holds_no_lock(runtime, embedded):
    for worker in (embedded.clock, embedded.jobs):
        worker.maintenance_interval = 0  # RQ's 10-minute maintenance, due at every burst
    for _ in range(3):
        embedded.run_once(embedded.clock)
        embedded.run_once(embedded.jobs)
    assert multiprocessing.active_children() == []
    assert [runtime.rq_redis.get(lock_key(q.name)) for q in runtime.queues()] == [None, None, None]
    timer = due_now(runtime, clock_jobs.note, "timer")
    embedded.run_once(embedded.clock)
    assert timer.get_status(refresh=True) == "finished"
    assert clock_jobs.ran(runtime) == ["timer"]


def test_a_timer_that_comes_due_during_a_burst_runs_before_the_next_job(runtime, embedded):
    runtime.enqueue(clock_jobs.note_and_schedule_timer, "first job")
    runtime.enqueue(clock_jobs.note, "second job")
    embedded.run_once(embedded.jobs)
    assert clock_jobs.ran(runtime) == ["first job", "timer", "second job"]


def test_a_slow_job_does_not_hold_a_timer_back(runtime, embedded):
    clock_jobs.RELEASE.clear()
    embedded.start()
    runtime.enqueue(clock_jobs.hold, 60)
    while runtime.queue("default").count:  # the jobs thread has taken the slow job
        time.sleep(0.02)
    due_now(runtime, clock_jobs.note, "timer")
    waited = 0.0
    while "timer" not in clock_jobs.ran(runtime) and waited < 30:
        time.sleep(0.05)
        waited += 0.05
    clock_jobs.RELEASE.set()  # only now does the slow job end
    while len(clock_jobs.ran(runtime)) < 2 and waited < 60:
        time.sleep(0.05)
        waited += 0.05
    assert clock_jobs.ran(runtime) == ["timer", "slow job"]
