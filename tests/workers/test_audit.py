"""Auditing games (workers/audit.py): a tampered stream is caught and the first broken event named;
an untampered game of more than 1,000 events (and one with rewinds) audits clean.

Tampering is done the way someone with access to Redis would: by writing the stream key
directly (XDEL, or DEL and XADD every entry again with the change), never through the store.
"""

from __future__ import annotations

import pytest

import engine
from events.envelope import canonical_json, event_hash
from projections.snapshots import encode
from tests.workers.games import play, recorded_commands, rewrite_stream, stream_entries
from tests.workers.thread_jobs import installed, run_jobs
from workers import jobs
from workers.audit import audit_game, audit_lines
from workers.rewind import rewind


@pytest.fixture
def game(rt):
    """A game of some 60 commands; returns its id."""
    play(rt, "g", recorded_commands("audit", commands=60))
    return "g"


def audit(rt, game_id="g"):
    return audit_game(rt.store, rt.repository, game_id)


def first_of_type(items, type_name: str, after: int = 10) -> int:
    return next(k for k, (_, e) in enumerate(items) if e["type"] == type_name and e["seq"] > after)


def test_an_untampered_game_of_more_than_a_thousand_events_audits_clean(rt):
    state = play(rt, "long", recorded_commands("audit-long", events=1200, players=5))
    assert state["v"] >= 1000
    report = audit(rt, "long")
    assert report.ok, report.problem
    assert report.events == report.version == state["v"]
    # it compared the refold with every checkpoint, the snapshot and the served state
    assert sum(label.startswith("checkpoint") for label in report.compared) == state["v"] // 50
    assert any(label.startswith("snapshot") for label in report.compared)
    assert any(label.startswith("the served state") for label in report.compared)


def test_a_game_with_rewinds_audits_clean(rt):
    commands = recorded_commands("audit-rewind", commands=120)
    n = play(rt, "g", commands[:40])["v"]
    play(rt, "g", commands[40:80])
    rewind(rt, "g", n, at=10**12)
    play(rt, "g", commands[40:])
    report = audit(rt)
    assert report.ok, report.problem


def test_a_changed_payload_is_named(rt, game):
    items = stream_entries(rt, game)
    k = first_of_type(items, "TokensMoved")
    entry_id, event = items[k]
    event["payload"]["moves"][0][3] += 1  # [colour, from, to, count]: one token more
    rewrite_stream(rt, game, items)
    report = audit(rt)
    assert not report.ok
    assert (report.problem.kind, report.problem.seq, report.problem.id, report.problem.type) == \
        ("hash-mismatch", event["seq"], entry_id, "TokensMoved")


def test_a_changed_and_rehashed_event_breaks_the_link_of_the_next(rt, game):
    items = stream_entries(rt, game)
    k = first_of_type(items, "PlayerJoined", after=0)
    items[k][1]["payload"]["name"] = "mallory"
    items[k][1]["hash"] = event_hash(items[k][1])
    rewrite_stream(rt, game, items)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("rewritten", items[k][1]["seq"])  # the anchors name the edited event
    rt.redis.delete(rt.store.anchors_key(game))  # a game stored before anchors were kept
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("broken-link", items[k][1]["seq"] + 1)


def test_a_deleted_event_is_named(rt, game):
    items = stream_entries(rt, game)
    rt.redis.xdel(rt.store.stream_key(game), items[30][0])
    problem = audit(rt).problem
    assert (problem.kind, problem.seq, problem.id) == ("sequence", 31, "32-1")
    assert "event 31 missing" in problem.detail


def test_reordered_events_are_named(rt, game):
    items = stream_entries(rt, game)
    (id_a, a), (id_b, b) = items[40], items[41]
    items[40], items[41] = (id_a, b), (id_b, a)  # the same entry ids, the contents swapped
    rewrite_stream(rt, game, items)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq, problem.id) == ("sequence", 41, "41-1")
    assert "expected event 41, found event 42" in problem.detail


def test_reordered_and_renumbered_events_are_named(rt, game):
    items = stream_entries(rt, game)
    a, b = items[40][1], items[41][1]
    a["seq"], b["seq"] = b["seq"], a["seq"]
    items[40], items[41] = (items[40][0], b), (items[41][0], a)
    rewrite_stream(rt, game, items)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("hash-mismatch", 41)


def test_a_rechained_stream_with_an_invalid_event_fails_its_schema(rt, game):
    items = stream_entries(rt, game)
    link = items[19][1]["hash"]
    items[20][1]["payload"]["surprise"] = True
    for _, event in items[20:]:
        event["prev_hash"] = link
        event["hash"] = link = event_hash(event)
    rewrite_stream(rt, game, items)
    rt.redis.hset(rt.store.head_key(game), "hash", link)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("rewritten", 21)
    rt.redis.delete(rt.store.anchors_key(game))  # without anchors, the schema check finds it
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("schema", 21)
    assert "surprise" in problem.detail


