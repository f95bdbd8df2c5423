"""Rewinds and forks meet the other workers: decision clocks, bot seats and webhooks (fakeredis and real Redis).

A rewind appends a ``GameRewound`` marker whose ``clock_shift`` gives the decisions owed at N
back the time they had left; a fork of a game owing timed decisions ends with such a marker
too. Both run the command runner's listeners, so the timers, bots and webhooks listeners see
them as they see any append: timers are set for the shifted deadlines (the timers of the
abandoned line find their decisions gone or moved and do nothing), a bot owing a decision at
N is asked to play, and subscribers receive the marker and what follows it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time

import engine
from projections import views
from tests.workers.games import lobby, play, random_move, recorded_commands
from tests.workers.hooks import SECRET, check_deliveries, deliverable
from tests.workers.thread_jobs import installed, run_jobs, run_jobs_until
from workers import bots, timers, webhooks
from workers.embedded import EmbeddedWorker
from workers.fork import fork
from workers.rewind import rewind
from workers.runtime import Runtime
from workers.settings import Settings

HUMANS = {"red": ["Human"], "blue": ["Human"]}
SHIFTED_IN_MS = 1500  # the shifted deadline: this far in the future when the rewind (or fork) is made


# --- decision clocks ------------------------------------------------------------------------------------

def timed_game(service_game, game_id: str):
    """Red owes its launch (decision_seconds 5, stamped a minute ago: its deadline is long past); N is now.

    Then the game moves on (red launches): both main players owe challenge cards, with timers of their own.
    """
    g = service_game(game_id, players=2, powers=HUMANS, destiny=["blue.1"], options={"decision_seconds": 5})
    launch = g.owe("red", "launch")
    n, at_n = g.state["v"], g.state["time"]
    g.launch({"red-0": 1}, "blue-0")
    moved_on = [p for p in g.prompts() if p["kind"] == "challenge_card"]
    assert len(moved_on) == 2 and all(p["deadline"] for p in moved_on)
    return g, launch, n, at_n, moved_on


def timer(runtime, game_id: str, prompt_id: str, deadline: int) -> str:
    """The scheduled timer of (game, prompt, deadline), due at its deadline (fails when there is none)."""
    name = timers.member(game_id, prompt_id, deadline)
    assert runtime.rq_redis.zscore(timers.due_key(runtime.settings.prefix), name) == deadline, \
        f"no timer for {prompt_id} at {deadline}"
    return name


def wait_past(deadline_ms: int) -> None:
    """Sleep until a timer of this deadline is due."""
    time.sleep(max(0.0, deadline_ms / 1000 - time.time() + 0.05))


def fire_due(runtime) -> dict[str, dict]:
    """Fire every due timer now; each one's report by its name."""
    return {timers.member(r["game"], r["prompt"], r["deadline"]): r for r in timers.fire_due(runtime)}


def timeouts(runtime, game_id: str, after: int = 0) -> list[str]:
    """The prompts whose timers applied their default after version ``after``."""
    return [e["payload"]["prompt"] for e in runtime.store.read(game_id, after=after) if e["type"] == "DecisionTimedOut"]


def test_a_rewind_sets_timers_for_the_shifted_deadlines_and_the_abandoned_timers_do_nothing(runtime, service_game):
    g, launch, n, at_n, moved_on = timed_game(service_game, "g-clock")
    abandoned = [timer(runtime, "g-clock", p["id"], p["deadline"]) for p in moved_on]
    assert timers.pending(runtime) == len(abandoned)  # (the launch's timer went when red launched)

    at = timers.wall_ms() - 5000 + SHIFTED_IN_MS  # the launch had 5 s left at N: they end SHIFTED_IN_MS from now
    result = rewind(runtime, "g-clock", n, at=at)
    marker = runtime.store.read("g-clock", after=result["version"] - 1)[0]
    assert marker["type"] == "GameRewound" and marker["payload"]["clock_shift"] == at - at_n
    shifted = launch["deadline"] + (at - at_n)
    assert g.refresh()["clock"] == {launch["id"]: shifted}
    new = timer(runtime, "g-clock", launch["id"], shifted)
    assert timers.pending(runtime) == 1  # the abandoned line's timers went with it

    # timers that escaped (a lost drop, a duplicate) find their decision moved or gone
    old = timers.expire(runtime, "g-clock", launch["id"], launch["deadline"], now=launch["deadline"])
    assert (old["result"], old["detail"]) == \
        ("stale", f"the decision's deadline is now {shifted}, not {launch['deadline']}")
    assert [timers.expire(runtime, *timers.parse_member(name))["detail"] for name in abandoned] == \
        ["the decision is no longer owed"] * 2

    wait_past(shifted)
    reports = fire_due(runtime)
    assert list(reports) == [new] and reports[new]["result"] == "applied"
    assert timeouts(runtime, "g-clock", after=result["version"]) == [launch["id"]]
    timed_out = next(e for e in runtime.store.read("g-clock", after=result["version"])
                     if e["type"] == "DecisionTimedOut")
    assert timed_out["actor"] == "timer" and timed_out["time"] >= shifted

    # the same timer run again (a duplicate) finds the decision answered
    again = timers.expire(runtime, *timers.parse_member(new))
    assert again["result"] == "stale"
    assert timeouts(runtime, "g-clock", after=result["version"]) == [launch["id"]]


