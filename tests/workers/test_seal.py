"""Issue 28 item 9: sealed exports tell a forged history from a genuine one; import reads bounded lines.

The hash chain alone is keyless: an edited export with a recomputed chain verifies. The seal
(workers/seal.py) is an HMAC of the chain's head with the service's key, carried as an
export's last line; import refuses a forged history and marks an unsealed one.
"""

from __future__ import annotations

import json
import os
import stat
import tracemalloc

import fakeredis
import pytest

from app.cli import main
from events.envelope import event_hash
from tests.workers.games import make_runtime, play, recorded_commands
from workers import seal
from workers.errors import ImportRefused
from workers.settings import Settings
from workers.transfer import MAX_DEPTH, MAX_LINE, export_lines, import_game

KEY = "a-seal-key-of-thirty-two-bytes!!"


def service(name: str, key: str | None = KEY):
    """A service of its own (its own in-memory Redis) with the seal key ``key``."""
    return make_runtime(fakeredis.FakeRedis(server=fakeredis.FakeServer()), name, seal_key=key)


@pytest.fixture
def origin():
    runtime = service("origin")
    play(runtime, "g", recorded_commands("seal", commands=40))
    return runtime


def export(runtime, game_id="g") -> list[str]:
    return list(export_lines(runtime.store, game_id, runtime.sealer, runtime.provenance.unsealed_until(game_id)))


def forged(lines: list[str], name: str = "Mallory") -> list[str]:
    """The export with the first player's name changed and every hash after it recomputed (the seal kept)."""
    events = [json.loads(line) for line in lines[:-1]]
    joined = next(e for e in events if e["type"] == "PlayerJoined")
    joined["payload"]["name"] = name
    link = ""
    for event in events:
        event["prev_hash"] = link
        event["hash"] = link = event_hash(event)
    return [json.dumps(e, sort_keys=True, separators=(",", ":")) + "\n" for e in events] + [lines[-1]]


def test_an_export_ends_with_the_seal_of_its_head(origin):
    lines = export(origin)
    record = json.loads(lines[-1])
    events = origin.store.read("g")
    assert [json.loads(line) for line in lines[:-1]] == events
    assert record["version"] == len(events) and record["hash"] == events[-1]["hash"]
    assert record["key"] == origin.sealer.key_id and KEY not in lines[-1]


def test_a_genuine_export_imports_as_sealed_under_its_own_id_and_another(origin):
    lines = export(origin)
    same_key = service("again")
    result = import_game(same_key, lines)
    assert result["seal"] == "sealed" and result["unsealed_until"] is None and result["audit"]["ok"]
    assert import_game(same_key, lines, as_id="copy")["seal"] == "sealed"
    assert json.loads(export(same_key)[-1])["unsealed_until"] is None


def test_an_edited_export_with_a_recomputed_chain_is_refused_as_forged(origin):
    """The chain verifies (the old 'audit ok'), the seal does not: nothing is written."""
    target = service("target")
    for as_id in (None, "copy"):
        with pytest.raises(ImportRefused, match="forged"):
            import_game(target, forged(export(origin)), as_id=as_id)
    assert not target.store.exists("g") and not target.store.exists("copy")


def test_a_seal_that_names_another_head_or_has_another_mac_is_forged(origin):
    lines = export(origin)
    record = json.loads(lines[-1])
    for change in ({"version": record["version"] - 1}, {"mac": "0" * 64}, {"unsealed_until": None, "mac": "x"},
                   {"game_id": "other"}):
        bad = lines[:-1] + [json.dumps({**record, **change}) + "\n"]
        with pytest.raises(ImportRefused, match="forged"):
            import_game(service("t"), bad)
    with pytest.raises(ImportRefused, match="forged"):  # a genuine seal on a shortened history
        import_game(service("t"), lines[:-2] + lines[-1:])


def test_an_export_without_a_seal_imports_unsealed_and_stays_marked(origin):
    """An export made before seals (or with its seal cut off) is imported, said to be unsealed,
    and every later export of it carries the mark: re-exporting never makes it look genuine."""
    lines = export(origin)[:-1]
    target = service("target")
    result = import_game(target, lines)
    assert result["seal"] == "unsealed" and result["unsealed_until"] == len(lines)
    assert "nothing shows" in result["seal_detail"]
    record = json.loads(export(target)[-1])
    assert record["unsealed_until"] == len(lines)
    # the same forged history without its seal: imported, but only as unsealed
    assert import_game(service("t2"), forged(export(origin))[:-1])["seal"] == "unsealed"
    # the re-export, judged by a service with the same key: the seal fits, and says what it covers
    again = import_game(service("again"), export(target))
    assert again["seal"] == "sealed" and again["unsealed_until"] == len(lines)
    assert f"first {len(lines)} events came in unsealed" in again["seal_detail"]
    # a fork of it keeps the mark for the events it copied
    from workers.fork import fork
    made = fork(target, "g", new_id="f")
    assert target.provenance.unsealed_until(made["id"]) == len(lines)


