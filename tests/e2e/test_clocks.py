"""Clocks on time whatever the load (issue 27): real `cosmic worker` processes, on Redis and on the cluster.

The games are made by the test through a runtime of its own on the service's Redis (the same
command runner and listeners as the API), so their timers and bot jobs reach the worker as in
production. A decision's lateness is the time its default was appended (the ``time`` of the
timer's ``DecisionTimedOut``) minus its deadline (read from the state folded up to the event
before). The bounds are functional, with room for a loaded machine; ``bench/load.py`` measures.

- While one worker is kept busy by games of bots, the timers of games whose human never answers
  apply their defaults within a second of their deadlines (p99), and the worker's metrics
  (``COSMIC_WORKER_METRICS``) show the timers, the bots and the queues.
- Deadlines that passed while no worker ran (the only one was killed and is replaced at once, as a
  supervisor restarts a crashed worker; the deadlines pass while the new one starts) fire within a
  second of the new worker being up, each once.
"""

from __future__ import annotations

import time

import pytest
import requests
from rq import Worker

import engine
from tests.conftest import free_port
from workers import timers
from workers.clock import now_ms
from workers.runtime import Runtime
from workers.scheduler import lock_key
from workers.settings import Settings

pytestmark = pytest.mark.e2e

BOT_GAMES = 8       # games of four bots: work that never ends for the worker, each taking turns on it
TIMED_GAMES = 6     # games whose human seat never answers its 5-second decisions
TIMEOUTS = 24       # timed-out decisions to look at
BOUND_MS = 1000     # a default later than this after its deadline is late, even on a loaded machine


def runtime_of(service) -> Runtime:
    """A runtime of the test's own on the service processes' Redis (or cluster) and prefix."""
    env = service.env
    return Runtime(Settings(redis_url=env["REDIS_URL"], rq_redis_url=env.get("RQ_REDIS_URL"),
                            prefix=env["COSMIC_PREFIX"], admin_token="adm"))


def open_game(runtime, game_id: str, seats: list[str | None], *, at: int | None = None, **options) -> None:
    """Create, seat (None: a person who never answers; else a bot's level) and start a game stamped ``at``."""
    at = now_ms() if at is None else at
    commands = [{"action": "create", "seats": len(seats), "seed": game_id, "at": at, "options": options}]
    commands += [{"action": "join", "name": f"seat {k}", "at": at, **({"bot": level} if level else {})}
                 for k, level in enumerate(seats)]
    for command in commands + [{"action": "start", "at": at}]:
        runtime.commands.run(game_id, command)


def timer_lateness(runtime, game_id: str) -> dict[str, int]:
    """Each decision the timer applied a default to: prompt id -> ms from its deadline to the default."""
    state, late = None, {}
    for event in runtime.store.read(game_id):
        if event["type"] == "DecisionTimedOut" and event["actor"] == "timer":
            prompt = event["payload"]["prompt"]
            late[prompt] = event["time"] - state["clock"][prompt]
        state = engine.evolve(state, event)
    return late


def wait_until(condition, seconds: float, service, what: str, *, all_running: bool = True):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if all_running:
            service.check_running()
        time.sleep(0.02)
    pytest.fail(f"{what} did not happen within {seconds} s\n{service.logs()}")


