"""``cosmic audit | replay | export | import | rewind | fork`` (app/history_cli.py), called as `app.cli.main`.

Each test runs against the embedded mode's data folder and, with REDIS_URL set, against real
Redis under the test's key prefix.
"""

from __future__ import annotations

import json

import fakeredis
import pytest

from app.cli import main
from events.envelope import canonical_json
from tests.workers.games import play, recorded_commands, tamper_time
from workers.datafolder import DataFolder
from workers.runtime import Runtime
from workers.settings import Settings


class Service:
    """Where the commands find their games: a data folder (embedded) or a Redis prefix."""

    def __init__(self, mode: str, tmp_path, key_prefix: str, monkeypatch):
        self.mode, self.folder = mode, tmp_path / "data"
        url = None
        if mode == "redis":
            import os
            url = os.environ.get("REDIS_URL")
            if not url:
                pytest.skip("REDIS_URL is not set")
            monkeypatch.setenv("REDIS_URL", url)
        else:
            monkeypatch.delenv("REDIS_URL", raising=False)
        monkeypatch.setenv("COSMIC_PREFIX", key_prefix)
        monkeypatch.setenv("COSMIC_DATA_DIR", str(self.folder))
        monkeypatch.setenv("COSMIC_CHECKPOINT_EVERY", "50")
        self.settings = Settings(redis_url=url, prefix=key_prefix, data_dir=str(self.folder), checkpoint_every=50,
                                 snapshot_every=20)

    def runtime(self) -> Runtime:
        """A runtime on the same games (close it before running a command that writes)."""
        if self.mode == "redis":
            return Runtime(self.settings)
        runtime = Runtime(self.settings, redis_client=fakeredis.FakeRedis(server=fakeredis.FakeServer()))
        runtime.attach_data_folder(self.folder)
        return runtime

    def make_game(self, game_id: str, commands: list[dict]) -> dict:
        runtime = self.runtime()
        try:
            return play(runtime, game_id, commands)
        finally:
            runtime.close()

    def events(self, game_id: str) -> list[dict]:
        runtime = self.runtime()
        try:
            return runtime.store.read(game_id)
        finally:
            runtime.close()

    def tamper(self, game_id: str, seq: int) -> None:
        """Change one event's time without re-hashing it, behind the store's back."""
        if self.mode == "embedded":
            file = self.folder / f"{game_id}.jsonl"
            lines = file.read_text().splitlines()
            event = json.loads(lines[seq - 1])
            event["time"] += 1
            lines[seq - 1] = canonical_json(event)
            file.write_text("\n".join(lines) + "\n")
            return
        runtime = self.runtime()
        tamper_time(runtime, game_id, seq)
        runtime.close()


@pytest.fixture(params=["embedded", "redis"])
def service(request, tmp_path, key_prefix, monkeypatch):
    return Service(request.param, tmp_path, key_prefix, monkeypatch)


@pytest.fixture
def commands():
    return recorded_commands("cli", commands=80)


def test_audit_says_ok_or_names_the_broken_event_with_a_nonzero_exit(service, commands, capsys):
    service.make_game("g", commands)
    assert main(["audit", "g"]) == 0
    assert capsys.readouterr().out.startswith("g: ok, ")
    service.tamper("g", 12)
    assert main(["audit", "g"]) == 1
    out = capsys.readouterr().out
    assert "g: BROKEN at event 12" in out and "hash-mismatch" in out
    assert main(["audit", "--all", "--json"]) == 1
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game_id"], r["ok"], r["problem"]["seq"]) for r in reports] == [("g", False, 12)]
    assert main(["audit", "nope"]) == 2


def test_export_then_import_under_another_id_round_trips(service, commands, tmp_path, capsys):
    service.make_game("g", commands)
    out = tmp_path / "g-export.jsonl"
    assert main(["export", "g", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    seal = json.loads(lines.pop())                               # the last line: the seal of the head
    assert seal["cosmic_seal"] == 1 and seal["version"] == len(lines) and seal["hash"] == json.loads(lines[-1])["hash"]
    assert [json.loads(line) for line in lines] == service.events("g")
    assert main(["import", str(out)]) == 1                      # the id is taken
    assert "already a game" in capsys.readouterr().err
    assert main(["import", str(out), "--as", "copy"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"imported {len(lines)} events as game copy (from g)") and "seal ok" in said
    copied = service.events("copy")
    assert [e["payload"] for e in copied] == [json.loads(line)["payload"] for line in lines]
    assert main(["audit", "copy"]) == 0
    assert main(["export", "nope"]) == 2


def test_import_refuses_a_tampered_file_naming_the_line(service, commands, tmp_path, capsys):
    service.make_game("g", commands)
    out = tmp_path / "g.jsonl"
    assert main(["export", "g", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    del lines[6]
    out.write_text("\n".join(lines) + "\n")
    assert main(["import", str(out), "--as", "copy"]) == 1
    err = capsys.readouterr().err
    assert "line 7" in err and "sequence" in err
    assert main(["import", str(tmp_path / "missing.jsonl")]) == 2


def test_export_refuses_a_broken_chain(service, commands, tmp_path, capsys):
    service.make_game("g", commands)
    service.tamper("g", 9)
    out = tmp_path / "x.jsonl"
    assert main(["export", "g", "-o", str(out)]) == 1
    assert not out.exists()
    assert "broken" in capsys.readouterr().err


def test_rewind_fork_and_replay(service, commands, capsys):
    n = service.make_game("g", commands[:50])["v"]
    head = service.make_game("g", commands[50:])["v"]
    assert main(["rewind", "g", str(n)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["version"] == head + 1 and result["to_version"] == n
    assert main(["rewind", "g", "2"]) == 1
    assert "lobby" in capsys.readouterr().err
    assert main(["fork", "g", "--version", str(n), "--as", "f1"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["id"] == "f1" and made["version"] == n
    assert set(made["tokens"]) == (set() if service.mode == "embedded" else {"red", "blue", "yellow"})
    assert len(service.events("f1")) == n
    assert main(["replay", "g"]) == 0
    assert "events folded" in capsys.readouterr().out
    assert main(["replay", "--all"]) == 0
    assert "replayed 2 games" in capsys.readouterr().out
    assert main(["audit", "--all"]) == 0
    assert main(["rewind", "nope", "3"]) == 2


def test_writing_commands_refuse_a_data_folder_in_use(tmp_path, key_prefix, monkeypatch, capsys):
    service = Service("embedded", tmp_path, key_prefix, monkeypatch)
    service.make_game("g", recorded_commands("cli-busy", commands=30))
    held = DataFolder(service.folder)  # as `cosmic serve` holds it
    try:
        assert main(["rewind", "g", "20"]) == 2
        assert "cosmic serve" in capsys.readouterr().err
        assert main(["audit", "g"]) == 0  # reading needs no lock
    finally:
        held.close()


def test_a_game_id_starting_with_a_dash_is_a_game_id_not_an_option(service, commands, capsys, tmp_path):
    """15.14: the service may make ids like "-x1Ab"; `cosmic audit -x1Ab` must audit that game."""
    service.make_game("-x1Ab", commands)
    assert main(["audit", "-x1Ab"]) == 0
    assert capsys.readouterr().out.startswith("-x1Ab: ok, ")
    assert main(["audit", "-x1Ab", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["game_id"] == "-x1Ab"
    assert main(["export", "-x1Ab", "-o", str(tmp_path / "out.jsonl")]) == 0