def test_a_seal_by_another_key_imports_as_unsealed(origin):
    result = import_game(service("other", key="another-key-of-32-bytes-for-test"), export(origin))
    assert result["seal"] == "other-key" and result["unsealed_until"] == result["events"]


def test_a_seal_key_is_at_least_sixteen_bytes():
    with pytest.raises(ValueError, match="COSMIC_SEAL_KEY"):
        Settings.from_env({"COSMIC_SEAL_KEY": "short"})
    assert Settings.from_env({"COSMIC_SEAL_KEY": KEY}).seal_key == KEY


def test_the_embedded_folder_key_is_made_once_owner_only(tmp_path):
    first = seal.folder_key(tmp_path / "data")
    path = tmp_path / "data" / seal.KEY_FILE
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600 and len(first) == 32
    assert seal.folder_key(tmp_path / "data") == first


def test_without_a_configured_key_a_service_keeps_one_in_redis(origin):
    runtime = make_runtime(origin.redis, "origin")  # the same Redis, no COSMIC_SEAL_KEY
    again = make_runtime(origin.redis, "origin")
    assert runtime.sealer.key_id == again.sealer.key_id != origin.sealer.key_id


# --- bounded reading ----------------------------------------------------------------------------

def test_a_fifty_megabyte_line_is_refused_without_being_read_whole(origin, tmp_path):
    path = tmp_path / "huge.jsonl"
    with open(path, "w") as handle:
        handle.write(export(origin)[0])
        handle.write('{"pad":"' + "x" * (50 << 20) + '"}\n')
    tracemalloc.start()
    try:
        with open(path, encoding="utf-8") as handle, pytest.raises(ImportRefused) as refused:
            import_game(service("t"), handle)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert refused.value.line == 2 and f"longer than {MAX_LINE}" in str(refused.value)
    assert peak < 8 * MAX_LINE, f"peak {peak} bytes while refusing"


@pytest.mark.parametrize("line", [
    "[" * 200_000 + "]" * 200_000,                            # deeper than the parser's recursion
    '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),  # parses, but deeper than any event
])
def test_a_deeply_nested_line_is_a_clear_refusal(origin, line):
    with pytest.raises(ImportRefused, match=f"nested more than {MAX_DEPTH} levels") as refused:
        import_game(service("t"), [export(origin)[0], line + "\n"])
    assert refused.value.line == 2


def test_cosmic_import_says_why_it_refuses_a_nested_line_and_a_forged_file(origin, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("COSMIC_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COSMIC_SEAL_KEY", KEY)
    nested = tmp_path / "nested.jsonl"
    nested.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    assert main(["import", str(nested)]) == 1
    assert "nested more than" in capsys.readouterr().err
    fake = tmp_path / "fake.jsonl"
    fake.write_text("".join(forged(export(origin))))
    assert main(["import", str(fake)]) == 1
    assert "forged" in capsys.readouterr().err
    genuine = tmp_path / "genuine.jsonl"
    genuine.write_text("".join(export(origin)))
    assert main(["import", str(genuine)]) == 0
    assert "seal ok" in capsys.readouterr().out
    old = tmp_path / "old.jsonl"
    old.write_text("".join(export(origin)[:-1]))
    assert main(["import", str(old), "--as", "old"]) == 0
    assert "UNSEALED" in capsys.readouterr().out
    out = tmp_path / "again.jsonl"
    assert main(["export", "old", "-o", str(out)]) == 0  # the embedded export reads the mark from the folder
    assert json.loads(out.read_text().splitlines()[-1])["unsealed_until"] == len(export(origin)) - 1


def test_cosmic_audit_of_an_export_file_tells_forged_from_genuine(origin, tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("COSMIC_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COSMIC_SEAL_KEY", KEY)
    files = {"genuine": export(origin), "forged": forged(export(origin)), "old": export(origin)[:-1]}
    for name, lines in files.items():
        (tmp_path / f"{name}.jsonl").write_text("".join(lines))
    assert main(["audit", "--file", str(tmp_path / "genuine.jsonl")]) == 0
    assert ": ok, sealed: game g" in capsys.readouterr().out
    assert main(["audit", "--file", str(tmp_path / "forged.jsonl")]) == 1
    assert ": FORGED: " in capsys.readouterr().out
    assert main(["audit", "--file", str(tmp_path / "old.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seal"] == "unsealed"


def test_the_audit_of_a_game_imported_unsealed_says_so(origin):
    from workers.audit import audit_game
    target = service("target")
    import_game(target, export(origin)[:-1])
    report = audit_game(target.store, target.repository, "g")
    assert report.ok and report.unsealed_until == report.events
    assert audit_game(origin.store, origin.repository, "g").unsealed_until is None
