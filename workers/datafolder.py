"""The embedded mode's persistence: each game's events as JSON lines in a local folder.

``<data_dir>/<game_id>.jsonl`` holds one sealed event per line, in order. At start every
file is read, its hash chain verified and its events restored into the (empty, in-process)
store; after every append the new events are added to the game's file, so a restarted
``cosmic serve`` finds its games again. Each write is fsync'ed before the append's answer
leaves (a crash, even of the machine, keeps what was answered). A file whose chain does not verify is left alone
and not loaded (the error is logged). A lock file keeps a second process off the folder.

The folder holds every dealt hand, the deck orders and the webhook secrets: it is the owner's
alone (0700, its files 0600, what an older version left readable tightened at open).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import threading
from pathlib import Path

from events.envelope import canonical_json

log = logging.getLogger(__name__)
SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,100}$")


def private(path, flags: int) -> int:
    """An ``opener`` for `open` that creates the file readable and writable by its owner only."""
    return os.open(path, flags, 0o600)


def owner_only(folder: Path) -> None:
    """The folder 0700 and every file in it 0600 (whatever the umask or an older version made)."""
    os.chmod(folder, 0o700)
    for entry in folder.iterdir():
        if entry.is_file() and not entry.is_symlink():
            os.chmod(entry, 0o600)


def fsync_folder(folder: Path) -> None:
    """Make a file's creation or rename durable (its entry in the folder)."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


class DataFolderBusy(RuntimeError):
    """Another process already keeps its games in this folder."""


class DataFolder:
    """One folder of ``<game_id>.jsonl`` files mirroring the store's streams."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
        owner_only(self.path)
        self._lock_file = open(self.path / ".lock", "w", opener=private)  # noqa: SIM115 (held for the process's life)
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_file.close()
            raise DataFolderBusy(f"another process is using the data folder {self.path}") from None
        self._written: dict[str, int] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def close(self) -> None:
        """Release the folder's lock."""
        if not self._lock_file.closed:
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)
            self._lock_file.close()

    def file_of(self, game_id: str) -> Path:
        """The file holding a game's events."""
        return self.path / f"{game_id}.jsonl"

    # --- loading ------------------------------------------------------------------------------

    def load_into(self, store) -> dict:
        """Restore every game file into ``store``; returns ``{"loaded": [ids], "failed": {id: reason}}``."""
        loaded, failed = [], {}
        for file in sorted(self.path.glob("*.jsonl")):
            game_id = file.stem
            try:
                events = self._read(file)
                store.restore(game_id, events)
            except Exception as exc:  # one bad file must not keep the others from loading
                failed[game_id] = f"{type(exc).__name__}: {exc}"
                log.error("data folder: game %s not loaded: %s", game_id, failed[game_id])
                continue
            self._written[game_id] = len(events)
            loaded.append(game_id)
        return {"loaded": loaded, "failed": failed}

    @staticmethod
    def _read(file: Path) -> list[dict]:
        """The events of a file; a torn last line (a crash mid-write) is cut off the file."""
        raw = file.read_bytes()
        lines = raw.split(b"\n")
        complete, tail = lines[:-1], lines[-1]
        if tail.strip():
            try:
                complete.append(tail)
                json.loads(tail)
            except ValueError:
                complete.pop()
                log.warning("data folder: cutting a torn last line off %s", file)
                with open(file, "r+b") as handle:
                    handle.truncate(len(raw) - len(tail))
        return [json.loads(line) for line in complete if line.strip()]

    # --- mirroring ----------------------------------------------------------------------------

    def sync(self, store, game_id: str) -> int:
        """Append the game's events the file does not hold yet; returns how many were written."""
        if not SAFE_ID.match(game_id):
            log.warning("data folder: game id %r is not a safe file name; not kept", game_id)
            return 0
        with self._lock_for(game_id):
            done = self._written.get(game_id)
            if done is None:
                done = self._count_lines(self.file_of(game_id))
            events = store.read(game_id, after=done)
            if events:
                file = self.file_of(game_id)
                created = not file.exists()
                with open(file, "a", encoding="utf-8", opener=private) as handle:
                    handle.write("".join(canonical_json(event) + "\n" for event in events))
                    handle.flush()
                    os.fsync(handle.fileno())  # on disk before the append's answer leaves
                if created:
                    fsync_folder(self.path)
            self._written[game_id] = done + len(events)
            return len(events)

    def listener(self, store):
        """A `CommandRunner` listener that mirrors every append."""
        def mirror(game_id, before, after, events):
            self.sync(store, game_id)
        return mirror

    def _lock_for(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    @staticmethod
    def _count_lines(file: Path) -> int:
        if not file.exists():
            return 0
        with open(file, "rb") as handle:
            return sum(1 for line in handle if line.strip())
