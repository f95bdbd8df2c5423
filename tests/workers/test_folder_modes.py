"""Issue 28 item 10: the embedded data folder is its owner's alone.

It holds every dealt hand and deck order (the game files), the token digests and webhook
secrets (``.service.json``) and the seal key: the folder is 0700 and its files 0600, whatever
the process's umask, and a folder an older version left readable is tightened when opened.
"""

from __future__ import annotations

import os
import stat

from tests.workers.test_datafolder import embedded, make_game
from workers.seal import KEY_FILE


def modes(folder) -> dict[str, int]:
    return {entry.name: stat.S_IMODE(entry.stat().st_mode) for entry in folder.iterdir()}


def test_every_file_of_the_data_folder_is_created_owner_only(tmp_path):
    folder = tmp_path / "data"
    old = os.umask(0o022)  # the usual umask, under which files came out readable by every local user
    try:
        runtime = embedded(folder)
        make_game(runtime, "g")
        runtime.store.redis.set("cosmic:webhooks:serial", 1)  # something for .service.json to keep
        runtime.sealer  # noqa: B018 (makes the folder's seal key)
        runtime.service_keys.save()
        runtime.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    found = modes(folder)
    assert {"g.jsonl", ".service.json", ".lock", KEY_FILE} <= set(found), found
    assert all(mode == 0o600 for mode in found.values()), {n: oct(m) for n, m in found.items()}


def test_a_folder_left_readable_by_an_older_version_is_tightened_when_opened(tmp_path):
    folder = tmp_path / "data"
    runtime = embedded(folder)
    make_game(runtime, "g")
    runtime.service_keys.save()
    runtime.close()
    os.chmod(folder, 0o755)
    for entry in folder.iterdir():
        os.chmod(entry, 0o644)
    embedded(folder).close()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert set(modes(folder).values()) == {0o600}
