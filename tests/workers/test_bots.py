"""Bot seats: the `play_bots` job answers the decisions of seats that joined as bots (fakeredis and real Redis)."""

from __future__ import annotations

import dataclasses
import random
import threading

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
ANSWER = bots.answer  # (the tests that replace it still make other workers' moves with the real one)


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


def take_queued_bot_job(runtime):
    """Take the one waiting `play_bots` job off the queue (as a worker does when it starts it); returns it."""
    [job] = [job for job in runtime.queue("default").get_jobs() if job.func_name.endswith("play_bots")]
    runtime.queue("default").remove(job)
    return job


def bot_move_elsewhere(runtime, game_id: str) -> int:
    """One bot move appended by another thread (another worker's job, as far as the listener knows); the new version."""
    def move():
        state = runtime.repository.current(game_id)
        result, _ = ANSWER(runtime, game_id, state, bots.owed_by_bots(state)[0])
        assert result == "moved"
    thread = threading.Thread(target=move)
    thread.start()
    thread.join()
    return runtime.store.version(game_id)


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
        job = take_queued_bot_job(runtime)  # as a worker starts it
        result = bots.play_bots(*job.args, **job.kwargs)
        results.append(result)
        assert result["moves"] <= 25
        # the job's own appends enqueue nothing; a job that spends its budget enqueues exactly one successor
        assert queued_bot_jobs(runtime) == (1 if result["stopped"] == "handed-over" else 0)
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


# --- one waiting job per game ------------------------------------------------------------------

def test_appends_while_a_bot_job_waits_queue_no_second_one(runtime):
    with_settings(runtime, bot_moves=5)
    seat_game(runtime, "g-pile", ["random", "random", "heuristic"], seed="pile")
    assert queued_bot_jobs(runtime) == 1  # enqueued by the start's append
    versions = [bot_move_elsewhere(runtime, "g-pile") for _ in range(12)]
    assert versions == sorted(set(versions)), "twelve appends, each leaving a bot owing"
    assert queued_bot_jobs(runtime) == 1, "the waiting job will read the game after all of them"
    job = take_queued_bot_job(runtime)
    assert job.args[0] == "g-pile" and runtime.redis.get(bots.queued_key(runtime, "g-pile")) is not None
    assert bots.play_bots(*job.args, **job.kwargs)["stopped"] == "handed-over"
    assert queued_bot_jobs(runtime) == 1  # its successor, under a marker of its own


def test_an_append_after_the_job_started_queues_the_next_one(runtime):
    seat_game(runtime, "g-next", ["random", "heuristic"], seed="next")
    job = take_queued_bot_job(runtime)
    holder = Lease(runtime.redis, runtime.store.game_key("g-next", "bots:lease"), 30_000)
    assert holder.acquire()  # the job starts while another plays the game's bots: it does nothing
    assert bots.play_bots(*job.args, **job.kwargs)["stopped"] == "busy"
    assert queued_bot_jobs(runtime) == 0
    holder.release()
    bot_move_elsewhere(runtime, "g-next")
    assert queued_bot_jobs(runtime) == 1, "the started job had cleared the marker"
    bot_move_elsewhere(runtime, "g-next")
    assert queued_bot_jobs(runtime) == 1


def test_an_append_during_a_job_is_answered_by_the_job_it_queues(runtime, monkeypatch):
    with_settings(runtime, bot_moves=3)
    seat_game(runtime, "g-during", ["random", "random"], seed="during")
    job = take_queued_bot_job(runtime)
    first_answer = ANSWER
    appended = []

    def answer_after_another_append(runtime_, game_id, state, prompt):
        if not appended:  # another worker's bot move lands between the job's read and its answer
            appended.append(bot_move_elsewhere(runtime, game_id))
        return first_answer(runtime_, game_id, state, prompt)

    monkeypatch.setattr(bots, "answer", answer_after_another_append)
    result = bots.play_bots(*job.args, **job.kwargs)
    assert appended and result == {"game_id": "g-during", "moves": 3, "stopped": "handed-over"}
    # the append queued a job; the budget's hand-over found it waiting and queued none of its own
    [waiting] = [j for j in runtime.queue("default").get_jobs() if j.func_name.endswith("play_bots")]
    assert runtime.redis.get(bots.queued_key(runtime, "g-during")).decode() == waiting.kwargs["queued"]
    monkeypatch.setattr(bots, "answer", first_answer)
    version = runtime.store.version("g-during")
    job = take_queued_bot_job(runtime)
    assert bots.play_bots(*job.args, **job.kwargs)["moves"] == 3
    assert runtime.store.version("g-during") > version
    assert queued_bot_jobs(runtime) == 1  # the next hand-over


def test_a_person_against_bots_never_waits_on_a_bot_and_no_job_piles_up(runtime):
    seat_game(runtime, "g-rounds", [None, "random", "heuristic"], seed="rounds")
    rng = random.Random("rounds")
    rounds = 0
    while runtime.repository.current("g-rounds")["status"] == "playing" and rounds < 5000:
        assert queued_bot_jobs(runtime) <= 1
        run_jobs(runtime, scheduler=False)
        state = runtime.repository.current("g-rounds")
        assert queued_bot_jobs(runtime) == 0
        assert state["status"] != "playing" or not bots.owed_by_bots(state), "a bot decision left unanswered"
        human_answers(runtime, "g-rounds", rng)
        rounds += 1
    assert runtime.repository.current("g-rounds")["status"] == "finished"


def test_the_queued_marker_lives_in_the_games_own_slot(runtime):
    key = bots.queued_key(runtime, "g-slot")
    assert "{g-slot}" in key and key == runtime.store.game_key("g-slot", "bots:queued")
    assert bots.enqueue(runtime, "g-slot", None) and not bots.enqueue(runtime, "g-slot", None)
    assert 0 < runtime.redis.pttl(key) <= bots.QUEUED_MS  # a job lost with its queue holds it back only so long
    assert bots.enqueue(runtime, "g-slot", None, force=True)  # the sweep's
    assert queued_bot_jobs(runtime) == 2


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
