"""Export and import (workers/transfer.py): a game's stream as JSON lines and back, verified by audit."""

from __future__ import annotations

import json

import fakeredis
import pytest

from events.envelope import ChainBreak, canonical_json
from tests.workers.games import make_runtime, play, recorded_commands
from workers.errors import ImportRefused
from workers.rewind import rewind
from workers.transfer import export_lines, import_game


@pytest.fixture
def elsewhere():
    """Another service (its own in-memory Redis) to import into."""
    return make_runtime(fakeredis.FakeRedis(server=fakeredis.FakeServer()), "elsewhere")


def exported(rt, game_id="g") -> list[str]:
    commands = recorded_commands("transfer", commands=90)
    n = play(rt, game_id, commands[:40])["v"]
    play(rt, game_id, commands[40:70])
    rewind(rt, game_id, n, at=10**12)
    play(rt, game_id, commands[40:])
    return list(export_lines(rt.store, game_id))


def test_an_export_is_the_stream_as_stored_one_event_per_line(rt):
    lines = exported(rt)
    stored = rt.store.read("g")
    assert len(lines) == len(stored) and all(line.endswith("\n") for line in lines)
    assert [json.loads(line) for line in lines] == stored
    assert lines[0] == canonical_json(stored[0]) + "\n"  # the data folder's format


def test_an_export_import_round_trip_gives_the_same_game(rt, elsewhere):
    lines = exported(rt)
    result = import_game(elsewhere, lines)
    assert result["game_id"] == "g" and result["audit"]["ok"] and result["events"] == len(lines)
    assert elsewhere.store.read("g") == rt.store.read("g")             # the same hashes: restored as sealed
    assert elsewhere.repository.current("g") == rt.repository.current("g")
    assert "g" in [game["id"] for game in elsewhere.index.list()[0]]
    assert list(export_lines(elsewhere.store, "g")) == lines


def test_an_import_under_another_id_is_resealed(rt):
    lines = exported(rt)
    result = import_game(rt, lines, as_id="copy")
    assert result["game_id"] == "copy" and result["from"] == "g"
    copied, original = rt.store.read("copy"), rt.store.read("g")
    assert [e["payload"] for e in copied] == [e["payload"] for e in original]
    assert copied[-1]["hash"] != original[-1]["hash"] and copied[0]["game_id"] == "copy"
    assert {k: v for k, v in rt.repository.current("copy").items() if k != "game_id"} == \
        {k: v for k, v in rt.repository.current("g").items() if k != "game_id"}


def test_a_tampered_file_is_refused_naming_its_line_and_nothing_is_written(rt, elsewhere):
    lines = exported(rt)
    event = json.loads(lines[11])
    event["payload"]["name" if "name" in event["payload"] else "surprise"] = "mallory"
    tampered = lines[:11] + [canonical_json(event) + "\n"] + lines[12:]
    with pytest.raises(ImportRefused) as refused:
        import_game(elsewhere, tampered)
    assert refused.value.line == 12 and "hash-mismatch" in str(refused.value)
    assert not elsewhere.store.exists("g")

    with pytest.raises(ImportRefused) as refused:
        import_game(elsewhere, lines[:20] + lines[21:])  # a deleted line
    assert refused.value.line == 21 and "sequence" in str(refused.value)

    with pytest.raises(ImportRefused) as refused:
        import_game(elsewhere, lines[:5] + ["{oops\n"] + lines[5:])
    assert refused.value.line == 6 and "not JSON" in str(refused.value)
    assert not elsewhere.store.exists("g")


def test_an_existing_id_and_an_unaddressable_id_are_refused(rt):
    lines = exported(rt)
    with pytest.raises(ImportRefused, match="already a game"):
        import_game(rt, lines)
    with pytest.raises(ImportRefused, match="not one the API can address"):
        import_game(rt, lines, as_id="no spaces please")
    with pytest.raises(ImportRefused, match="no events"):
        import_game(rt, ["\n", "\n"])


def test_caches_left_by_a_deleted_game_of_the_same_id_are_dropped(rt, elsewhere):
    lines = exported(rt)
    stale = elsewhere.repository.snapshots
    elsewhere.redis.hset(stale.snapshot_key("g"), mapping={"version": 3, "data": json.dumps(
        {"format": 2, "version": 3, "hash": "0" * 64, "state": {}})})
    assert import_game(elsewhere, lines)["audit"]["ok"]


def test_an_import_that_does_not_audit_clean_after_writing_is_taken_back(rt, elsewhere, monkeypatch):
    from workers import audit, transfer
    lines = exported(rt)

    def failing(store, repository, game_id):
        report = audit.audit_game(store, repository, game_id)
        report.ok, report.problem = False, audit.Finding("state-mismatch", "made up for the test", 1, "1-1")
        return report

    monkeypatch.setattr(transfer, "audit_game", failing)
    with pytest.raises(ImportRefused, match="did not audit clean"):
        import_game(elsewhere, lines)
    assert not elsewhere.store.exists("g")
    assert elsewhere.repository.snapshots.latest("g") is None
    assert "g" not in [game["id"] for game in elsewhere.index.list()[0]]


def test_exporting_a_broken_chain_stops_at_the_break(rt):
    exported(rt)
    key = rt.store.stream_key("g")
    raw = rt.redis.xrange(key, min="9-1", max="9-1")[0][1][b"e"]
    event = json.loads(raw)
    event["payload"]["changed"] = 1
    entries = rt.redis.xrange(key)
    rt.redis.delete(key)
    for entry_id, fields in entries:
        rt.redis.xadd(key, {"e": canonical_json(event) if entry_id == b"9-1" else fields[b"e"]}, id=entry_id)
    got = []
    with pytest.raises(ChainBreak) as broken:
        for line in export_lines(rt.store, "g"):
            got.append(line)
    assert broken.value.seq == 9 and len(got) == 8
