"""Jobs run by an RQ worker on our queues (SimpleWorker in burst mode), on fakeredis and real Redis."""

from __future__ import annotations

import random
import time

import redis

import engine
from tests.workers import games
from tests.workers.thread_jobs import run_jobs
from workers import jobs
from workers.embedded import EmbeddedWorker
from workers.queues import QUEUES, queue_name


def play_to_the_end(runtime, game_id: str, seed: str) -> dict:
    """A two-player game through the runtime's command runner, random legal answers to the end."""
    games.play(runtime, game_id, games.lobby(seed, 2, names="p{k}"))
    rng = random.Random(seed)
    while games.random_move(runtime, game_id, rng) is not None:
        pass
    return runtime.repository.current(game_id)


def test_queue_names_and_job_ids_carry_the_prefix(runtime):
    prefix = runtime.settings.prefix
    assert [q.name for q in runtime.queues()] == [queue_name(prefix, q) for q in QUEUES]
    job = runtime.enqueue(jobs.noop, 1)
    assert job.id.startswith(prefix) and job.origin == f"{prefix}.default"


def test_noop_runs_on_a_worker(runtime):
    job = runtime.enqueue(jobs.noop, "ping", queue="high")
    assert run_jobs(runtime)
    job.refresh()
    assert job.get_status() == "finished"
    assert job.return_value() == {"ok": True, "value": "ping", "pid": job.return_value()["pid"],
                                  "prefix": runtime.settings.prefix}


def test_a_finished_game_gets_its_snapshot_from_the_worker(runtime):
    state = play_to_the_end(runtime, "g-job", "job-seed")
    assert state["status"] == "finished"
    assert runtime.repository.snapshots.latest("g-job") is None  # no snapshot is due yet
    assert runtime.queue("default").count == 1
    run_jobs(runtime)
    latest = runtime.repository.snapshots.latest("g-job")
    assert latest.version == state["v"] and latest.state == engine.fold(runtime.store.read("g-job"))


def test_refresh_snapshot_is_a_noop_when_the_snapshot_is_current(runtime):
    runtime.commands.run("g-two", {"action": "create", "seats": 2, "seed": "s", "at": 0})
    assert jobs.refresh_snapshot("g-two", 1) == 1
    written = runtime.redis.hget(runtime.repository.snapshots.snapshot_key("g-two"), "data")
    assert jobs.refresh_snapshot("g-two", 1) == 1
    assert runtime.redis.hget(runtime.repository.snapshots.snapshot_key("g-two"), "data") == written


def test_rebuild_index_lists_every_game(runtime):
    for n in range(3):
        runtime.commands.run(f"g-{n}", {"action": "create", "seats": 2, "seed": "s", "at": n})
    runtime.redis.delete(runtime.index.status_key("lobby"))
    assert runtime.index.list("lobby")[1] == 0
    assert jobs.rebuild_index() == 3
    assert runtime.index.list("lobby")[1] == 3


def test_a_games_list_entry_the_listener_could_not_write_is_retried_by_a_job(runtime, monkeypatch):
    """The list's keys are shared by every game: their master may be down while the game's is up. The
    append stands, and a job writes the entry once the list answers again."""
    runtime.commands.run("g-list", {"action": "create", "seats": 2, "seed": "s", "at": 0})
    update = runtime.index.update

    def down(game_id, state):
        raise redis.ConnectionError("the games list's master is down")
    monkeypatch.setattr(runtime.index, "update", down)
    for k in range(2):
        runtime.commands.run("g-list", {"action": "join", "name": f"P{k}", "at": 1 + k})
    assert runtime.store.version("g-list") == 3  # the joins are kept
    monkeypatch.setattr(runtime.index, "update", update)
    [entry] = runtime.index.list("lobby")[0]
    assert entry["id"] == "g-list" and entry.get("seated", len(entry.get("players") or [])) != 2
    retries = [job for job in runtime.queue("default").scheduled_job_registry.get_job_ids()]
    assert retries, "no job retries the entry"
    deadline = time.monotonic() + 8
    while runtime.index.list("lobby")[0][0] == entry and time.monotonic() < deadline:
        time.sleep(0.3)
        run_jobs(runtime)
    [after] = runtime.index.list("lobby")[0]
    assert after != entry and after["id"] == "g-list"


def test_scheduled_jobs_run_after_their_delay(runtime):
    job = runtime.enqueue_in(2, jobs.noop, "later")  # RQ schedules to the whole second
    run_jobs(runtime)
    assert job.get_status(refresh=True) == "scheduled"
    deadline = time.monotonic() + 8
    while job.get_status(refresh=True) != "finished" and time.monotonic() < deadline:
        time.sleep(0.3)
        run_jobs(runtime)
    assert job.return_value()["value"] == "later"


def test_the_embedded_worker_thread_serves_the_queues(runtime):
    worker = EmbeddedWorker(runtime, interval=0.05).start()
    try:
        job = runtime.enqueue(jobs.noop, "threaded")
        deadline = time.monotonic() + 10
        while job.get_status(refresh=True) != "finished" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert job.return_value()["value"] == "threaded"
    finally:
        worker.stop()
