"""Jobs run by an RQ worker on our queues (SimpleWorker in burst mode), on fakeredis and real Redis."""

from __future__ import annotations

import time

import engine
from workers import jobs
from workers.embedded import EmbeddedWorker, ThreadWorker
from workers.queues import QUEUES, job_id, queue_name


def burst(runtime) -> bool:
    """Run every queued job in this thread, as `cosmic worker --burst` would (without forking)."""
    worker = ThreadWorker(runtime.queues(), connection=runtime.redis, name=job_id(runtime.settings.prefix, "test"))
    return worker.work(burst=True, with_scheduler=True, logging_level="WARNING")


def play_to_the_end(runtime, game_id: str, seed: str) -> dict:
    """A two-player game through the runtime's command runner, first legal option each time."""
    import random

    from engine.players import random_command
    commands = [{"action": "create", "seats": 2, "seed": seed, "options": {}, "at": 0}]
    commands += [{"action": "join", "name": f"p{k}", "at": 0} for k in range(2)] + [{"action": "start", "at": 0}]
    for command in commands:
        runtime.commands.run(game_id, command)
    rng = random.Random(seed)
    while (state := runtime.repository.current(game_id))["status"] == "playing":
        prompt = rng.choice(engine.prompts(state))
        for _ in range(50):
            try:
                runtime.commands.run(game_id, random_command(state, prompt, rng))
                break
            except engine.EngineError:
                continue
    return state


def test_queue_names_and_job_ids_carry_the_prefix(runtime):
    prefix = runtime.settings.prefix
    assert [q.name for q in runtime.queues()] == [queue_name(prefix, q) for q in QUEUES]
    job = runtime.enqueue(jobs.noop, 1)
    assert job.id.startswith(prefix) and job.origin == f"{prefix}.default"


def test_noop_runs_on_a_worker(runtime):
    job = runtime.enqueue(jobs.noop, "ping", queue="high")
    assert burst(runtime)
    job.refresh()
    assert job.get_status() == "finished"
    assert job.return_value() == {"ok": True, "value": "ping", "pid": job.return_value()["pid"],
                                  "prefix": runtime.settings.prefix}


def test_a_finished_game_gets_its_snapshot_from_the_worker(runtime):
    state = play_to_the_end(runtime, "g-job", "job-seed")
    assert state["status"] == "finished"
    assert runtime.repository.snapshots.latest("g-job") is None  # no snapshot is due yet
    assert runtime.queue("default").count == 1
    burst(runtime)
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


def test_scheduled_jobs_run_after_their_delay(runtime):
    job = runtime.enqueue_in(2, jobs.noop, "later")  # RQ schedules to the whole second
    burst(runtime)
    assert job.get_status(refresh=True) == "scheduled"
    deadline = time.monotonic() + 8
    while job.get_status(refresh=True) != "finished" and time.monotonic() < deadline:
        time.sleep(0.3)
        burst(runtime)
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
