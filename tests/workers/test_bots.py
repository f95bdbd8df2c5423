"""Bot seats: the `play_bots` job answers the decisions of seats that joined as bots (fakeredis and real Redis)."""

from __future__ import annotations

import dataclasses
import random

import pytest

import engine
from engine.errors import EngineError
from engine.players import heuristic_command, random_command
from engine.simulate import new_game
from tests.workers import games
from tests.workers.thread_jobs import run_jobs
from workers import bots
from workers.leases import Lease

HUMAN = "red"


def seat_game(runtime, game_id: str, seats: list[str | None], seed: str = "bots") -> dict:
    """Create a game, seat a person (None) or a bot ("random"/"heuristic") per entry, start it."""
    return games.play(runtime, game_id, games.lobby(seed, bots=seats, names="seat {k}"))


def human_answers(runtime, game_id: str, rng) -> int:
    """The person (red) answers every decision it owes now with random legal choices; returns how many."""
    answered = 0
    while games.random_move(runtime, game_id, rng, player=HUMAN, view=bots.seat_view) is not None:
        answered += 1
    return answered


def queued_bot_jobs(runtime) -> int:
    """How many `play_bots` jobs wait in the default queue."""
    return sum(1 for job in runtime.queue("default").get_jobs() if job.func_name.endswith("play_bots"))


def with_settings(runtime, **changes):
    runtime.settings = dataclasses.replace(runtime.settings, **changes)
    return runtime


def test_a_person_plays_two_bots_to_the_end_and_only_the_worker_moves_the_bots(runtime):
    seat_game(runtime, "g-pvb", [None, "heuristic", "random"], seed="pvb")
    rng = random.Random("pvb")
    human_moves = 0
    for _ in range(5000):
        state = runtime.repository.current("g-pvb")
        if state["status"] != "playing":
            break
        human_moves += human_answers(runtime, "g-pvb", rng)
        run_jobs(runtime, scheduler=False)  # the bot jobs the appends enqueued
    state = runtime.repository.current("g-pvb")
    assert state["status"] == "finished" and state["winners"]
    events = runtime.store.read("g-pvb")
    bot_actions = [e for e in events if e["actor"] in ("blue", "yellow")]
    assert human_moves > 0 and bot_actions, "both the person and the bots decided things"
    assert engine.fold(events) == state


def test_the_listener_enqueues_a_job_only_when_a_bot_owes(runtime):
    seat_game(runtime, "g-people", [None, None], seed="people")
    assert queued_bot_jobs(runtime) == 0
    state = seat_game(runtime, "g-mixed", [None, "random"], seed="mixed")
    owes = bots.owed_by_bots(state)
    assert queued_bot_jobs(runtime) == (1 if owes else 0)
    assert {p["player"] for p in owes} <= {"blue"}


def test_bots_alone_finish_a_game_in_jobs_of_bounded_length(runtime):
    with_settings(runtime, bot_moves=25)
    seat_game(runtime, "g-bots", ["heuristic", "random", "heuristic"], seed="alone")
    assert queued_bot_jobs(runtime) == 1  # enqueued by the start's append
    results = []
    for _ in range(1000):
        before = queued_bot_jobs(runtime)
        result = bots.play_bots("g-bots", None)
        results.append(result)
        assert result["moves"] <= 25
        # the job's own appends enqueue nothing; a job that spends its budget enqueues exactly one successor
        assert queued_bot_jobs(runtime) == before + (1 if result["stopped"] == "handed-over" else 0)
        if result["stopped"] != "handed-over":
            break
    state = runtime.repository.current("g-bots")
    assert state["status"] == "finished" and state["winners"]
    assert len(results) > 2 and results[-1]["stopped"] == "idle"


def test_a_stale_or_repeated_job_is_harmless(runtime):
    seat_game(runtime, "g-stale", [None, "heuristic"], seed="stale")
    bots.play_bots("g-stale", 1)  # a job made for an old version acts on the current state
    state = runtime.repository.current("g-stale")
    assert not bots.owed_by_bots(state) and any(p["player"] == HUMAN for p in engine.prompts(state))
    again = bots.play_bots("g-stale", 1)
    assert again["moves"] == 0 and runtime.store.version("g-stale") == state["v"]
    again = bots.play_bots("g-stale", state["v"])
    assert again["moves"] == 0 and runtime.store.version("g-stale") == state["v"]


