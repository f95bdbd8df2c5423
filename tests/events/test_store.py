"""The Redis stream store, on fakeredis and (with REDIS_URL) on real Redis.

Every test writes under its own ``key_prefix``; see tests/conftest.py.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import defaultdict

import fakeredis
import pytest
from marshmallow import ValidationError

from events import envelope
from events.envelope import canonical_json, verify_chain
from events.exceptions import (
    ConcurrencyConflict,
    EventTooLarge,
    IdempotencyMismatch,
    StoreError,
    UnknownEventType,
)
from events.store import AppendResult, EventStore

GAME = "g1"


@pytest.fixture
def tagged(define_event_type):
    """A test-only event type whose payload says which command (of which thread) wrote it."""
    define_event_type("TestTagged", {"thread": "int", "command": "int", "part": "int", "parts": "int",
                                     "blob": "str?", "extra": "any?"})


@pytest.fixture
def store(redis_client, key_prefix) -> EventStore:
    """A store on this test's backend, under this test's key prefix."""
    return EventStore(redis_client, prefix=key_prefix)


def game_created(n: int = 0) -> dict:
    """An engine-style GameCreated event, distinguishable by ``n``."""
    return {"type": "GameCreated", "actor": "system", "time": 1000 + n,
            "payload": {"ruleset": "base", "options": {"n": n}, "seats": 4, "seed": f"s{n}", "format": 2}}


def command(thread: int, number: int, parts: int, **extra) -> list[dict]:
    """The events of one command, each tagged with its thread, command number and part."""
    return [{"type": "TestTagged", "actor": f"t{thread}", "time": number,
             "payload": {"thread": thread, "command": number, "part": part, "parts": parts, **extra}}
            for part in range(parts)]


def snapshot(client, prefix: str) -> dict:
    """Every key under the prefix with its type and content, to prove nothing changed."""
    state = {}
    for key in sorted(client.scan_iter(match=prefix + "*")):
        kind = client.type(key)
        if kind in (b"stream", "stream"):
            state[key] = client.xrange(key)
        elif kind in (b"hash", "hash"):
            state[key] = client.hgetall(key)
        else:
            state[key] = client.get(key)
    return state


# --- appending and reading --------------------------------------------------------------------

def test_appends_get_consecutive_seqs_and_an_intact_chain(store):
    first = store.append(GAME, [game_created(1), game_created(2)], 0)
    second = store.append(GAME, [game_created(3)], 2)
    assert (first.version, second.version) == (2, 3)
    assert [e["seq"] for e in first.events + second.events] == [1, 2, 3]
    stored = store.read(GAME)
    assert stored == first.events + second.events
    assert verify_chain(stored, GAME) == 3


def test_stream_layout_is_hash_tagged_with_seq_ids_and_canonical_json(store, redis_client, key_prefix):
    store.append(GAME, [game_created(1), game_created(2)], 0, idempotency_key="k")
    keys = {k.decode() for k in redis_client.scan_iter(match=key_prefix + "*")}
    assert all(k.startswith(f"{key_prefix}:{{{GAME}}}:") for k in keys) and len(keys) == 4
    # the anchors: each event's hash as first written, 64 characters apiece (15.12)
    assert store.anchors(GAME) == "".join(e["hash"] for e in store.read(GAME))
    entries = redis_client.xrange(f"{key_prefix}:{{{GAME}}}:events")
    assert [entry_id for entry_id, _ in entries] == [b"1-1", b"2-1"]
    for (_, fields), event in zip(entries, store.read(GAME), strict=True):
        assert list(fields) == [b"e"] and fields[b"e"].decode() == canonical_json(event)


def test_reads_by_range(store):
    store.append(GAME, [game_created(n) for n in range(1, 8)], 0)
    seqs = lambda events: [e["seq"] for e in events]  # noqa: E731
    assert seqs(store.read(GAME, after=2, until=5)) == [3, 4, 5]
    assert seqs(store.read(GAME, after=5)) == [6, 7]
    assert seqs(store.read(GAME, after=1, count=2)) == [2, 3]
    assert seqs(store.read(GAME, until=2)) == [1, 2]
    assert store.read(GAME, after=4, until=4) == [] and store.read(GAME, after=7) == []
    assert seqs(store.read(GAME, after=6, until=99)) == [7]


def test_iter_all_reads_in_batches(store):
    for n in range(10):
        store.append(GAME, [game_created(n)], n)
    assert [e["seq"] for e in store.iter_all(GAME, batch=3)] == list(range(1, 11))
    assert list(store.iter_all("nothing-here")) == []


def test_version_head_and_exists(store):
    assert store.version(GAME) == 0 and store.head(GAME) == (0, "") and not store.exists(GAME)
    result = store.append(GAME, [game_created(1), game_created(2)], 0)
    assert store.version(GAME) == 2 and store.exists(GAME)
    assert store.head(GAME) == (2, result.events[-1]["hash"])


def test_bytes_and_str_clients_see_the_same_events(fake_server):
    as_bytes = EventStore(fakeredis.FakeRedis(server=fake_server), prefix="p")
    as_str = EventStore(fakeredis.FakeRedis(server=fake_server, decode_responses=True), prefix="p")
    as_str.append(GAME, [game_created(1)], 0, idempotency_key="k", response={"ok": 1})
    assert as_bytes.read(GAME) == as_str.read(GAME) and as_bytes.head(GAME) == as_str.head(GAME)
    assert as_bytes.append(GAME, [game_created(2)], 0, idempotency_key="k").response == {"ok": 1}
    assert as_str.tail(GAME, 0, block_ms=10) == as_bytes.tail(GAME, 0, block_ms=10)


# --- tail -------------------------------------------------------------------------------------

def test_tail_returns_waiting_events_at_once(store):
    store.append(GAME, [game_created(n) for n in range(1, 5)], 0)
    assert [e["seq"] for e in store.tail(GAME, after=1, block_ms=1000, count=2)] == [2, 3]


def test_tail_returns_nothing_on_timeout(store):
    store.append(GAME, [game_created(1)], 0)
    started = time.monotonic()
    assert store.tail(GAME, after=1, block_ms=100) == []
    assert time.monotonic() - started >= 0.09


@pytest.mark.parametrize("existing", [0, 2])
def test_tail_blocks_until_another_client_appends(store, redis_factory, key_prefix, existing):
    if existing:
        store.append(GAME, [game_created(n) for n in range(existing)], 0)
    writer = EventStore(redis_factory(), prefix=key_prefix)

    def append_later():
        time.sleep(0.2)
        writer.append(GAME, [game_created(10), game_created(11)], existing)

    thread = threading.Thread(target=append_later)
    started = time.monotonic()
    thread.start()
    got = store.tail(GAME, after=existing, block_ms=5000)
    thread.join()
    assert 0.15 <= time.monotonic() - started < 4
    assert [e["seq"] for e in got] == [existing + 1, existing + 2]  # XADDs of one script arrive together


# --- optimistic concurrency -------------------------------------------------------------------

@pytest.mark.parametrize("expected", [0, 1, 3, 9])
def test_wrong_expected_version_conflicts_and_writes_nothing(store, redis_client, key_prefix, expected):
    store.append(GAME, [game_created(1), game_created(2)], 0)
    before = snapshot(redis_client, key_prefix)
    with pytest.raises(ConcurrencyConflict) as caught:
        store.append(GAME, [game_created(3)], expected, idempotency_key="k")
    assert (caught.value.current_version, caught.value.expected_version) == (2, expected)
    assert snapshot(redis_client, key_prefix) == before
    assert store.idempotent_response(GAME, "k") is None


def test_wrong_prev_hash_conflicts_and_writes_nothing(store, redis_client, key_prefix):
    store.append(GAME, [game_created(1)], 0)
    before = snapshot(redis_client, key_prefix)
    with pytest.raises(ConcurrencyConflict, match="previous hash") as caught:
        store.append(GAME, [game_created(2)], 1, prev_hash="0" * 64)
    assert caught.value.current_version == 1
    assert snapshot(redis_client, key_prefix) == before


def test_explicit_prev_hash_is_used(store):
    first = store.append(GAME, [game_created(1)], 0)
    other = EventStore(store.redis, prefix=store.prefix)  # knows nothing about the head
    other.append(GAME, [game_created(2)], 1, prev_hash=first.events[0]["hash"])
    assert verify_chain(store.read(GAME), GAME) == 2


def test_a_stale_remembered_head_is_corrected(store, redis_factory, key_prefix):
    store.append(GAME, [game_created(1), game_created(2)], 0)  # remembers (2, hash)
    rewriter = EventStore(redis_factory(), prefix=key_prefix)
    rewriter.delete(GAME)
    rewriter.append(GAME, [game_created(7), game_created(8)], 0)  # same version, other hash
    store.append(GAME, [game_created(3)], 2)
    assert verify_chain(store.read(GAME), GAME) == 3


def test_eight_threads_appending_to_one_game_lose_and_duplicate_nothing(
        redis_client, redis_factory, key_prefix, tagged):
    threads, commands = 8, 25
    start = threading.Barrier(threads)
    conflicts, errors, written = [0] * threads, [], {}

    def worker(thread: int):
        store = EventStore(redis_factory(), prefix=key_prefix)
        rng = random.Random(thread)
        start.wait()
        for number in range(commands):
            events = command(thread, number, rng.randint(1, 3))
            while True:
                try:
                    result = store.append(GAME, events, store.version(GAME), idempotency_key=f"{thread}.{number}",
                                          response={"thread": thread, "command": number})
                    break
                except ConcurrencyConflict:
                    conflicts[thread] += 1
            written[(thread, number)] = [e["seq"] for e in result.events]
            # A client retry after success (stale version, same key) must not write again.
            retry = store.append(GAME, events, 0, idempotency_key=f"{thread}.{number}")
            assert retry.replayed and retry.response == {"thread": thread, "command": number}

    def run(thread: int):
        try:
            worker(thread)
        except BaseException as err:  # surfaced in the main thread
            errors.append(err)

    pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=120)
    assert not errors, errors

    stored = EventStore(redis_client, prefix=key_prefix).read(GAME)
    assert [e["seq"] for e in stored] == list(range(1, len(stored) + 1))
    assert verify_chain(stored, GAME) == len(stored)
    by_command = defaultdict(list)
    for event in stored:
        p = event["payload"]
        by_command[(p["thread"], p["command"])].append((event["seq"], p["part"], p["parts"]))
    assert set(by_command) == {(t, n) for t in range(threads) for n in range(commands)}
    for key, parts in by_command.items():
        seqs = [seq for seq, _, _ in parts]
        assert [part for _, part, _ in parts] == list(range(parts[0][2])), key  # once each, in order
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), key  # contiguous
        assert written[key] == seqs, key
    assert sum(conflicts) > 0  # the test did exercise the conflict path


# --- idempotency ------------------------------------------------------------------------------

def test_retry_with_same_key_returns_first_response_and_writes_nothing(store, redis_client, key_prefix):
    first = store.append(GAME, [game_created(1)], 0, idempotency_key="req-1", response={"status": 201})
    store.append(GAME, [game_created(2)], 1)
    before = snapshot(redis_client, key_prefix)
    retry = store.append(GAME, [game_created(1)], 0, idempotency_key="req-1", response={"status": 999})
    assert retry == AppendResult(version=2, events=[], replayed=True, response={"status": 201})
    assert first.response == {"status": 201} and not first.replayed
    assert snapshot(redis_client, key_prefix) == before
    assert store.idempotent_response(GAME, "req-1") == {"status": 201}


def test_same_key_in_another_game_is_independent(store):
    store.append(GAME, [game_created(1)], 0, idempotency_key="k", response="first game")
    other = store.append("g2", [game_created(1)], 0, idempotency_key="k", response="second game")
    assert not other.replayed and other.version == 1
    assert store.idempotent_response("g2", "k") == "second game"
    assert store.idempotent_response(GAME, "k") == "first game"


def test_key_reused_for_another_request_is_refused(store, redis_client, key_prefix):
    store.append(GAME, [game_created(1)], 0, idempotency_key="k", fingerprint="POST /a {1}", response=1)
    before = snapshot(redis_client, key_prefix)
    with pytest.raises(IdempotencyMismatch):
        store.append(GAME, [game_created(2)], 1, idempotency_key="k", fingerprint="POST /a {2}")
    assert snapshot(redis_client, key_prefix) == before
    same = store.append(GAME, [game_created(2)], 1, idempotency_key="k", fingerprint="POST /a {1}")
    assert same.replayed and same.response == 1


def test_idempotency_records_expire(redis_client, key_prefix):
    store = EventStore(redis_client, prefix=key_prefix, idempotency_ttl=60)
    store.append(GAME, [game_created(1)], 0, idempotency_key="k")
    assert 0 < redis_client.pttl(store.idempotency_key(GAME, "k")) <= 60_000
    assert redis_client.ttl(store.stream_key(GAME)) == -1  # the events themselves never expire


def test_empty_command_checks_the_version_and_records_the_key(store):
    store.append(GAME, [game_created(1)], 0)
    assert store.append(GAME, [], 1, idempotency_key="noop", response="nothing to do").version == 1
    assert store.append(GAME, [], 0, idempotency_key="noop").response == "nothing to do"
    with pytest.raises(ConcurrencyConflict):
        store.append(GAME, [], 0)
    assert store.version(GAME) == 1


# --- a bad command leaves no trace ------------------------------------------------------------

BAD_SECOND_EVENTS = {
    "too-large": ({"blob": "x" * 70_000}, None, EventTooLarge),
    "unknown-type": ({}, "TestNoSuchType", UnknownEventType),
    "payload-field-of-wrong-kind": ({"part": "one"}, None, ValidationError),
    "unknown-payload-field": ({"colour": "red"}, None, ValidationError),
    "not-json-serializable": ({"extra": {1, 2}}, None, ValidationError),
    "NaN": ({"extra": float("nan")}, None, ValidationError),
}


@pytest.mark.parametrize("case", BAD_SECOND_EVENTS)
def test_command_with_a_bad_second_event_leaves_no_trace(store, redis_client, key_prefix, tagged, case):
    store.append(GAME, command(0, 0, 1), 0)
    before = snapshot(redis_client, key_prefix)
    change, event_type, error = BAD_SECOND_EVENTS[case]
    events = command(0, 1, 3)
    events[1]["payload"].update(change)
    events[1]["type"] = event_type or events[1]["type"]
    with pytest.raises(error) as caught:
        store.append(GAME, events, 1, idempotency_key="bad", response="must not be kept")
    if error is ValidationError:
        assert list(caught.value.messages) == [1]  # names the event by its index in the command
    else:
        assert caught.value.index == 1
    assert snapshot(redis_client, key_prefix) == before and store.version(GAME) == 1
    assert store.idempotent_response(GAME, "bad") is None
    assert not store.append(GAME, command(0, 1, 3), 1, idempotency_key="bad").replayed


def broken_chain(sealed: list[dict]) -> list[dict]:
    """Corrupt a sealed batch: the second event does not link to the first."""
    sealed[1]["prev_hash"] = "f" * 64
    return sealed


def wrong_seq(sealed: list[dict]) -> list[dict]:
    """Corrupt a sealed batch: the second event skips a sequence number."""
    sealed[1]["seq"] += 1
    return sealed


def other_game(sealed: list[dict]) -> list[dict]:
    """Corrupt a sealed batch: the second event claims another game."""
    sealed[1]["game_id"] = "elsewhere"
    return sealed


@pytest.mark.parametrize("corrupt", [broken_chain, wrong_seq, other_game])
def test_the_script_itself_refuses_a_bad_batch_before_writing(
        store, redis_client, key_prefix, monkeypatch, corrupt):
    # Bypass the Python-side guarantees to prove the Lua script checks before its first write.
    store.append(GAME, [game_created(1)], 0)
    before = snapshot(redis_client, key_prefix)
    real_seal = envelope.seal
    monkeypatch.setattr(envelope, "seal", lambda *args: corrupt(real_seal(*args)))
    with pytest.raises(StoreError, match="event at index 1 of the command for game g1 refused"):
        store.append(GAME, [game_created(2), game_created(3)], 1, idempotency_key="k")
    assert snapshot(redis_client, key_prefix) == before


@pytest.mark.parametrize("bad_text", [b"x" * 2000, b"{not json", b"[1, 2]"], ids=["oversized", "not-json", "not-object"])
def test_the_script_refuses_oversized_or_non_json_text(store, redis_client, key_prefix, monkeypatch, bad_text):
    store.append(GAME, [game_created(1)], 0)
    store.max_event_bytes = 1000  # real events here are ~300 bytes; the script gets the same limit
    before = snapshot(redis_client, key_prefix)
    real_encode = store._encode
    monkeypatch.setattr(store, "_encode", lambda sealed: [real_encode(sealed)[0], bad_text])
    with pytest.raises(StoreError, match="event at index 1 of the command for game g1 refused"):
        store.append(GAME, [game_created(2), game_created(3)], 1)
    assert snapshot(redis_client, key_prefix) == before


# --- arguments, housekeeping ------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["", "a{b}", "has\tspace", "star*", None])
def test_bad_game_ids_are_refused(store, game_id):
    with pytest.raises(ValueError):
        store.append(game_id, [game_created(1)], 0)


@pytest.mark.parametrize("expected", [-1, 1.0, "0", True, None])
def test_bad_expected_versions_are_refused(store, expected):
    with pytest.raises(ValueError):
        store.append(GAME, [game_created(1)], expected)


def test_game_ids_lists_the_games_under_the_prefix_only(store, redis_client, key_prefix):
    for game_id in ("b", "a", "with:colon"):
        store.append(game_id, [game_created(1)], 0)
    EventStore(redis_client, prefix=key_prefix + "x").append("elsewhere", [game_created(1)], 0)
    assert store.game_ids() == ["a", "b", "with:colon"]


def test_delete_removes_every_key_of_the_game_and_nothing_else(store, redis_client, key_prefix):
    store.append(GAME, [game_created(1)], 0, idempotency_key="k1")
    store.append(GAME, [game_created(2)], 1, idempotency_key="k2")
    store.append("g2", [game_created(1)], 0, idempotency_key="k1")
    others = snapshot(redis_client, f"{key_prefix}:{{g2}}")
    store.delete(GAME)
    assert snapshot(redis_client, key_prefix) == others
    assert store.version(GAME) == 0 and store.idempotent_response(GAME, "k1") is None
    assert store.append(GAME, [game_created(1)], 0, idempotency_key="k1").version == 1


def test_idempotency_record_keeps_the_request_details(store, redis_client):
    store.append(GAME, [game_created(1)], 0, idempotency_key="k", fingerprint="fp", response=[1, "two"])
    record = json.loads(redis_client.get(store.idempotency_key(GAME, "k")))
    assert record == {"key": "k", "fingerprint": "fp", "response": [1, "two"], "version": 1}