def metric_samples(url: str) -> dict[str, float]:
    """The samples of a Prometheus text page: ``name{labels}`` -> value."""
    samples = {}
    for line in requests.get(url, timeout=10).text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def test_defaults_are_applied_within_a_second_of_their_deadlines_while_bots_keep_the_worker_busy(service_processes):
    port = free_port()
    service_processes.worker("w1", env={"COSMIC_WORKER_METRICS": f"127.0.0.1:{port}"})
    runtime = runtime_of(service_processes)
    try:
        bot_games = [f"bots-{k}" for k in range(BOT_GAMES)]
        for game_id in bot_games:
            open_game(runtime, game_id, ["random"] * 4)
        timed = [f"timed-{k}" for k in range(TIMED_GAMES)]
        for game_id in timed:  # a person who never answers and two bots, 5 s for every decision
            open_game(runtime, game_id, [None, "random", "random"], decision_seconds=5)
        started = {game_id: runtime.store.version(game_id) for game_id in bot_games}

        def enough_timeouts():
            return sum(len(timer_lateness(runtime, game_id)) for game_id in timed) >= TIMEOUTS

        wait_until(enough_timeouts, 120, service_processes, f"{TIMEOUTS} timeouts")
        late = sorted(ms for game_id in timed for ms in timer_lateness(runtime, game_id).values())
        moved = {game_id: runtime.store.version(game_id) - started[game_id] for game_id in bot_games}
        assert all(count > 0 for count in moved.values()), f"the bots did not keep the worker busy: {moved}"
        p99 = late[min(len(late) - 1, round(0.99 * (len(late) - 1)))]
        assert min(late) >= 0 and p99 < BOUND_MS, f"timer lateness (ms): {late}\n{service_processes.logs()}"

        samples = metric_samples(f"http://127.0.0.1:{port}/metrics")
        assert samples["cosmic_timer_lateness_seconds_count"] >= len(late)
        assert samples['cosmic_timers_fired_total{result="applied"}'] >= len(late)
        assert samples["cosmic_bot_moves_total"] >= len(bot_games)  # (a move appends several events)
        assert samples["cosmic_bot_move_seconds_count"] == samples["cosmic_bot_moves_total"]
        assert {'cosmic_queue_depth{queue="default"}', 'cosmic_queue_depth{queue="high"}',
                'cosmic_queue_depth{queue="low"}', "cosmic_timers_pending"} <= samples.keys()
    finally:
        runtime.close()


def timeouts(runtime, game_id: str) -> list[tuple[str, int]]:
    """(prompt, time) of every default a timer applied, in order (a prompt twice would be a double expiry)."""
    return [(e["payload"]["prompt"], e["time"]) for e in runtime.store.read(game_id)
            if e["type"] == "DecisionTimedOut" and e["actor"] == "timer"]


def test_deadlines_that_passed_while_no_worker_ran_fire_within_a_second_of_a_worker_starting_each_once(
        service_processes):
    runtime = runtime_of(service_processes)
    try:
        first = service_processes.worker("w1")
        wait_until(lambda: runtime.rq_redis.exists(lock_key(runtime.queue(timers.QUEUE).name)), 30, service_processes,
                   "the first worker, running for a while (it holds RQ's scheduler locks)")
        games = [f"late-{k}" for k in range(3)]
        for game_id in games:  # two people who never answer: the first deadline is a second and a half away
            open_game(runtime, game_id, [None, None], at=now_ms() - 3500, decision_seconds=5)
        owed = {game_id: runtime.repository.current(game_id)["clock"] for game_id in games}
        service_processes.kill(first)  # SIGKILL: no worker runs now, and its locks stay behind in Redis
        service_processes.worker("w2")  # the new one starts while the deadlines pass
        wait_until(lambda: any(w.name.endswith("-w2") for w in Worker.all(queue=runtime.queue("default"))), 30,
                   service_processes, "the second worker", all_running=False)
        up = now_ms()
        wait_until(lambda: all(len(timeouts(runtime, game_id)) >= len(owed[game_id]) for game_id in games), 30,
                   service_processes, "the timers that fell due", all_running=False)
        time.sleep(1.5)  # a duplicate would have fired by now (the next deadlines are 5 s away)
        for game_id in games:
            fired = timeouts(runtime, game_id)
            assert sorted(prompt for prompt, _ in fired) == sorted(owed[game_id]), fired  # each, once
            late = [at - max(up, owed[game_id][prompt]) for prompt, at in fired]
            assert all(ms < 1000 for ms in late), (late, service_processes.logs())
    finally:
        runtime.close()