def test_a_job_finding_another_at_work_does_nothing_and_looks_again_once_later(runtime):
    seat_game(runtime, "g-busy", ["random", "random"], seed="busy")
    version = runtime.store.version("g-busy")
    holder = Lease(runtime.redis, runtime.store.game_key("g-busy", "bots:lease"), 30_000)
    assert holder.acquire()
    scheduled = runtime.queue("default").scheduled_job_registry
    assert bots.play_bots("g-busy", version) == {"game_id": "g-busy", "moves": 0, "stopped": "busy"}
    assert bots.play_bots("g-busy", version)["stopped"] == "busy"
    assert runtime.store.version("g-busy") == version
    assert scheduled.count == 1  # one look for when the holder's lease would expire, not one per job
    holder.release()
    assert bots.play_bots("g-busy", version)["moves"] > 0


def test_bots_owing_decisions_at_the_same_time_are_all_answered(runtime):
    with_settings(runtime, bot_moves=1)
    seat_game(runtime, "g-simul", ["random", "heuristic", "random", "heuristic"], seed="simul")
    for _ in range(500):  # one bot decision at a time until several bots owe at once
        state = runtime.repository.current("g-simul")
        owed = bots.owed_by_bots(state)
        if len({p["player"] for p in owed}) > 1:
            break
        bots.play_bots("g-simul", None)
    else:
        pytest.fail("no two bots owed decisions at the same time")
    with_settings(runtime, bot_moves=len(owed))
    result = bots.play_bots("g-simul", state["v"])
    assert result["moves"] == len(owed)
    after = runtime.store.read("g-simul", after=state["v"])
    assert {p["player"] for p in owed} <= {e["actor"] for e in after}
    still = {p["id"] for p in engine.prompts(runtime.repository.current("g-simul"))}
    assert not still & {p["id"] for p in owed}


def test_a_bot_sees_only_its_own_seat_and_chooses_as_it_would_with_everything():
    state, _ = new_game("view", 4)
    view = bots.seat_view(state, "blue")
    assert view["players"]["blue"]["hand"] == state["players"]["blue"]["hand"]
    for color in ("red", "yellow", "purple"):
        assert view["players"][color]["hand"] == [None] * len(state["players"][color]["hand"])
    assert not {"deck", "destiny", "aside", "seed", "agenda", "setup"} & set(view)
    rng, clock = random.Random("view"), 0
    compared = 0
    while state["status"] == "playing" and compared < 400:
        prompt = rng.choice(engine.prompts(state))
        for chooser in (random_command, heuristic_command):
            seed = rng.random()
            full = chooser(state, prompt, random.Random(seed))
            seen = chooser(bots.seat_view(state, prompt["player"]), prompt, random.Random(seed))
            assert seen == full, f"{chooser.__name__} read hidden information at {prompt['id']}"
            compared += 1
        clock += 1000
        for _ in range(30):
            command = random_command(state, prompt, rng)
            command["at"] = clock
            try:
                _, state = engine.execute(state, command)
                break
            except EngineError:
                continue
        else:
            break
    assert compared >= 100


def test_the_periodic_sweep_wakes_bots_whose_job_was_lost(runtime):
    from workers import sweep
    state = seat_game(runtime, "g-lost", ["random", "heuristic"], seed="lost")
    assert bots.owed_by_bots(state), "a bot owes a decision once the game starts"
    runtime.queue("default").empty()  # the after-append job, lost with a crashed worker
    assert queued_bot_jobs(runtime) == 0
    counts = sweep.sweep()
    assert counts["bots"] == {"games": 1, "enqueued": 1}
    assert queued_bot_jobs(runtime) == 1
    version = state["v"]
    run_jobs(runtime, scheduler=False)
    assert runtime.repository.current("g-lost")["v"] > version, "the woken bots played on"


def test_an_expert_seat_plays_a_whole_game_in_jobs_with_the_settings_budget(runtime, monkeypatch):
    """The expert seat's decisions go through the same job, with the budget of the settings (kept small here)."""
    with_settings(runtime, expert_steps=30, expert_seconds=5.0)
    seen = []
    real = bots.LEVELS["expert"]

    def watched(view, prompt, rng, **budget):
        seen.append((sorted(budget), "seed" in view, view.get("seat")))
        return real(view, prompt, rng, **budget)

    watched.view, watched.budgeted = real.view, True
    monkeypatch.setitem(bots.LEVELS, "expert", watched)
    seat_game(runtime, "g-expert", ["expert", "heuristic", "random"], seed="expert")
    for _ in range(1000):
        result = bots.play_bots("g-expert", None)
        if result["stopped"] != "handed-over":
            break
    state = runtime.repository.current("g-expert")
    assert state["status"] == "finished" and state["winners"]
    expert_seat = state["order"][0]
    assert seen and all(keys[:2] == ["seconds", "steps"] for keys, _, _ in seen)
    assert {(has_seed, seat) for _, has_seed, seat in seen} == {(False, expert_seat)}  # its knowledge only
    assert any(e["actor"] == expert_seat for e in runtime.store.read("g-expert"))
