"""The live feeds' hub and caps: one read per game however many feeds follow it, exact resume, slow
readers that cannot hold anyone up, caps answered 429/503, and the metrics in Prometheus' format."""

from __future__ import annotations

import threading
import time

from prometheus_client.parser import text_string_to_metric_families

from app.hub import FeedHub
from tests.app.conftest import ADMIN, bearer, problem_type, whole_log
from tests.app.conftest import sse_messages as messages


def delivered(subscription, until_seq: int, game_id: str, seconds: float = 10) -> list[int]:
    """The seqs a subscription delivers for ``game_id`` until it reaches ``until_seq``."""
    seqs = []
    deadline = time.monotonic() + seconds
    while (not seqs or seqs[-1] < until_seq) and time.monotonic() < deadline:
        for batch, start in subscription.next(0.5):
            if batch.game_id == game_id:
                seqs += [event["seq"] for event in batch.events[start:]]
    return seqs


def test_many_subscriptions_of_a_game_cost_one_read_per_append_and_each_gets_every_event_once(api_game, runtime):
    game = api_game(seats=3, seed="hub-fanout", moves=2)
    hub = FeedHub(runtime.store, runtime.new_connection, poll_seconds=0.2)
    try:
        start = game.last["version"]
        subscriptions = [hub.subscribe({game.id: start}) for _ in range(50)]
        for subscription in subscriptions:  # each catches up (nothing yet) and waits
            assert subscription.next(0.05) == []
        time.sleep(0.5)  # the hub has read the game's head
        reads_before = hub.reads
        game.moves(6)
        end = game.last["version"]
        got = [delivered(subscription, end, game.id) for subscription in subscriptions]
        assert all(seqs == list(range(start + 1, end + 1)) for seqs in got), got[0]
        # the hub read the new events a few times (once per notice or poll that found them), not once per feed
        assert 1 <= hub.reads - reads_before <= 2 * 6 + 2
        assert hub.followed == 1
        for subscription in subscriptions:
            subscription.close()
        assert hub.followed == 0
    finally:
        hub.stop()


def test_a_slow_reader_falls_back_to_the_store_and_still_gets_every_event_once_in_order(api_game, runtime):
    game = api_game(seats=3, seed="hub-slow", moves=1)
    hub = FeedHub(runtime.store, runtime.new_connection, buffer=2, poll_seconds=0.1)
    try:
        start = game.last["version"]
        fast, slow = hub.subscribe({game.id: start}), hub.subscribe({game.id: start})
        assert fast.next(0.05) == [] and slow.next(0.05) == []
        time.sleep(0.3)
        fast_seqs = []
        for _ in range(12):  # the slow one reads nothing meanwhile: its buffer of 2 batches overflows
            game.moves(1)
            fast_seqs += delivered(fast, game.last["version"], game.id)
        end = game.last["version"]
        assert fast_seqs == list(range(start + 1, end + 1))
        assert slow.lagged >= 1 and len(slow._queue) <= 2
        assert delivered(slow, end, game.id) == list(range(start + 1, end + 1))
    finally:
        hub.stop()


def test_one_subscription_follows_several_games_and_more_later(api_game, runtime):
    """The shape a player's feed of all its games takes (`/me/stream`): one subscription, many games."""
    first, second = api_game(seats=2, seed="hub-a", moves=1), api_game(seats=2, seed="hub-b", moves=1)
    hub = FeedHub(runtime.store, runtime.new_connection, poll_seconds=0.1)
    try:
        with hub.subscribe({first.id: 0}) as feed:
            got: dict[str, list[int]] = {}
            feed.follow(second.id, second.last["version"] - 2)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and (len(got.get(first.id, [])) < first.last["version"]
                                                   or len(got.get(second.id, [])) < 2):
                for batch, start in feed.next(0.3):
                    got.setdefault(batch.game_id, []).extend(e["seq"] for e in batch.events[start:])
            assert got[first.id] == list(range(1, first.last["version"] + 1))
            assert got[second.id] == [second.last["version"] - 1, second.last["version"]]
            feed.unfollow(first.id)
            second.moves(1)
            later = delivered(feed, second.last["version"], second.id)
            assert later and later[-1] == second.last["version"]
    finally:
        hub.stop()


def test_feeds_resumed_with_last_event_id_while_the_game_moves_get_each_event_once(api_game, app):
    """Several readers cut and resume (Last-Event-ID) while moves are appended: every event they may see
    exactly once, in order (the same as the event log pages give them)."""
    game = api_game(seats=3, seed="hub-resume", moves=2)
    results: list[list[int]] = []
    moving = threading.Event()
    moving.set()

    def reader():
        seen, last = [], 0
        client = app.test_client()
        while True:
            done = not moving.is_set()
            body = client.get(game.url("/stream?timeout=0.7"), headers={"Last-Event-ID": str(last)}).get_data(as_text=True)
            for message in messages(body):
                if message["event"] != "end":
                    seen.append(int(message["id"]))
                    last = seen[-1]
            if done:
                break
        results.append(seen)

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for thread in threads:
        thread.start()
    game.moves(20)
    moving.clear()
    for thread in threads:
        thread.join(30)
    expected = [event["seq"] for event in whole_log(app.test_client(), game.id)]
    assert len(results) == 4 and len(expected) > 20
    for seen in results:
        assert seen == expected


