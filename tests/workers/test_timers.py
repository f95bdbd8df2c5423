"""Decision clocks (workers/timers.py): a timer per deadline, its expiry applied once, stale timers ignored.

Games are played through the runtime's command runner (`ServiceGame`), so the timer listener
sees every append exactly as in the service. Due timers are fired in the test's thread
(`run_jobs`, `timers.fire_due`: what the clock thread of a worker does), or `expire` is called
directly with an explicit clock. Every test runs on fakeredis and, with REDIS_URL, again on real
Redis (and on the cluster).
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import fakeredis

from tests.workers.games import HUMANS, RED_HAND, compromises, runtime_on
from tests.workers.thread_jobs import run_jobs
from workers import runtime as runtime_module
from workers import sweep, timers
from workers.embedded import EmbeddedWorker
from workers.runtime import Runtime
from workers.settings import Settings


def deal_prompts(g) -> dict:
    return {p["player"]: p for p in g.prompts() if p["kind"] == "deal"}


def ServiceGameView(runtime, game_id):  # noqa: N802 (what `timed_out` needs of a game)
    return SimpleNamespace(runtime=runtime, game_id=game_id)


def timed_out(g) -> list[dict]:
    return [e for e in g.runtime.store.read(g.game_id) if e["type"] == "DecisionTimedOut"]


def scheduled(runtime) -> dict[tuple, int]:
    """The timers waiting for their deadline: (game, prompt, deadline) -> when they fire (ms)."""
    due = runtime.rq_redis.zrange(timers.due_key(runtime.settings.prefix), 0, -1, withscores=True)
    return {timers.parse_member(name): int(score) for name, score in due}


# Scheduling ---------------------------------------------------------------------------------------------

def test_opening_a_deal_schedules_a_timer_per_deal_prompt_due_at_its_deadline_to_the_millisecond(runtime,
                                                                                                  service_game):
    g = compromises(service_game, "g-sched", 30_000)
    owed = deal_prompts(g)
    deadline = owed["red"]["deadline"]
    assert deadline == owed["blue"]["deadline"] == g.clock + 5000
    assert scheduled(runtime) == {("g-sched", p["id"], deadline): deadline for p in owed.values()}


def test_a_deadline_is_never_scheduled_twice(runtime, service_game):
    g = compromises(service_game, "g-twice", 30_000)
    prompt = deal_prompts(g)["red"]
    assert timers.schedule(runtime, "g-twice", prompt["id"], prompt["deadline"]) == "pending"
    assert timers.sweep_runtime(runtime, ["g-twice"]) == {"games": 1, "scheduled": 0, "pending": 2}
    assert len(scheduled(runtime)) == 2


def test_a_timer_being_fired_is_not_scheduled_again_and_one_whose_clock_died_is_due_again(runtime, service_game):
    g = compromises(service_game, "g-claim", -1000)
    prompt = deal_prompts(g)["red"]
    now = timers.wall_ms()
    claimed, _ = timers.claim(runtime, now)
    assert sorted(claimed) == sorted(timers.member("g-claim", p["id"], prompt["deadline"]) for p in deal_prompts(g).values())
    assert timers.claim(runtime, now) == ([], None)  # another clock finds nothing to fire
    assert timers.schedule(runtime, "g-claim", prompt["id"], prompt["deadline"]) == "pending"
    again, _ = timers.claim(runtime, now + timers.CLAIM_MS + 1)  # the first clock died mid-fire
    assert sorted(again) == sorted(claimed)
    for one in again:
        timers.fire_claimed(runtime, one)
    assert len(timed_out(g)) == 1 and timers.pending(runtime) == 0


def test_decisions_without_a_deadline_get_no_timer(runtime, service_game):
    g = service_game("g-none", players=2, powers=HUMANS)
    assert [p["deadline"] for p in g.prompts()] == [None]
    assert scheduled(runtime) == {}


# Expiry --------------------------------------------------------------------------------------------------

def test_an_expired_deal_fails_and_both_main_players_lose_three_tokens(runtime, service_game):
    g = compromises(service_game, "g-deal", -1000, launch={"red-0": 2})
    assert run_jobs(runtime)
    g.refresh()
    concluded = [e["payload"] for e in runtime.store.read("g-deal") if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert [e["actor"] for e in timed_out(g)] == ["timer"]
    red = g.owe("red", "choose_losses")
    assert red["info"] == {"count": 3, "reason": "deal failed"}
    g.lose("red", {"cone:offense": 2, "red-1": 1})
    g.lose("blue", {"blue-0": 3})
    assert (g.warp("red"), g.warp("blue")) == (3, 3)


def test_the_losses_default_takes_from_the_cone_first_then_the_biggest_places(runtime, service_game):
    g = compromises(service_game, "g-losses", -1000, launch={"red-0": 2}, decision_seconds=5)
    deal = deal_prompts(g)["red"]
    timers.expire(runtime, "g-losses", deal["id"], deal["deadline"])
    # red: its 2 tokens on the cone, then 1 from the first of its fullest bases; blue: 3 from its fullest
    for player, expected in (("red", {"cone:offense": 2, "red-1": 1}), ("blue", {"blue-0": 3})):
        g.refresh()
        events = expire_now(g, owed_with_deadline(g, player, "choose_losses"))
        moves = [m for e in events if e["type"] == "TokensMoved" for m in e["payload"]["moves"]]
        assert {src: n for color, src, dst, n in moves if color == player and dst == "warp"} == expected
    assert (g.refresh()["warp"]["red"], g.state["warp"]["blue"]) == (3, 3)


def test_a_timer_never_applies_before_its_deadline(runtime, service_game):
    g = compromises(service_game, "g-early", 60_000)
    prompt = deal_prompts(g)["red"]
    runtime.rq_redis.delete(timers.due_key(runtime.settings.prefix))
    report = timers.expire(runtime, "g-early", prompt["id"], prompt["deadline"], now=prompt["deadline"] - 10_000)
    assert report["result"] == "early"
    assert g.refresh()["v"] == len(g.log) and timed_out(g) == []
    assert scheduled(runtime) == {("g-early", prompt["id"], prompt["deadline"]): prompt["deadline"]}  # due again


def test_a_timer_a_moment_early_waits_for_its_deadline(runtime, service_game):
    g = compromises(service_game, "g-moment", 300)
    prompt = deal_prompts(g)["red"]
    report = timers.expire(runtime, "g-moment", prompt["id"], prompt["deadline"], now=prompt["deadline"] - 300)
    assert report["result"] == "applied"
    assert timed_out(g)[0]["time"] >= prompt["deadline"]


# Stale timers ----------------------------------------------------------------------------------------------

def test_a_deal_made_in_time_takes_its_timers_out_and_a_timer_run_anyway_does_nothing(runtime, service_game):
    g = compromises(service_game, "g-made", -1000)
    owed = deal_prompts(g)
    assert len(scheduled(runtime)) == 2
    g.propose("red", {"cards": {"offense": {"named": [], "count": 1}}})
    g.accept("blue", 1)
    version = g.refresh()["v"]
    assert scheduled(runtime) == {} and timers.pending(runtime) == 0  # the append that closed them dropped them
    results = [timers.expire(runtime, "g-made", p["id"], p["deadline"]) for p in owed.values()]  # (a lost drop)
    assert g.refresh()["v"] == version and timed_out(g) == []
    assert [(r["result"], r["detail"]) for r in results] == [("stale", "the decision is no longer owed")] * 2


def test_a_timer_whose_deadline_changed_or_whose_game_ended_does_nothing(runtime, service_game):
    g = compromises(service_game, "g-moved", 60_000)
    prompt = deal_prompts(g)["red"]
    report = timers.expire(runtime, "g-moved", prompt["id"], prompt["deadline"] - 1, now=prompt["deadline"])
    assert report["result"] == "stale" and "deadline is now" in report["detail"]
    assert timers.stale_reason({**g.state, "status": "finished"}, prompt["id"], prompt["deadline"]) == \
        "the game is finished"
    assert timed_out(g) == []


def test_a_timer_of_an_answered_decision_does_nothing(runtime, service_game):
    g = compromises(service_game, "g-answered", 60_000)
    prompt = deal_prompts(g)["red"]
    g.give_up("red")
    g.give_up("blue")
    version = g.refresh()["v"]
    report = timers.expire(runtime, "g-answered", prompt["id"], prompt["deadline"], now=prompt["deadline"])
    assert (report["result"], report["detail"]) == ("stale", "the decision is no longer owed")
    assert g.refresh()["v"] == version


# Concurrency -----------------------------------------------------------------------------------------------

def test_a_duplicate_timer_losing_the_race_reports_the_expiry_already_applied(runtime, service_game, redis_factory):
    g = compromises(service_game, "g-race", -1000)
    prompt = deal_prompts(g)["red"]
    other = runtime_on(runtime.settings, redis_factory())  # another worker process
    run = runtime.commands.run

    def others_first(*args, **kwargs):  # the other worker appends between our read and our append
        timers.expire(other, "g-race", prompt["id"], prompt["deadline"])
        return run(*args, **kwargs)

    runtime.commands.run = others_first
    report = timers.expire(runtime, "g-race", prompt["id"], prompt["deadline"])
    assert report["result"] == "already applied"
    assert len(timed_out(g)) == 1


def test_timers_racing_in_threads_apply_the_expiry_once(runtime, service_game, redis_factory):
    g = compromises(service_game, "g-threads", -1000)
    prompts = list(deal_prompts(g).values()) * 3
    runtimes = [runtime_on(runtime.settings, redis_factory()) for _ in prompts]
    start, reports = threading.Barrier(len(prompts)), []

    def fire(rt, prompt):
        start.wait()
        reports.append(timers.expire(rt, "g-threads", prompt["id"], prompt["deadline"])["result"])

    threads = [threading.Thread(target=fire, args=pair) for pair in zip(runtimes, prompts, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert reports.count("applied") == 1 and len(reports) == 6
    assert len(timed_out(g)) == 1


def test_two_decisions_with_one_deadline_each_time_out_even_when_their_timers_collide(runtime, service_game,
                                                                                      redis_factory):
    g = service_game("g-both", players=2, powers=HUMANS, destiny=["blue.1"], options={"decision_seconds": 5})
    g.launch({"red-0": 1}, "blue-0")
    red, blue = owed_with_deadline(g, "red", "challenge_card"), owed_with_deadline(g, "blue", "challenge_card")
    assert red["deadline"] == blue["deadline"]
    other = runtime_on(runtime.settings, redis_factory())
    run = runtime.commands.run

    def blue_first(*args, **kwargs):  # blue's timer appends between red's timer's read and its append
        runtime.commands.run = run
        assert timers.expire(other, "g-both", blue["id"], blue["deadline"])["result"] == "applied"
        return run(*args, **kwargs)

    runtime.commands.run = blue_first
    assert timers.expire(runtime, "g-both", red["id"], red["deadline"])["result"] == "applied"
    assert sorted(e["payload"]["player"] for e in timed_out(g)) == ["blue", "red"]
    chosen = [e["payload"]["player"] for e in runtime.store.read("g-both") if e["type"] == "ChallengeCardChosen"]
    assert sorted(chosen) == ["blue", "red"]


def test_a_timer_that_keeps_losing_to_other_commands_tries_again_later(runtime, service_game):
    g = compromises(service_game, "g-busy", -1000)
    prompt = deal_prompts(g)["red"]
    pushed = []

    def always_late(*args, **kwargs):
        from projections.errors import VersionConflict
        pushed.append(1)
        raise VersionConflict(g.state["v"] + 1, kwargs.get("expected_version"))

    runtime.commands.run = always_late
    runtime.rq_redis.delete(timers.due_key(runtime.settings.prefix))
    before = timers.wall_ms()
    report = timers.expire(runtime, "g-busy", prompt["id"], prompt["deadline"])
    assert report["result"] == "busy" and len(pushed) == timers.ATTEMPTS
    [(key, due_at)] = scheduled(runtime).items()
    assert key == ("g-busy", prompt["id"], prompt["deadline"]) and timed_out(g) == []
    assert before + timers.BUSY_RETRY_MS <= due_at <= timers.wall_ms() + timers.BUSY_RETRY_MS  # soon, not in a second


# What players see -------------------------------------------------------------------------------------------

def test_deadlines_are_in_the_prompts_and_the_board_and_timeouts_in_the_log(runtime, service_game):
    from app import create_app
    g = compromises(service_game, "g-seen", -1000)
    deadline = deal_prompts(g)["red"]["deadline"]
    client = create_app(runtime).test_client()
    admin = {"Authorization": "Bearer adm"}
    mine = client.get("/games/g-seen/prompts?player=red", headers=admin).get_json()["prompts"]
    assert [(p["kind"], p["deadline"]) for p in mine] == [("deal", deadline)]
    board = client.get("/games/g-seen").get_json()
    assert {(p["player"], p["kind"], p["deadline"]) for p in board["pending"]} == \
        {("red", "deal", deadline), ("blue", "deal", deadline)}
    run_jobs(runtime)
    log = client.get("/games/g-seen/events?after=0").get_json()["events"]
    timeouts = [e for e in log if e["type"] == "DecisionTimedOut"]
    assert [(e["actor"], e["payload"]["kind"], e["payload"]["default"]) for e in timeouts] == \
        [("timer", "deal", {"action": "expire"})]
    assert [e["actor"] for e in log if e["type"] == "DealConcluded"] == ["timer"]


# decision_seconds: each kind of decision's default ----------------------------------------------------------

def owed_with_deadline(g, player: str, kind: str) -> dict:
    owed = g.owe(player, kind)
    assert owed["deadline"] == g.state["clock"][owed["id"]] and owed["deadline"] is not None
    return owed


def expire_now(g, owed: dict) -> list[dict]:
    """Fire the timer of a decision at its deadline; the events it appended."""
    before = g.refresh()["v"]
    report = timers.expire(g.runtime, g.game_id, owed["id"], owed["deadline"], now=owed["deadline"])
    assert report["result"] == "applied", report
    return g.runtime.store.read(g.game_id, after=before)


def test_an_alliance_invitation_times_out_declined(runtime, service_game):
    g = service_game("g-ally", players=3, powers={"red": ["Human"], "blue": ["Human"], "yellow": ["Human"]},
                     destiny=["blue.1"], options={"decision_seconds": 5})
    g.launch({"red-0": 2}, "blue-0")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    events = expire_now(g, owed_with_deadline(g, "yellow", "alliance"))
    assert [e["payload"] for e in events if e["type"] == "AllianceAnswered"] == [{"player": "yellow", "side": None}]
    assert g.refresh()["cone"]["offense"] == {"red": 2}


def test_a_window_times_out_passed(runtime, service_game):
    g = service_game("g-window", players=2, powers={"red": ["Mind"], "blue": ["Human"]}, destiny=["blue.1"],
                     options={"decision_seconds": 5})
    g.auto_pass = False
    g.launch({"red-0": 1}, "blue-0")
    owed = owed_with_deadline(g, "red", "window")
    events = expire_now(g, owed)
    assert [e["payload"] for e in events if e["type"] == "Passed"] == \
        [{"player": "red", "window": owed["info"]["window"]}]
    assert not [e for e in events if e["type"] == "PowerUsed"]


def test_a_challenge_card_times_out_to_a_random_legal_card_without_kicker(runtime, service_game):
    g = service_game("g-card", players=2, powers=HUMANS, destiny=["blue.1"], hands={"red": RED_HAND},
                     options={"decision_seconds": 5})
    g.launch({"red-0": 1}, "blue-0")
    owed = owed_with_deadline(g, "red", "challenge_card")
    events = expire_now(g, owed)
    chosen = [e["payload"] for e in events if e["type"] == "ChallengeCardChosen"]
    assert len(chosen) == 1 and chosen[0]["player"] == "red"
    assert chosen[0]["card"] in owed["options"][0]["args"]["card"]["values"]
    assert [e["payload"]["default"] for e in events if e["type"] == "DecisionTimedOut"] == [{"action": "play"}]


def test_every_new_decision_gets_its_own_timer_until_the_game_moves_on(runtime, service_game):
    g = service_game("g-chain", players=2, powers=HUMANS, destiny=["blue.1"], options={"decision_seconds": 5})
    launch = owed_with_deadline(g, "red", "launch")
    assert list(scheduled(runtime)) == [("g-chain", launch["id"], launch["deadline"])]
    run_jobs(runtime)  # the launch's deadline passed long ago: it times out, opening decisions due in 5 s
    g.refresh()
    assert [e["payload"]["prompt"] for e in timed_out(g)] == [launch["id"]]
    now = timers.wall_ms()
    assert all(now < p["deadline"] <= now + 5000 for p in g.prompts())
    assert scheduled(runtime) == {("g-chain", p["id"], p["deadline"]): p["deadline"] for p in g.prompts()}


# Recovery ------------------------------------------------------------------------------------------------------

def test_a_sweep_schedules_the_timers_a_failed_enqueue_lost(runtime, service_game):
    g = compromises(service_game, "g-lost", -1000)
    runtime.rq_redis.delete(timers.due_key(runtime.settings.prefix))  # as if the listener had failed after the append
    assert scheduled(runtime) == {}
    counts = sweep.sweep_runtime(runtime)
    assert counts == {"games": 1, "scheduled": 2, "pending": 0, "bots": {"games": 1, "enqueued": 0}}
    run_jobs(runtime)
    assert len(timed_out(g)) == 1


def test_a_sweep_schedules_again_a_timer_that_ran_but_left_the_decision_owed(runtime, service_game):
    g = compromises(service_game, "g-again", -1000)
    prompt = deal_prompts(g)["red"]
    claimed, _ = timers.claim(runtime)
    for one in claimed:  # fired without effect (as if its append had been lost)
        timers.finish(runtime, one)
    assert timers.schedule(runtime, "g-again", prompt["id"], prompt["deadline"]) == "scheduled"
    assert timers.fire_due(runtime)[0]["result"] == "applied"
    assert len(timed_out(g)) == 1


def test_the_sweep_job_is_queued_once_while_waiting(runtime):
    assert sweep.enqueue_sweep(runtime) == "queued"
    assert sweep.enqueue_sweep(runtime) == "pending"
    run_jobs(runtime)
    assert sweep.enqueue_sweep(runtime) == "queued"


def wait_for_timeout(g, seconds: float = 10) -> list[dict]:
    deadline = time.monotonic() + seconds
    while not timed_out(g) and time.monotonic() < deadline:
        time.sleep(0.1)
    return timed_out(g)


def test_the_embedded_worker_fires_a_timer_when_its_deadline_passes(runtime, service_game):
    g = compromises(service_game, "g-embedded", 1500)
    deadline = deal_prompts(g)["red"]["deadline"]
    worker = EmbeddedWorker(runtime, interval=0.1).start()
    try:
        fired = wait_for_timeout(g)
    finally:
        worker.stop()
    assert len(fired) == 1 and fired[0]["time"] >= deadline


def test_the_embedded_mode_sets_the_timers_of_games_kept_in_its_data_folder_again(tmp_path, key_prefix,
                                                                                  service_game_class):
    settings = Settings(prefix=key_prefix, admin_token="adm")
    before = Runtime(settings, redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    before.attach_data_folder(tmp_path)
    g = compromises(lambda gid, **kw: service_game_class(before, gid, **kw), "g-kept", 1500)
    deadline = deal_prompts(g)["red"]["deadline"]
    before.close()  # the process stops: its in-memory Redis, with the scheduled timers, is gone
    after = Runtime(settings)  # no REDIS_URL: a new embedded Redis
    after.attach_data_folder(tmp_path)
    runtime_module.install(after)
    worker = EmbeddedWorker(after, interval=0.1).start()
    try:
        fired = wait_for_timeout(ServiceGameView(after, "g-kept"))
    finally:
        worker.stop()
        runtime_module.install(None)
        after.close()
    assert [(e["actor"], e["time"] >= deadline) for e in fired] == [("timer", True)]
