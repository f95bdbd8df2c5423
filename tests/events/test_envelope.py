"""The envelope and its integrity chain: sealing, and tampering caught by verify_chain.

The chains checked here are read back from the store (fakeredis and, with REDIS_URL,
real Redis), then tampered with in memory, as an audit would see a tampered stream.
"""

from __future__ import annotations

import copy

import pytest

from events import catalog
from events.envelope import ChainBreak, canonical_json, event_hash, seal, verify_chain
from events.store import EventStore

GAME = "g-env"


def emitted(n: int) -> dict:
    """An engine-style GameCreated event, distinguishable by ``n``."""
    return {"type": "GameCreated", "actor": "system", "time": 1000 + n,
            "payload": {"ruleset": "base", "options": {"n": n}, "seats": 4, "seed": f"seed-{n}",
                        "format": 2}}


@pytest.fixture
def stored_chain(redis_client, key_prefix) -> list[dict]:
    """Five events appended in two commands, read back from the store."""
    store = EventStore(redis_client, prefix=key_prefix)
    store.append(GAME, [emitted(1), emitted(2)], 0)
    store.append(GAME, [emitted(3), emitted(4), emitted(5)], 2)
    return store.read(GAME)


def test_seal_numbers_events_after_the_given_seq_and_links_them():
    sealed = seal([emitted(1), emitted(2)], GAME, 7, "a" * 64, catalog.schema_version)
    assert [e["seq"] for e in sealed] == [8, 9]
    assert sealed[0]["prev_hash"] == "a" * 64
    assert sealed[1]["prev_hash"] == sealed[0]["hash"]
    assert all(e["hash"] == event_hash(e) for e in sealed)
    assert all(e["game_id"] == GAME and e["schema_version"] == 2 for e in sealed)


def test_seal_does_not_change_its_inputs():
    events = [emitted(1)]
    before = copy.deepcopy(events)
    seal(events, GAME, 0, "", catalog.schema_version)
    assert events == before


def test_canonical_json_ignores_key_order_and_keeps_utf8():
    assert canonical_json({"b": 1, "a": "é"}) == canonical_json({"a": "é", "b": 1}) == '{"a":"é","b":1}'


def test_stored_chain_verifies(stored_chain):
    assert verify_chain(stored_chain, GAME) == 5


@pytest.mark.parametrize("field, value", [
    ("payload", {"ruleset": "base", "options": {"n": 99}, "seats": 4, "seed": "seed-3"}),
    ("actor", "red"),
    ("time", 1),
    ("type", "GameStarted"),
    ("schema_version", 3),
])
def test_changed_field_is_caught_naming_the_event(stored_chain, field, value):
    stored_chain[2][field] = value
    with pytest.raises(ChainBreak, match="^event 3: content") as caught:
        verify_chain(stored_chain, GAME)
    assert caught.value.seq == 3


def test_rehashed_change_breaks_the_next_link(stored_chain):
    # A forger who recomputes the changed event's own hash still breaks the link after it.
    stored_chain[1]["payload"]["seats"] = 6
    stored_chain[1]["hash"] = event_hash(stored_chain[1])
    with pytest.raises(ChainBreak, match="previous-hash link") as caught:
        verify_chain(stored_chain, GAME)
    assert caught.value.seq == 3


def test_deleted_event_is_caught(stored_chain):
    del stored_chain[3]
    with pytest.raises(ChainBreak, match="expected sequence number 4, found 5") as caught:
        verify_chain(stored_chain, GAME)
    assert caught.value.seq == 4


def test_deleted_and_renumbered_event_is_caught(stored_chain):
    del stored_chain[1]
    for seq, event in enumerate(stored_chain, start=1):
        event["seq"] = seq
    with pytest.raises(ChainBreak) as caught:
        verify_chain(stored_chain, GAME)
    assert caught.value.seq == 2


def test_swapped_events_are_caught(stored_chain):
    stored_chain[1], stored_chain[2] = stored_chain[2], stored_chain[1]
    with pytest.raises(ChainBreak, match="expected sequence number 2, found 3") as caught:
        verify_chain(stored_chain, GAME)
    assert caught.value.seq == 2


def test_swapped_payloads_are_caught(stored_chain):
    first, second = stored_chain[1], stored_chain[2]
    first["payload"], second["payload"] = second["payload"], first["payload"]
    with pytest.raises(ChainBreak, match="^event 2: content"):
        verify_chain(stored_chain, GAME)


def test_event_of_another_game_is_caught(stored_chain):
    stored_chain[0]["game_id"] = "other"
    with pytest.raises(ChainBreak, match="^event 1: belongs to game 'other'"):
        verify_chain(stored_chain, GAME)


def test_cut_off_tail_shows_only_in_the_count(stored_chain):
    # The chain cannot know its own end: compare the count with the stored version.
    assert verify_chain(stored_chain[:3], GAME) == 3