def test_a_token_past_its_cap_of_open_feeds_gets_429_and_a_closed_feed_frees_its_place(api_game, app, runtime):
    game = api_game(seats=2, seed="hub-cap", moves=1)
    caps = app.extensions["cosmic.feedcaps"]
    caps.per_token = 2
    client = app.test_client()
    red = game.as_("red")
    held = [client.get(game.url("/stream?timeout=30"), headers=red) for _ in range(2)]  # bodies not read: open
    assert all(response.status_code == 200 for response in held)
    refused = client.get(game.url("/stream"), headers=red)
    assert refused.status_code == 429 and problem_type(refused) == "rate-limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 31 and refused.json["retry_after"] == int(refused.headers["Retry-After"])
    other = client.get(game.url("/stream?timeout=0.2"), headers=game.as_(next(c for c in game.tokens if c != "red")))
    assert other.status_code == 200  # another seat's token has its own count
    other.close()
    held[0].close()  # the WSGI server closes a finished response: its place is free again
    again = client.get(game.url("/stream?timeout=0.2"), headers=red)
    assert again.status_code == 200
    again.close()
    for response in held[1:]:
        response.close()
    assert caps.open == 0


def test_anonymous_feeds_are_capped_per_address_and_the_process_cap_answers_503(api_game, app):
    game = api_game(seats=2, seed="hub-cap-anon", moves=1)
    caps = app.extensions["cosmic.feedcaps"]
    caps.per_address = 3
    client = app.test_client()
    held = [client.get(game.url("/stream?timeout=30"), environ_base={"REMOTE_ADDR": "10.1.2.3"}) for _ in range(3)]
    refused = client.get(game.url("/stream"), environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert refused.status_code == 429 and problem_type(refused) == "rate-limited"
    elsewhere = client.get(game.url("/stream?timeout=0.2"), environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert elsewhere.status_code == 200
    elsewhere.close()
    caps.per_process = 3
    full = client.get(game.url("/stream"), headers=ADMIN)  # even the admin: the process holds all it serves
    assert full.status_code == 503 and problem_type(full) == "over-capacity" and full.headers["Retry-After"] == "5"
    assert client.get("/health").status_code == 200  # other routes go on
    for response in held:
        response.close()
    metrics = client.get("/metrics", headers=ADMIN).get_data(as_text=True)
    refused_by = {sample.labels["reason"]: sample.value for family in text_string_to_metric_families(metrics)
                  if family.name == "cosmic_feeds_refused" for sample in family.samples
                  if sample.name == "cosmic_feeds_refused_total"}
    assert refused_by["address"] >= 1 and refused_by["process"] >= 1


def test_a_lease_of_a_process_that_died_stops_counting_when_it_runs_out(runtime):
    from app.feedcaps import FeedCaps
    dead = FeedCaps(runtime.redis, runtime.settings.prefix, per_token=1, per_address=1, per_process=10,
                    lease_seconds=0.3)
    dead.acquire(None, None, "10.0.0.7", 60)  # never released, never renewed
    alive = FeedCaps(runtime.redis, runtime.settings.prefix, per_token=1, per_address=1, per_process=10)
    try:
        alive.acquire(None, None, "10.0.0.7", 60)
        raise AssertionError("the address's one place is taken")
    except Exception as refused:
        assert getattr(refused, "status", None) == 429
    time.sleep(0.4)
    lease = alive.acquire(None, None, "10.0.0.7", 60)
    alive.release(lease)


def test_metrics_are_prometheus_text_for_the_admin_only(api_game, app):
    game = api_game(seats=2, seed="metrics", moves=3)
    client = app.test_client()
    assert client.get("/health").status_code == 200
    client.get(game.url("/stream?timeout=0.2")).close()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers=bearer(game.tokens["red"])).status_code == 403
    answer = client.get("/metrics", headers=ADMIN)
    assert answer.status_code == 200 and answer.content_type.startswith("text/plain")
    families = {family.name: family for family in text_string_to_metric_families(answer.get_data(as_text=True))}
    assert {"cosmic_http_requests", "cosmic_http_request_duration_seconds", "cosmic_feeds_open",
            "cosmic_feeds_refused", "cosmic_feed_catch_ups", "cosmic_events_appended"} <= set(families)
    health = [s for s in families["cosmic_http_requests"].samples
              if s.name == "cosmic_http_requests_total" and s.labels["route"] == "/health" and s.labels["status"] == "200"]
    assert health and health[0].value >= 1
    assert any(s.labels.get("route") == "/games/<gid:game_id>/actions" and s.name.endswith("_count") and s.value >= 3
               for s in families["cosmic_http_request_duration_seconds"].samples)
    assert [s.value for s in families["cosmic_events_appended"].samples if s.name.endswith("_total")][0] >= 3
