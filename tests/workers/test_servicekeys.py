"""Issue 28 item 1: in the embedded mode what the service answered is on disk before the answer leaves.

A "crash" here is a copy of the data folder taken right after an answer (no close, no background
save: it is made to wait an hour), loaded by a fresh runtime, as a restarted `cosmic serve` would.
"""

from __future__ import annotations

import random
import shutil

import pytest

from app import create_app
from engine.players import random_command
from workers import servicekeys
from workers.runtime import Runtime
from workers.settings import Settings

ADMIN = {"Authorization": "Bearer adm"}


@pytest.fixture(autouse=True)
def no_background_save(monkeypatch):
    """Only what an answer itself puts on disk counts: the once-a-second saver never runs."""
    monkeypatch.setattr(servicekeys, "SAVE_EVERY", 3600)


def embedded(path) -> Runtime:
    runtime = Runtime(Settings(prefix="cosmic", admin_token="adm"))
    runtime.attach_data_folder(path)
    return runtime


def crashed_copy(folder, tmp_path) -> Runtime:
    """The folder as a crash right now leaves it, started again (a copy: the running one holds the lock)."""
    copy = tmp_path / "after-crash"
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns(".lock"))
    return embedded(copy)


def test_a_seat_token_and_a_subscription_are_on_disk_when_their_answers_leave(tmp_path):
    running = embedded(tmp_path / "data")
    client = create_app(running).test_client()
    game = client.post("/games", json={"seats": 2}).get_json()
    joined = client.post(f"/games/{game['id']}/players", json={"name": "Ann"}).get_json()
    hook = client.post("/webhooks", json={"url": "https://example.com/h", "game_id": game["id"]}, headers=ADMIN)
    assert hook.status_code == 201

    after = create_app(crashed_copy(tmp_path / "data", tmp_path)).test_client()
    seen = after.get(f"/games/{game['id']}/prompts", headers={"Authorization": f"Bearer {joined['token']}"})
    assert seen.status_code == 200, seen.get_json()
    assert after.get(f"/webhooks/{hook.get_json()['id']}", headers=ADMIN).status_code == 200
    running.close()


def test_an_idempotent_answer_is_on_disk_when_it_leaves_and_a_retry_gets_it(tmp_path):
    running = embedded(tmp_path / "data")
    client = create_app(running).test_client()
    game = client.post("/games", json={"seats": 2}).get_json()
    seats = {}
    for name in ("Ann", "Bob"):
        joined = client.post(f"/games/{game['id']}/players", json={"name": name}).get_json()
        seats[joined["color"]] = {"Authorization": f"Bearer {joined['token']}"}
    client.post(f"/games/{game['id']}/start", headers={"Authorization": f"Bearer {game['host_token']}"})
    owed = client.get(f"/games/{game['id']}").get_json()["pending"][0]["player"]
    prompt = client.get(f"/games/{game['id']}/prompts", headers=seats[owed]).get_json()["prompts"][0]
    rng = random.Random(1)
    for attempt in range(50):  # a legal answer to the owed decision (a random one may be refused: try again)
        body = {k: v for k, v in random_command(None, prompt, rng).items() if k != "player"}
        headers = {**seats[owed], "Idempotency-Key": f"once-{attempt}"}
        answered = client.post(f"/games/{game['id']}/actions", json=body, headers=headers)
        if answered.status_code == 200:
            break
    assert answered.status_code == 200, answered.get_json()

    after = create_app(crashed_copy(tmp_path / "data", tmp_path)).test_client()
    again = after.post(f"/games/{game['id']}/actions", json=body, headers=headers)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == answered.get_json()
    running.close()


def test_an_answer_whose_events_never_reached_the_game_file_is_dropped_at_start(tmp_path):
    running = embedded(tmp_path)
    running.commands.run("g", {"action": "create", "seats": 2, "seed": "s", "at": 1})
    running.commands.run("g", {"action": "join", "name": "Ann", "at": 2}, idempotency_key="join-ann",
                         respond=lambda state, events: {"v": state["v"]})
    assert running.store.idempotent_response("g", "join-ann") == {"v": 2}
    running.close()
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    (tmp_path / "g.jsonl").write_text(lines[0] + "\n")  # the crash came between the journal and the file

    again = embedded(tmp_path)
    assert again.store.version("g") == 1
    assert again.store.idempotent_response("g", "join-ann") is None  # the join is simply made anew
    outcome = again.commands.run("g", {"action": "join", "name": "Ann", "at": 2}, idempotency_key="join-ann",
                                 respond=lambda state, events: {"v": state["v"]})
    assert again.store.version("g") == 2 and outcome is not None
    again.close()


def test_a_torn_last_journal_line_is_skipped_and_the_rest_replayed(tmp_path):
    running = embedded(tmp_path / "data")
    running.redis.set("cosmic:kept:a", b"1")
    running.redis.set("cosmic:kept:b", b"2")
    running.durable()
    running.redis.set("cosmic:kept:b", b"3")
    running.durable()
    with open(tmp_path / "data" / servicekeys.JOURNAL_NAME, "a") as journal:
        journal.write('{"key": "Y29zbWljOmtlcHQ6Yw==", "at_ms"')  # a crash mid-write
    copy = crashed_copy(tmp_path / "data", tmp_path)
    assert copy.redis.get("cosmic:kept:a") == b"1" and copy.redis.get("cosmic:kept:b") == b"3"
    assert copy.redis.get("cosmic:kept:c") is None
    running.close()
    copy.close()


def test_the_rate_limit_counters_and_delivery_logs_are_not_journaled_but_snapshot(tmp_path):
    running = embedded(tmp_path / "data")
    running.redis.set("cosmic:limits:someone", b"7")
    running.redis.lpush("cosmic:webhook:abc:log", b"{}")
    assert running.service_keys.flush() == 0
    running.redis.hset("cosmic:webhook:abc:health", "delivered", 1)
    assert running.service_keys.flush() == 1
    running.service_keys.save()
    copy = crashed_copy(tmp_path / "data", tmp_path)
    assert copy.redis.get("cosmic:limits:someone") == b"7" and copy.redis.llen("cosmic:webhook:abc:log") == 1
    running.close()
    copy.close()


def test_a_failed_journal_write_is_cut_off_and_its_keys_written_by_the_next_flush(tmp_path, monkeypatch):
    """A full disk: the answer is refused (503), and nothing changed is forgotten once the disk has room."""
    import os
    running = embedded(tmp_path / "data")
    running.redis.set("cosmic:kept:a", b"1")
    real_fsync, full = os.fsync, {"now": True}

    def fsync(fd):
        if full["now"]:
            raise OSError(28, "No space left on device")
        real_fsync(fd)
    monkeypatch.setattr(servicekeys.os, "fsync", fsync)
    with pytest.raises(OSError):
        running.durable()
    assert (tmp_path / "data" / servicekeys.JOURNAL_NAME).read_bytes() == b""  # the torn write is cut off
    full["now"] = False
    assert running.service_keys.flush() == 1
    copy = crashed_copy(tmp_path / "data", tmp_path)
    assert copy.redis.get("cosmic:kept:a") == b"1"
    running.close()
    copy.close()


def test_an_answer_that_cannot_be_saved_is_a_503_with_retry_after(tmp_path, monkeypatch):
    running = embedded(tmp_path / "data")
    client = create_app(running).test_client()

    def full():
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(running, "durable", full)
    answer = client.post("/games", json={"seats": 2})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert "token" not in answer.get_data(as_text=True)
    monkeypatch.undo()
    running.close()
