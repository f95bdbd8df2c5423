"""`EventStore.restore` (verified re-import of sealed events) and the small helpers added for projections."""

from __future__ import annotations

import copy

import pytest

from events.envelope import ChainBreak, event_hash
from events.exceptions import StoreError
from events.store import EventStore

GAME = "g-restore"


def created(n: int) -> dict:
    return {"type": "GameCreated", "actor": "system", "time": n,
            "payload": {"ruleset": "mayfair", "options": {"n": n}, "seats": 3, "seed": f"s{n}", "format": 2}}


@pytest.fixture
def exported(redis_client, key_prefix) -> list[dict]:
    """Seven events written by appends under one prefix, read back as an export would."""
    source = EventStore(redis_client, prefix=key_prefix + "-src")
    source.append(GAME, [created(1), created(2), created(3)], 0)
    source.append(GAME, [created(4), created(5), created(6), created(7)], 3)
    return source.read(GAME)


def test_restore_writes_the_same_stream(redis_client, key_prefix, exported):
    store = EventStore(redis_client, prefix=key_prefix)
    assert store.restore(GAME, exported, batch=3) == 7
    assert store.read(GAME) == exported
    assert store.head(GAME) == (7, exported[-1]["hash"])
    # appends go on from the restored head
    assert store.append(GAME, [created(8)], 7).version == 8


def test_restore_is_resumable_and_skips_what_is_there(redis_client, key_prefix, exported):
    store = EventStore(redis_client, prefix=key_prefix)
    store.restore(GAME, exported[:4])
    assert store.restore(GAME, exported) == 3
    assert store.restore(GAME, exported) == 0
    assert store.read(GAME) == exported


def test_restore_refuses_a_broken_chain(redis_client, key_prefix, exported):
    store = EventStore(redis_client, prefix=key_prefix)
    tampered = copy.deepcopy(exported)
    tampered[4]["payload"]["seats"] = 6
    with pytest.raises(ChainBreak):
        store.restore(GAME, tampered)
    assert store.version(GAME) == 0


def test_restore_refuses_a_rehashed_forgery_of_stored_events(redis_client, key_prefix, exported):
    store = EventStore(redis_client, prefix=key_prefix)
    store.restore(GAME, exported[:3])
    other = copy.deepcopy(exported)
    other[0]["payload"]["seats"] = 5
    prev = ""
    for event in other:
        event["prev_hash"] = prev
        event["hash"] = prev = event_hash(event)
    with pytest.raises(StoreError, match="other events"):
        store.restore(GAME, other)


def test_game_key_is_hash_tagged_and_keeps_store_keys_out(redis_client, key_prefix):
    store = EventStore(redis_client, prefix=key_prefix)
    assert store.game_key(GAME, "snapshot") == f"{key_prefix}:{{{GAME}}}:snapshot"
    for reserved in ("events", "head", "idem:x", ""):
        with pytest.raises(ValueError):
            store.game_key(GAME, reserved)


def test_idempotency_record_holds_the_fingerprint(redis_client, key_prefix):
    store = EventStore(redis_client, prefix=key_prefix)
    store.append(GAME, [created(1)], 0, idempotency_key="k", response={"ok": 1}, fingerprint="fp")
    record = store.idempotency_record(GAME, "k")
    assert record["fingerprint"] == "fp" and record["response"] == {"ok": 1} and record["version"] == 1
    assert store.idempotency_record(GAME, "other") is None
