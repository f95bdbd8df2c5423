"""Issue 13: a bot or timer job that meets an unreachable game store queues the same call again."""

from __future__ import annotations

import fakeredis
import pytest
import redis
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from workers import bots, timers
from workers import runtime as runtime_module
from workers.outage import RETRY_SECONDS
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


def test_a_bot_job_that_cannot_reach_the_game_queues_itself_again(broken_store):
    assert bots.play_bots("g-down") == {"stopped": "storage-unavailable", "retry_in": RETRY_SECONDS}
    [again] = scheduled(broken_store, bots.QUEUE)
    assert (again.func_name, again.args) == ("workers.bots.play_bots", ("g-down",))  # the same call


def test_a_timer_job_that_cannot_reach_the_game_queues_itself_again(broken_store):
    assert timers.fire("g-down", "p.7.red", 1_000, 12) == {"stopped": "storage-unavailable",
                                                           "retry_in": RETRY_SECONDS}
    [again] = scheduled(broken_store, timers.QUEUE)
    assert (again.func_name, again.args) == ("workers.timers.fire", ("g-down", "p.7.red", 1_000, 12))