def rename_a_player_and_rehash_to_the_head(rt) -> int:
    """Someone with Redis access renames a player and re-hashes the chain up to the head record;
    returns the seq of the edited event."""
    play(rt, "g", recorded_commands("audit-rewrite", commands=80))
    items = stream_entries(rt, "g")
    joined = first_of_type(items, "PlayerJoined", after=0)
    items[joined][1]["payload"]["name"] = "mallory"
    link = items[joined - 1][1]["hash"]
    for _, event in items[joined:]:
        event["prev_hash"] = link
        event["hash"] = link = event_hash(event)
    rewrite_stream(rt, "g", items)
    rt.redis.hset(rt.store.head_key("g"), "hash", link)
    return items[joined][1]["seq"]


def test_a_whole_rewritten_chain_is_named_at_the_edited_event_by_the_anchors(rt):
    """15.12: an edit re-hashed through to the head record is named where it was made, not at the
    first checkpoint after it."""
    edited = rename_a_player_and_rehash_to_the_head(rt)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq) == ("rewritten", edited)
    assert "anchored" in problem.detail


def test_a_whole_rewritten_chain_is_caught_by_the_checkpoints_made_before(rt):
    rename_a_player_and_rehash_to_the_head(rt)
    assert rt.repository.snapshots.checkpoint_versions("g")
    rt.redis.delete(rt.store.anchors_key("g"))  # a game stored before anchors were kept: the checkpoints catch it
    problem = audit(rt).problem
    first_checkpoint = rt.repository.snapshots.checkpoint_versions("g")[0]
    assert (problem.kind, problem.seq) == ("rewritten", first_checkpoint)
    assert "checkpoint" in problem.detail


def test_events_added_behind_the_heads_back_are_named(rt, game):
    items = stream_entries(rt, game)
    extra = dict(items[-1][1], seq=len(items) + 1, prev_hash=items[-1][1]["hash"])
    extra["hash"] = event_hash(extra)
    rt.redis.xadd(rt.store.stream_key(game), {"e": canonical_json(extra)}, id=f"{len(items) + 1}-1")
    problem = audit(rt).problem
    assert problem.kind == "head-mismatch" and problem.seq == len(items) + 1


def test_a_snapshot_that_differs_from_the_refold_is_named(rt, game):
    version = rt.store.version(game)
    state = engine.fold(rt.store.read(game))
    state["planets"][next(iter(state["planets"]))]["red"] = 99
    rt.redis.hset(rt.repository.snapshots.snapshot_key(game),
                  mapping={"version": version, "data": encode(version, rt.store.head(game)[1], state)})
    problem = audit(rt).problem
    assert problem.kind == "state-mismatch" and problem.seq == version
    assert "snapshot" in problem.detail and "planets" in problem.detail


def test_undecodable_text_is_named(rt, game):
    items = stream_entries(rt, game)
    key = rt.store.stream_key(game)
    rt.redis.delete(key)
    for entry_id, event in items:
        rt.redis.xadd(key, {"e": "{not json" if entry_id == "7-1" else canonical_json(event)}, id=entry_id)
    problem = audit(rt).problem
    assert (problem.kind, problem.seq, problem.id) == ("undecodable", 7, "7-1")


def test_audit_lines_names_the_line(rt, game):
    lines = [(n, canonical_json(e)) for n, (_, e) in enumerate(stream_entries(rt, game), start=1)]
    assert audit_lines(game, lines).ok
    del lines[9]
    report = audit_lines(game, lines)
    assert (report.problem.kind, report.problem.id) == ("sequence", "line 11")


def test_the_audit_job_runs_on_the_low_queue(rt, game):
    with installed(rt):
        job = rt.enqueue(jobs.audit_game, game, queue="low")
        run_jobs(rt, scheduler=False)
        result = job.return_value()
    assert job.origin.endswith(".low")
    assert result["ok"] is True and result["events"] == rt.store.version(game)


def test_an_audit_of_a_game_being_played_reads_one_version_and_gives_no_false_alarm(rt, monkeypatch):
    """15.11: commands appended (and snapshots written) while the audit reads are not its business."""
    from workers import audit as audit_module
    commands = recorded_commands("audit-live", commands=160)
    play(rt, "live", commands[:80])
    reading = audit_module.stream_entries

    def play_while_reading(store, game_id, *args, **kw):
        for k, entry in enumerate(reading(store, game_id, *args, **kw)):
            if k == 20:  # mid-read, the game goes on: more events, new checkpoints, a new cached state
                play(rt, "live", commands[80:])
            yield entry

    monkeypatch.setattr(audit_module, "stream_entries", play_while_reading)
    version_at_start = rt.store.version("live")
    report = audit(rt, "live")
    assert report.ok, report.problem
    assert report.version == version_at_start < rt.store.version("live")