def test_a_fork_sets_timers_for_its_shifted_deadlines_in_the_new_game(runtime, service_game):
    g, launch, n, at_n, moved_on = timed_game(service_game, "g-orig")
    at = timers.wall_ms() - 5000 + SHIFTED_IN_MS
    made = fork(runtime, "g-orig", n, new_id="g-fork", at=at)
    assert made["version"] == n + 1  # the copy of N events and the marker that gives the launch its time back
    shifted = launch["deadline"] + (at - at_n)
    assert runtime.repository.current("g-fork")["clock"] == {launch["id"]: shifted}
    new = timer(runtime, "g-fork", launch["id"], shifted)
    original = timers.member("g-orig", launch["id"], launch["deadline"])  # (dropped when red launched)

    wait_past(shifted)
    reports = fire_due(runtime)
    assert reports[new]["result"] == "applied" and original not in reports
    assert timers.expire(runtime, *timers.parse_member(original))["result"] == "stale"
    assert timeouts(runtime, "g-fork", after=n) == [launch["id"]]
    assert launch["id"] not in timeouts(runtime, "g-orig")  # the original's launch was answered, not timed out
    assert timers.expire(runtime, *timers.parse_member(new))["result"] == "stale"
    assert timeouts(runtime, "g-fork", after=n) == [launch["id"]]


# --- bot seats ------------------------------------------------------------------------------------------

def queued_bot_jobs(runtime, game_id: str) -> int:
    """How many `play_bots` jobs for ``game_id`` wait in the bots' queue."""
    return sum(1 for job in runtime.queue(bots.QUEUE).get_jobs()
               if job.func_name.endswith("play_bots") and job.args[0] == game_id)


def bot_actions(runtime, game_id: str, after: int, color: str = "blue") -> list[dict]:
    return [e for e in runtime.store.read(game_id, after=after) if e["actor"] == color]


def game_with_a_bot(runtime, game_id: str) -> tuple[int, dict, random.Random]:
    """A person (red) against a heuristic bot (blue), played until the bot owes a decision after red's move
    and a little further; returns that version N, the state at N and the person's random source."""
    play(runtime, game_id, lobby("bot-history", players=2, bots=[None, "heuristic"]))
    rng = random.Random("bot-history")
    n = None
    for _ in range(200):
        run_jobs(runtime, scheduler=False)  # the bot answers what it owes
        moved = random_move(runtime, game_id, rng, player="red", view=bots.seat_view)
        assert moved is not None, "the person owes a decision whenever the bot has none"
        state = runtime.repository.current(game_id)
        if n is None and bots.owed_by_bots(state):
            n, at_n = state["v"], state
        if n is not None and state["v"] > n + 30:
            break
    assert n is not None, "the bot never owed a decision right after the person's move"
    run_jobs(runtime, scheduler=False)
    return n, at_n, rng


def test_after_a_rewind_to_a_decision_a_bot_owes_the_bot_plays_on(runtime):
    n, at_n, rng = game_with_a_bot(runtime, "g-bot")
    owed = {p["id"] for p in bots.owed_by_bots(at_n)}
    assert queued_bot_jobs(runtime, "g-bot") == 0
    result = rewind(runtime, "g-bot", n)
    assert queued_bot_jobs(runtime, "g-bot") == 1  # the bots listener saw the marker
    run_jobs(runtime, scheduler=False)
    answered = bot_actions(runtime, "g-bot", after=result["version"])
    assert answered, "the bot answered after the rewind"
    assert not owed & {p["id"] for p in bots.owed_by_bots(runtime.repository.current("g-bot"))}
    # and plays on with the person
    for _ in range(20):
        random_move(runtime, "g-bot", rng, player="red", view=bots.seat_view)
        run_jobs(runtime, scheduler=False)
    assert len(bot_actions(runtime, "g-bot", after=result["version"])) > len(answered)
    state = runtime.repository.current("g-bot")
    assert engine.fold(runtime.store.read("g-bot")) == state


def test_a_forks_bot_seats_are_still_bots_and_play(runtime):
    n, at_n, _ = game_with_a_bot(runtime, "g-bots-orig")
    made = fork(runtime, "g-bots-orig", n, new_id="g-bots-fork")
    state = runtime.repository.current("g-bots-fork")
    assert bots.bot_seats(state) == {"blue": "heuristic"} and bots.owed_by_bots(state)
    assert queued_bot_jobs(runtime, "g-bots-fork") == 1
    run_jobs(runtime, scheduler=False)
    assert bot_actions(runtime, "g-bots-fork", after=made["version"])
    after = runtime.repository.current("g-bots-fork")
    assert not bots.owed_by_bots(after) and any(p["player"] == "red" for p in engine.prompts(after))


