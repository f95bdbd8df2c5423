"""Webhooks: subscriptions over the API; every event POSTed once, in order, signed, retried with backoff.

A receiver on loopback (``http.server`` in a thread, tests/workers/hooks.py) answers
500 to its first requests and 200 after. The in-process variants run RQ's worker in this thread (fakeredis and, with
REDIS_URL, real Redis); the real-worker variant starts `cosmic worker` as a process.
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
import time
from http.server import ThreadingHTTPServer

import pytest

from app import create_app
from events.redaction import ADMIN
from projections.sentences import Table
from tests.workers import games
from tests.workers import hooks as hooks_api
from tests.workers.hooks import SECRET, check_deliveries, deliverable
from tests.workers.thread_jobs import installed, run_jobs_until
from workers import talk, webhooks
from workers.leases import Lease
from workers.runtime import Runtime
from workers.settings import Settings

ADMIN_HEADERS = {"Authorization": "Bearer adm"}


# --- games and workers --------------------------------------------------------------------------

@pytest.fixture
def hooks(runtime):
    """The test's runtime with short webhook backoff, and a Flask client on it."""
    runtime.settings = dataclasses.replace(runtime.settings, webhook_backoff=0.2, webhook_backoff_max=1.0,
                                           webhook_timeout=3.0)
    return runtime


@pytest.fixture
def api(hooks):
    app = create_app(hooks)
    app.testing = True
    return app.test_client()


def play(runtime, game_id: str, moves: int = 40, seed: str = "hooks", seats: int = 2) -> list[dict]:
    """Create, seat and start a game and play ``moves`` random legal commands; returns its events."""
    games.play(runtime, game_id, games.lobby(seed, seats, names="p{k}"))
    return games.random_moves(runtime, game_id, moves, random.Random(seed))


def subscribe(api, headers=ADMIN_HEADERS, **body) -> dict:
    return hooks_api.subscribe(api, headers, **body)


# --- delivery -----------------------------------------------------------------------------------

def test_every_event_arrives_once_in_order_and_signed_though_the_first_two_posts_fail(hooks, api, receiver):
    sink = receiver(fail_first=2)
    sub = subscribe(api, url=sink.url(), secret=SECRET)
    assert sub["secret"] == SECRET and sub["game_id"] is None and sub["viewer"] == "admin"
    events = play(hooks, "g-hook", moves=40)
    expected = deliverable(events)
    run_jobs_until(hooks, lambda: len(sink.accepted()) >= len(expected))
    check_deliveries(sink.accepted(), expected)
    assert len(sink.requests) == len(expected) + 2
    first_three = sink.requests[:3]
    assert [json.loads(r["body"])["seq"] for r in first_three] == [1, 1, 1]
    assert [r["headers"]["X-Cosmic-Attempt"] for r in first_three] == ["1", "2", "3"]
    assert len({r["headers"]["X-Cosmic-Delivery"] for r in sink.requests}) == len(sink.requests)

    log = api.get(f"/webhooks/{sub['id']}/deliveries", query_string={"limit": 1000}, headers=ADMIN_HEADERS).json
    oldest = list(reversed(log["deliveries"]))
    assert [(d["seq"], d["attempt"], d["status_code"], d["ok"]) for d in oldest[:3]] == \
        [(1, 1, 500, False), (1, 2, 500, False), (1, 3, 200, True)]
    assert oldest[0]["error"] == "HTTP 500" and oldest[2]["error"] is None
    assert [d["seq"] for d in oldest if d["ok"]] == [e["seq"] for e in expected]
    shown = api.get(f"/webhooks/{sub['id']}", headers=ADMIN_HEADERS).json
    assert shown["delivery"]["delivered"] == len(expected) and shown["delivery"]["failed"] == 2
    assert shown["delivery"]["status"] == "ok"


def test_later_events_wait_for_a_failing_one_and_retries_back_off(hooks, api, receiver):
    sink = receiver(fail_first=3)
    subscribe(api, url=sink.url(), secret=SECRET)
    events = play(hooks, "g-wait", moves=5)
    expected = deliverable(events)
    run_jobs_until(hooks, lambda: len(sink.accepted()) >= len(expected))
    check_deliveries(sink.accepted(), expected)
    failed_at = [r for r in sink.requests[:4]]
    assert {json.loads(r["body"])["seq"] for r in failed_at} == {1}, "nothing after seq 1 before it got through"
    stamps = [int(r["headers"]["X-Cosmic-Timestamp"]) for r in failed_at]
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    assert all(gap >= 200 for gap in gaps), gaps  # COSMIC_WEBHOOK_BACKOFF = 0.2 s, doubling


