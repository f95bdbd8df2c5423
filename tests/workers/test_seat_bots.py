"""Issue 30: a seat handed to a bot is played by the `play_bots` job at once, and no more once taken back;
the ``hand_over_after`` option hands a seat over from the timer's defaults (fakeredis and real Redis)."""

from __future__ import annotations

import random

import engine
from tests.workers import games
from tests.workers.test_bots import queued_bot_jobs, seat_game
from tests.workers.thread_jobs import run_jobs
from workers import bots, timers
from workers.clock import now_ms


def others_answer(runtime, game_id: str, rng, seat: str) -> int:
    """Every seat but ``seat`` answers what it owes now (random legal choices); returns how many answers."""
    answered = 0
    for _ in range(200):
        state = runtime.repository.current(game_id)
        owed = [p for p in engine.prompts(state) if p["player"] != seat]
        if state["status"] != "playing" or not owed:
            return answered
        games.random_move(runtime, game_id, rng, player=owed[0]["player"], view=bots.seat_view)
        answered += 1
    return answered


def owes(runtime, game_id: str, seat: str) -> bool:
    return any(p["player"] == seat for p in engine.prompts(runtime.repository.current(game_id)))


def play_until_owed(runtime, game_id: str, seat: str, rng) -> None:
    """The others play until ``seat`` owes a decision."""
    for _ in range(100):
        if owes(runtime, game_id, seat):
            return
        assert others_answer(runtime, game_id, rng, seat), "nobody owes anything"
    raise AssertionError(f"{seat} never owed a decision")


def test_a_seat_handed_to_a_bot_is_answered_by_the_job_the_hand_over_enqueued(runtime):
    seat_game(runtime, "g-hand", [None, None, None], seed="hand")
    rng = random.Random("hand")
    play_until_owed(runtime, "g-hand", "red", rng)
    assert queued_bot_jobs(runtime) == 0  # people only: no bot job yet
    handed = runtime.commands.run("g-hand", {"action": "hand_over", "seat": "red", "level": "heuristic",
                                             "actor": "red", "at": now_ms()})
    assert queued_bot_jobs(runtime) == 1  # the listener saw a bot owing a decision after the hand-over
    run_jobs(runtime, scheduler=False)
    assert not owes(runtime, "g-hand", "red") or runtime.repository.current("g-hand")["status"] != "playing"
    after = runtime.store.read("g-hand", after=handed.version)
    assert any(e["actor"] == "red" for e in after), "the bot answered as red"
    for _ in range(20):  # a few more of the others' moves: the bot keeps answering red's decisions
        others_answer(runtime, "g-hand", rng, "red")
        run_jobs(runtime, scheduler=False)
    assert not bots.owed_by_bots(runtime.repository.current("g-hand"))


def test_after_taking_the_seat_back_the_bot_answers_nothing_more(runtime):
    seat_game(runtime, "g-back", [None, None, None], seed="back")
    rng = random.Random("back")
    runtime.commands.run("g-back", {"action": "hand_over", "seat": "red", "level": "random", "at": now_ms()})
    run_jobs(runtime, scheduler=False)
    runtime.commands.run("g-back", {"action": "take_back", "seat": "red", "actor": "red", "at": now_ms()})
    play_until_owed(runtime, "g-back", "red", rng)
    version = runtime.store.version("g-back")
    assert queued_bot_jobs(runtime) == 0
    run_jobs(runtime, scheduler=False)
    assert runtime.store.version("g-back") == version and owes(runtime, "g-back", "red")  # red waits for its person
    assert bots.play_bots("g-back", None)["moves"] == 0  # even a job run anyway


def test_a_seat_that_misses_its_decisions_is_handed_over_by_the_timer_and_the_bot_plays_on(runtime):
    options = {"decision_seconds": 5, "hand_over_after": {"missed": 2, "level": "heuristic"}}
    games.play(runtime, "g-gone", games.lobby("missed", 3, options))
    rng = random.Random("missed")
    applied = []
    for _ in range(2):
        play_until_owed(runtime, "g-gone", "red", rng)
        owed = next(p for p in engine.prompts(runtime.repository.current("g-gone")) if p["player"] == "red")
        report = timers.expire(runtime, "g-gone", owed["id"], owed["deadline"], now=owed["deadline"])
        assert report["result"] == "applied", report
        applied.append(report)
    assert "SeatHandedToBot" not in applied[0]["events"] and "SeatHandedToBot" in applied[1]["events"]
    state = runtime.repository.current("g-gone")
    assert state["players"]["red"]["bot"] == "heuristic" and state["players"]["red"]["handed_over"] == "missed"
    handed = next(e for e in runtime.store.read("g-gone") if e["type"] == "SeatHandedToBot")
    assert handed["payload"] == {"player": "red", "level": "heuristic", "reason": "missed", "missed": 2}
    run_jobs(runtime, scheduler=False)
    for _ in range(10):
        others_answer(runtime, "g-gone", rng, "red")
        run_jobs(runtime, scheduler=False)
    later = runtime.store.read("g-gone", after=handed["seq"])
    assert any(e["actor"] == "red" for e in later), "the bot answers red's decisions"
    assert engine.fold(runtime.store.read("g-gone")) == runtime.repository.current("g-gone")
