"""Timers fired by real `cosmic worker` processes (the jobs and the clock thread) on real Redis.

Skipped without REDIS_URL. Each test starts its workers under its own key prefix
(``COSMIC_PREFIX``), plays a game to two Compromises through the command runner (the deal
window is stamped so that it closes about two seconds from now), and watches the game's
stream. Workers are started and stopped (their whole process group) by the ``service_processes``
fixture (tests/conftest.py), and the prefix's keys deleted after.
"""

from __future__ import annotations

import os
import time
from functools import partial

import pytest
import redis
from rq import Worker

from tests.workers import games
from tests.workers.thread_jobs import installed
from workers import timers
from workers.queues import job_id, purge
from workers.runtime import Runtime
from workers.scheduler import lock_key
from workers.settings import Settings

pytestmark = pytest.mark.e2e


@pytest.fixture
def live(key_prefix, service_processes):
    """A runtime on REDIS_URL under this test's prefix, and the test's `ServiceProcesses` to start workers with."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set: the timer tests with real `cosmic worker` processes need a real Redis")
    client = redis.Redis.from_url(url)
    runtime = Runtime(Settings(redis_url=url, prefix=key_prefix, admin_token="adm"), redis_client=client)
    try:
        with installed(runtime):
            yield runtime, service_processes
    finally:
        purge(client, key_prefix)
        client.close()


def wait_until(condition, seconds: float, workers, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"{what} did not happen within {seconds} s\n{workers.logs()}")


def scheduler_running(runtime, workers) -> None:
    """Wait until a worker's clock holds RQ's scheduler lock of its queues (it runs)."""
    key = lock_key(runtime.queue(timers.QUEUE).name)
    wait_until(lambda: runtime.rq_redis.exists(key), 20, workers, "a clock taking the lock")


def compromises(runtime, service_game_class, game_id: str, deadline_in_ms: int):
    """Red attacks blue, both play Compromises: a deal window (5 s) that closes ``deadline_in_ms`` from now."""
    return games.compromises(partial(service_game_class, runtime), game_id, deadline_in_ms, launch={"red-0": 2})


def timeouts(runtime, game_id: str) -> list[dict]:
    return [e for e in runtime.store.read(game_id) if e["type"] == "DecisionTimedOut"]


def deal_deadline(g) -> int:
    deadlines = {p["deadline"] for p in g.prompts() if p["kind"] == "deal"}
    assert len(deadlines) == 1
    return deadlines.pop()


def test_a_worker_expires_a_deal_and_both_main_players_pay_three_tokens(live, service_game_class):
    runtime, workers = live
    workers.worker("w1")
    scheduler_running(runtime, workers)
    g = compromises(runtime, service_game_class, "g-live", 2000)
    deadline = deal_deadline(g)
    fired = wait_until(lambda: timeouts(runtime, "g-live"), 15, workers, "the deal's expiry")
    assert [(e["actor"], e["time"] >= deadline) for e in fired] == [("timer", True)]
    g.refresh()
    concluded = [e["payload"]["reason"] for e in runtime.store.read("g-live") if e["type"] == "DealConcluded"]
    assert concluded == ["time ran out"]
    assert g.owe("red", "choose_losses")["info"] == {"count": 3, "reason": "deal failed"}
    g.lose("red", {"cone:offense": 2, "red-1": 1})
    assert g.owe("blue", "choose_losses")["info"] == {"count": 3, "reason": "deal failed"}
    g.lose("blue", {"blue-0": 3})
    assert (g.warp("red"), g.warp("blue")) == (3, 3)
    time.sleep(1.5)  # the deal's other timer (blue's prompt) has run by now: a no-op
    assert len(timeouts(runtime, "g-live")) == 1


def test_a_timer_pending_when_its_worker_is_killed_fires_once_on_the_next_worker(live, service_game_class):
    runtime, workers = live
    first = workers.worker("w1")
    scheduler_running(runtime, workers)
    g = compromises(runtime, service_game_class, "g-crash", 3000)
    workers.kill(first)  # SIGKILL: its scheduler lock stays behind in Redis
    assert runtime.rq_redis.exists(lock_key(runtime.queue(timers.QUEUE).name))
    assert timers.pending(runtime) == 2  # the timers live in Redis
    assert timeouts(runtime, "g-crash") == []
    workers.worker("w2")
    fired = wait_until(lambda: timeouts(runtime, "g-crash"), 25, workers, "the expiry after the restart")
    assert fired[0]["time"] >= deal_deadline(g)
    time.sleep(2)
    assert len(timeouts(runtime, "g-crash")) == 1
    wait_until(lambda: "reclaimed" in workers.log_of("w2"), 20, workers, "RQ's scheduler lock taken over")


def test_a_timer_of_a_deal_made_in_time_does_nothing(live, service_game_class):
    runtime, workers = live
    workers.worker("w1")
    scheduler_running(runtime, workers)
    g = compromises(runtime, service_game_class, "g-made", 2000)
    deadline = deal_deadline(g)
    assert timers.pending(runtime) == 2
    g.propose("red", {"cards": {"offense": {"named": [], "count": 1}}})
    g.accept("blue", 1)
    version = g.refresh()["v"]
    assert timers.pending(runtime) == 0  # the append that made the deal dropped both timers
    time.sleep(max(0.0, (deadline - timers.wall_ms()) / 1000) + 1.0)  # the deadline passes: nothing fires
    assert runtime.store.version("g-made") == version and timeouts(runtime, "g-made") == []


def test_two_workers_racing_on_one_expiry_apply_it_once(live, service_game_class):
    runtime, workers = live
    for name in ("w1", "w2"):
        workers.worker(name)
    scheduler_running(runtime, workers)
    wait_until(lambda: len(Worker.all(queue=runtime.queue(timers.QUEUE))) >= 2, 20, workers, "two workers listening")
    g = compromises(runtime, service_game_class, "g-race", 2500)
    deadline = deal_deadline(g)
    prompt = next(p["id"] for p in g.prompts() if p["kind"] == "deal")
    # besides the two timers both clocks watch, duplicates as RQ jobs (timers of earlier versions): each worker
    # takes one and waits for the deadline, so the clocks and the job loops send the same expiry at once
    extra = [runtime.queue(timers.QUEUE).enqueue(timers.fire, "g-race", prompt, deadline, g.state["v"],
                                                 job_id=job_id(runtime.settings.prefix, "dup"))
             for _ in range(6)]
    wait_until(lambda: all(j.get_status(refresh=True) in ("finished", "failed") for j in extra) and
               timers.pending(runtime) == 0, 30, workers, "every timer")
    for job in extra:
        job.refresh()
    results = [j.return_value() for j in extra]
    assert all(r is not None for r in results), workers.logs()
    outcomes = [r["result"] for r in results]
    assert outcomes.count("applied") <= 1
    assert set(outcomes) <= {"applied", "already applied", "stale"}
    assert len({j.worker_name for j in extra}) == 2  # both workers ran some of them
    fired = timeouts(runtime, "g-race")
    assert len(fired) == 1 and fired[0]["time"] >= deadline


def test_cosmic_timers_lists_a_games_timers_and_sweeps_missing_ones(live, service_game_class, monkeypatch, capsys):
    import json

    from app.cli import main
    runtime, workers = live
    monkeypatch.setenv("REDIS_URL", os.environ["REDIS_URL"])
    monkeypatch.setenv("COSMIC_PREFIX", runtime.settings.prefix)
    g = compromises(runtime, service_game_class, "g-cli", 30_000)
    deadline = deal_deadline(g)

    def listed() -> list[dict]:
        assert main(["timers", "g-cli", "--json"]) == 0
        return json.loads(capsys.readouterr().out)["timers"]

    rows = listed()
    assert [(r["player"], r["kind"], r["deadline"], r["timer"], r["fires_at"]) for r in rows] == \
        [("blue", "deal", deadline, "scheduled", deadline), ("red", "deal", deadline, "scheduled", deadline)]
    runtime.rq_redis.delete(timers.due_key(runtime.settings.prefix))  # as if the listener had failed after the append
    assert [r["timer"] for r in listed()] == ["missing", "missing"]
    assert main(["timers", "--sweep"]) == 0
    assert json.loads(capsys.readouterr().out) == {"games": 1, "pending": 0, "scheduled": 2}
    assert [r["timer"] for r in listed()] == ["scheduled", "scheduled"]