def test_the_event_type_filter_and_per_game_subscriptions(hooks, api, receiver):
    sink = receiver()
    turns = subscribe(api, url=sink.url("/turns"), secret=SECRET, event_types=["TurnBegan", "GameStarted"])
    hooks.commands.run("g-one", {"action": "create", "seats": 2, "seed": "one", "at": 0})
    only_one = subscribe(api, url=sink.url("/one"), secret=SECRET, game_id="g-one", after=0)
    everything = subscribe(api, url=sink.url("/all"), secret=SECRET)
    one = play_on(hooks, "g-one", moves=30)
    two = play(hooks, "g-two", moves=30, seed="two")
    want_turns = deliverable(one, {"TurnBegan", "GameStarted"}) + deliverable(two, {"TurnBegan", "GameStarted"})
    # g-one's create happened before the all-games subscriptions existed; they start with its next append
    want_all = deliverable(one)[1:] + deliverable(two)
    total = len(want_turns) - 1 + len(deliverable(one)) + len(want_all)
    run_jobs_until(hooks, lambda: len(sink.accepted()) >= total)
    by_game = {}
    for request in sink.accepted("/turns"):
        by_game.setdefault(request["headers"]["X-Cosmic-Game"], []).append(request)
    check_deliveries(by_game["g-one"], deliverable(one, {"TurnBegan", "GameStarted"}))
    check_deliveries(by_game["g-two"], deliverable(two, {"TurnBegan", "GameStarted"}))
    check_deliveries(sink.accepted("/one"), deliverable(one))  # after=0: its whole history, and no g-two
    all_by_game = {}
    for request in sink.accepted("/all"):
        all_by_game.setdefault(request["headers"]["X-Cosmic-Game"], []).append(request)
    check_deliveries(all_by_game["g-one"], deliverable(one)[1:])
    check_deliveries(all_by_game["g-two"], deliverable(two))
    for sub in (turns, only_one, everything):
        assert api.get(f"/webhooks/{sub['id']}", headers=ADMIN_HEADERS).json["delivery"]["failed"] == 0


def play_on(runtime, game_id: str, moves: int) -> list[dict]:
    """Seat and start an existing 2-seat game and play it ``moves`` commands; returns all its events."""
    games.play(runtime, game_id, games.lobby(game_id, 2, names="p{k}")[1:])
    return games.random_moves(runtime, game_id, moves, random.Random(game_id))


def test_a_players_subscription_gets_what_its_seat_sees(hooks, api, receiver):
    hooks.settings = dataclasses.replace(hooks.settings, webhook_allow_private=True)
    sink = receiver()
    hooks.commands.run("g-seat", {"action": "create", "seats": 2, "seed": "seat", "at": 0})
    red = api.post("/games/g-seat/players", json={"name": "Ann"}).json["token"]
    api.post("/games/g-seat/players", json={"name": "Bob"})
    sub = subscribe(api, headers={"Authorization": f"Bearer {red}"}, url=sink.url(), secret=SECRET,
                    game_id="g-seat")
    assert sub["viewer"] == "red" and sub["created_by"] == "red"
    hooks.commands.run("g-seat", {"action": "start", "at": 0})
    events = hooks.store.read("g-seat", after=3)
    expected = deliverable(events)
    run_jobs_until(hooks, lambda: len(sink.accepted()) >= len(expected))
    check_deliveries(sink.accepted(), expected, viewer="red")
    blue_cards = [e for e in expected if e["type"] == "CardsMoved" and e["payload"]["dst"] == "hand:blue"]
    assert blue_cards, "blue was dealt cards"
    for request in sink.accepted():
        body = json.loads(request["body"])
        assert "hash" not in body
        if body["type"] == "CardsMoved" and body["payload"]["dst"] == "hand:blue":
            assert set(body["payload"]["cards"]) == {None}


def test_each_delivery_carries_its_sentence_and_a_private_message_reaches_its_two_players_only(hooks, api,
                                                                                                receiver):
    """Issue 26: a webhook's body tells its event in ``text`` as the log tells it to the same reader; a private
    message of the table talk goes to its players' subscriptions (and the admin's), never to a spectator's."""
    hooks.settings = dataclasses.replace(hooks.settings, webhook_allow_private=True)
    sink = receiver()
    hooks.commands.run("g-told", {"action": "create", "seats": 2, "seed": "told", "at": 0})
    red = api.post("/games/g-told/players", json={"name": "Ann"}).json["token"]
    api.post("/games/g-told/players", json={"name": "Bob"})
    subscribe(api, headers={"Authorization": f"Bearer {red}"}, url=sink.url("/red"), secret=SECRET,
              game_id="g-told")
    subscribe(api, url=sink.url("/public"), secret=SECRET, game_id="g-told", viewer="public")
    subscribe(api, url=sink.url("/admin"), secret=SECRET, game_id="g-told")
    hooks.commands.run("g-told", {"action": "start", "at": 0})
    talk.say(hooks, "g-told", "red", "Let us both win.", to="blue")
    talk.say(hooks, "g-told", "blue", "Everyone hears this.")
    events = hooks.store.read("g-told", after=3)
    table = Table.of(hooks.repository.current("g-told"))
    wanted = {path: deliverable(events, viewer=viewer) for path, viewer in
              (("/red", "red"), ("/public", None), ("/admin", ADMIN))}
    run_jobs_until(hooks, lambda: len(sink.accepted()) >= sum(map(len, wanted.values())))
    for path, viewer in (("/red", "red"), ("/public", None), ("/admin", ADMIN)):
        check_deliveries(sink.accepted(path), wanted[path], viewer=viewer, table=table)
    told = {path: [json.loads(r["body"])["text"] for r in sink.accepted(path)] for path in wanted}
    private = "Ann says to Bob alone: Let us both win."
    assert private in told["/red"] and private in told["/admin"]
    assert "Bob says to everyone: Everyone hears this." in told["/public"] and "Bob is dealt 7 cards." in told["/red"]
    public = [json.loads(r["body"]) for r in sink.accepted("/public")]
    assert not any("Let us both win" in json.dumps(body) for body in public)
    assert [body["payload"]["seen_by"] for body in public if body["type"] == "MessageSent"] == [None]
    assert len(told["/public"]) == len(told["/red"]) - 1 == len(told["/admin"]) - 1


