"""Issue 13: a bot or timer job that meets an unreachable game store queues the same call again (a timer
fired by the clock goes back in its schedule)."""

from __future__ import annotations

import fakeredis
import pytest
import redis
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from workers import bots, timers
from workers import runtime as runtime_module
from workers.clock import now_ms
from workers.outage import LONGEST_RETRY_SECONDS, RETRY_SECONDS, retry_in
from workers.runtime import Runtime
from workers.settings import Settings


@pytest.fixture
def broken_store(monkeypatch):
    """A runtime whose game reads fail as if the game's cluster master were down (RQ's Redis is fine)."""
    built = Runtime(Settings(prefix="test-outage"), redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()))

    def unreachable(*args, **kwargs):
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:7001. Connection refused.")

    monkeypatch.setattr(built.repository, "current", unreachable)
    runtime_module.install(built)
    yield built
    runtime_module.install(None)


def scheduled(runtime, queue: str) -> list[Job]:
    registry = ScheduledJobRegistry(queue=runtime.queue(queue))
    return [Job.fetch(jid, connection=runtime.rq_redis) for jid in registry.get_job_ids()]


def test_a_bot_job_that_cannot_reach_the_game_queues_itself_again_waiting_longer_each_time(broken_store):
    assert bots.play_bots("g-down") == {"stopped": "storage-unavailable", "retry_in": RETRY_SECONDS}
    [again] = scheduled(broken_store, bots.QUEUE)
    assert (again.func_name, again.args) == ("workers.bots.play_bots", ("g-down",))  # the same call
    assert again.kwargs == {"outage_attempt": 1}
    assert bots.play_bots("g-down", **again.kwargs)["retry_in"] == 2 * RETRY_SECONDS
    assert [retry_in(n) for n in range(1, 6)] == [2.0, 4.0, 8.0, LONGEST_RETRY_SECONDS, LONGEST_RETRY_SECONDS]


def test_a_timer_job_that_cannot_reach_the_game_queues_itself_again(broken_store):
    assert timers.fire("g-down", "p.7.red", 1_000, 12) == {"stopped": "storage-unavailable",
                                                           "retry_in": RETRY_SECONDS}
    [again] = scheduled(broken_store, timers.QUEUE)
    assert (again.func_name, again.args) == ("workers.timers.fire", ("g-down", "p.7.red", 1_000, 12))


def test_a_timer_the_clock_fires_on_an_unreachable_game_is_due_again_a_few_seconds_later(broken_store):
    def fired_again_in(deadline: int) -> tuple[float, float]:
        assert timers.schedule(broken_store, "g-down", "p.7.red", deadline) == "scheduled"
        [claimed], _ = timers.claim(broken_store)
        before = now_ms()
        assert timers.fire_claimed(broken_store, claimed)["result"] == "storage-unavailable"
        [(name, score)] = broken_store.rq_redis.zrange(timers.due_key("test-outage"), 0, -1, withscores=True)
        assert timers.parse_member(name) == ("g-down", "p.7.red", deadline)
        assert timers.claim(broken_store) == ([], int(score))  # no longer claimed; not due before then
        broken_store.rq_redis.delete(timers.due_key("test-outage"))
        return score - now_ms(), score - before

    soonest, latest = fired_again_in(now_ms() - 500)  # (just due)
    assert soonest <= timers.OUTAGE_RETRY_MS <= latest
    soonest, latest = fired_again_in(1_000)  # (due for long: the master has been down a while)
    assert soonest <= timers.LONGEST_OUTAGE_RETRY_MS <= latest