def test_a_bot_owing_at_a_rewind_made_on_the_data_folder_plays_when_the_embedded_service_starts(tmp_path,
                                                                                                key_prefix):
    settings = Settings(prefix=key_prefix, admin_token="adm")  # no REDIS_URL: each runtime has its own Redis
    first = Runtime(settings)
    first.attach_data_folder(tmp_path)
    with installed(first):
        n, _, _ = game_with_a_bot(first, "g-kept")
    first.close()
    cli = Runtime(settings)  # `cosmic rewind` on the folder: its Redis, with the bot job queued, dies with it
    cli.attach_data_folder(tmp_path)
    marker = rewind(cli, "g-kept", n)["version"]
    cli.close()
    served = Runtime(settings)  # `cosmic serve` starts again
    served.attach_data_folder(tmp_path)
    assert bots.owed_by_bots(served.repository.current("g-kept"))
    worker = None
    try:
        with installed(served):
            worker = EmbeddedWorker(served, interval=0.1).start()
            deadline = time.monotonic() + 10
            while not bot_actions(served, "g-kept", after=marker) and time.monotonic() < deadline:
                time.sleep(0.1)
    finally:
        if worker is not None:
            worker.stop()
        served.close()
    assert bot_actions(served, "g-kept", after=marker), "the bot answered once the service was back"


# --- webhooks -------------------------------------------------------------------------------------------

def test_subscribers_receive_the_rewind_marker_and_the_events_after_it_in_order(runtime, receiver):
    runtime.settings = dataclasses.replace(runtime.settings, webhook_allow_private=True, webhook_backoff=0.2)
    sink = receiver()
    subs = webhooks.subscriptions(runtime)
    subs.create(sink.url("/admin"), secret=SECRET, game_id=None, event_types=None, viewer="admin",
                created_by="admin")
    commands = recorded_commands("hooks-rewind", commands=70, players=2, options={"decision_seconds": 60})
    n = play(runtime, "g-hooks", commands[:40])["v"]
    subs.create(sink.url("/red"), secret=SECRET, game_id="g-hooks", event_types=None, viewer="red",
                created_by="red", after=0)
    subs.create(sink.url("/history"), secret=SECRET, game_id="g-hooks", event_types=["GameRewound"],
                viewer="public", created_by="admin", after=0)
    play(runtime, "g-hooks", commands[40:])
    head = runtime.store.version("g-hooks")
    rewind(runtime, "g-hooks", n)
    play(runtime, "g-hooks", commands[40:50])
    events = runtime.store.read("g-hooks")
    expected = deliverable(events)
    # without the scheduler: the timers of the decisions (stamped long ago) must not move the game on meanwhile
    run_jobs_until(runtime, lambda: len(sink.accepted()) >= 2 * len(expected) + 1, scheduler=False)

    check_deliveries(sink.accepted("/admin"), expected)
    check_deliveries(sink.accepted("/red"), expected, viewer="red")
    check_deliveries(sink.accepted("/history"), [events[head]], viewer=None)
    marker = json.loads(sink.accepted("/red")[[e["seq"] for e in expected].index(head + 1)]["body"])
    assert marker["type"] == "GameRewound" and marker["seq"] == head + 1
    assert set(marker["payload"]) == {"to_version", "by", "players", "clock_shift"}
    assert marker["payload"]["to_version"] == n and marker["payload"]["clock_shift"] > 0
    assert "hash" not in marker and "prev_hash" not in marker
    # cards only blue saw (drawn, or committed face down) stay hidden from red's subscription, in the
    # abandoned line as after the rewind
    private = {e["seq"]: ("cards" if e["type"] == "CardsMoved" else "card") for e in events
               if e["type"] in ("CardsMoved", "ChallengeCardChosen") and e["payload"].get("seen_by") == ["blue"]}
    assert any(n < seq <= head for seq in private), "blue had cards of its own in the abandoned line"
    for body in (json.loads(r["body"]) for r in sink.accepted("/red")):
        if body["seq"] in private:
            hidden = body["payload"][private[body["seq"]]]
            assert (set(hidden) if isinstance(hidden, list) else {hidden}) == {None}, body


def test_an_all_games_subscription_receives_a_fork_from_its_first_event(runtime, receiver):
    sink = receiver()
    webhooks.subscriptions(runtime).create(sink.url("/all"), secret=SECRET, game_id=None, event_types=None,
                                           viewer="public", created_by="admin")
    commands = recorded_commands("hooks-fork", commands=40, players=2)
    n = play(runtime, "g-hooks-orig", commands[:30])["v"]
    play(runtime, "g-hooks-orig", commands[30:])
    fork(runtime, "g-hooks-orig", n, new_id="g-hooks-fork")
    forked = runtime.store.read("g-hooks-fork")
    run_jobs_until(runtime, lambda: len(sink.accepted()) >= len(deliverable(runtime.store.read("g-hooks-orig")))
                   + len(deliverable(forked)))
    received = [r for r in sink.accepted() if r["headers"]["X-Cosmic-Game"] == "g-hooks-fork"]
    check_deliveries(received, deliverable(forked), viewer=None)
    created = json.loads(received[0]["body"])
    assert created["type"] == "GameCreated" and created["payload"]["seed"] is None
    assert views.board(runtime.repository.current("g-hooks-fork"))["game_id"] == "g-hooks-fork"