def test_a_deleted_subscription_gets_nothing_more(hooks, api, receiver):
    sink = receiver()
    sub = subscribe(api, url=sink.url(), secret=SECRET)
    assert api.delete(f"/webhooks/{sub['id']}", headers=ADMIN_HEADERS).status_code == 204
    play(hooks, "g-gone", moves=3)
    run_jobs_until(hooks, lambda: False, seconds=1)
    assert sink.requests == []
    assert api.get(f"/webhooks/{sub['id']}", headers=ADMIN_HEADERS).status_code == 404


def test_a_delivery_job_finding_another_at_work_posts_nothing(hooks, api, receiver):
    sink = receiver()
    sub = subscribe(api, url=sink.url(), secret=SECRET)
    play(hooks, "g-lease", moves=2)
    subs = webhooks.subscriptions(hooks)
    holder = Lease(hooks.redis, subs.game_key(sub["id"], "g-lease", "lease"), 30_000)
    assert holder.acquire()
    assert webhooks.deliver(sub["id"], "g-lease")["stopped"] == "busy"
    assert sink.requests == []
    holder.release()
    result = webhooks.deliver(sub["id"], "g-lease")
    assert result["stopped"] == "caught-up" and result["sent"] == len(deliverable(hooks.store.read("g-lease")))
    assert webhooks.deliver(sub["id"], "g-lease")["sent"] == 0  # a repeated job sends nothing twice


def test_a_redirect_is_a_failed_attempt_and_is_not_followed(hooks, api):
    import http.server

    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        sub = subscribe(api, url=f"http://127.0.0.1:{server.server_port}/", secret=SECRET)
        play(hooks, "g-redirect", moves=0)
        assert webhooks.deliver(sub["id"], "g-redirect")["stopped"] == "failed"
        entry = webhooks.subscriptions(hooks).deliveries(sub["id"])[0]
        assert (entry["status_code"], entry["ok"], entry["seq"]) == (307, False, 1)
    finally:
        server.shutdown()
        server.server_close()


# --- a real worker process ----------------------------------------------------------------------

def test_a_real_worker_delivers_every_event_once_in_order_despite_two_failures(real_redis, key_prefix,
                                                                               service_processes, receiver):
    runtime = Runtime(Settings(prefix=key_prefix, admin_token="adm"), redis_client=real_redis)
    with installed(runtime):
        sink = receiver(fail_first=2)
        app = create_app(runtime)
        subscribe(app.test_client(), url=sink.url(), secret=SECRET)
        service_processes(web=False, worker=True, env={"COSMIC_WEBHOOK_BACKOFF": "0.2"})
        events = play(runtime, "g-real", moves=60, seed="real")
        expected = deliverable(events)
        deadline = time.monotonic() + 60
        while len(sink.accepted()) < len(expected) and time.monotonic() < deadline:
            service_processes.check_running()
            time.sleep(0.2)
        assert len(sink.accepted()) == len(expected), service_processes.logs()
        check_deliveries(sink.accepted(), expected)
        assert len(sink.requests) == len(expected) + 2
        time.sleep(0.5)
        assert len(sink.requests) == len(expected) + 2, "nothing is sent twice after a 2xx"


def test_a_subscription_made_after_a_game_ended_gets_its_whole_history_at_once(hooks, api, receiver):
    """15.4: `after: 0` means the whole history; sent on creation, not at an append that never comes."""
    sink = receiver()
    events = play(hooks, "g-done", moves=30)
    expected = deliverable(events)
    subscribe(api, url=sink.url("/late"), secret=SECRET, game_id="g-done", after=0)
    run_jobs_until(hooks, lambda: len(sink.accepted("/late")) >= len(expected))
    check_deliveries(sink.accepted("/late"), expected)
    assert hooks.store.version("g-done") == events[-1]["seq"]  # nothing was appended meanwhile
