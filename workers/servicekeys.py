"""The embedded mode keeps more than events: tokens, webhook subscriptions and positions, idempotency answers.

In production they live in Redis; in the embedded mode Redis lives in the process (fakeredis)
and starts empty, so a restart would lock the players out (their tokens gone), forget
subscriptions, send delivered webhook events again and answer a retried request anew.
`ServiceKeys` keeps every key of the service's prefix that is not derived from the events in
the data folder, in two files:

- ``.service.json``: a snapshot of every kept key (type, value, remaining time to live);
- ``.service.journal``: one JSON line per change since that snapshot, the key's whole state
  after it (or ``gone``), appended and fsync'ed by `flush`.

Nothing the service answers may be lost in a crash, so `flush` runs before an answer leaves
(the app's ``after_request`` in the embedded mode, `app.durable`), after every append before
its events reach the game's file (`Runtime.attach_data_folder`), and after every webhook
position moves (`workers.webhooks`); a background thread also flushes once a second. Which
keys changed is learnt from the in-process Redis' keyspace notifications (a pattern
subscription on the prefix), so a flush writes only what changed, never the whole set. On a
Redis that is not in-process (a test's), `flush` saves the whole snapshot instead.

At start `load` reads the snapshot, replays the journal (a torn last line, a crash mid-write, is
skipped) and writes a fresh snapshot. An idempotency answer recording a version its game's
file does not reach (a crash between the journal and the events file) is dropped by
`forget_unwritten_answers`: its events were never written, nor was the answer sent.

Not kept: the event streams and their head records (the ``.jsonl`` files are their copy), what
is rebuilt from them (snapshots, checkpoints, the games list), short-lived leases and flags,
RQ's own keys (timers are scheduled again from the open deadlines at start, design note 5).
The rate limits' counters and the webhook delivery logs are in the snapshot (every minute and at
stop) but not journaled: a crash may give a client a fresh window or drop the last minute of a
delivery log (a diagnostic; the delivery counters and positions are journaled), never an answer.
Tokens are kept as the digests the store holds.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import threading
import time
from pathlib import Path

import fakeredis

from workers.datafolder import fsync_folder, private

log = logging.getLogger(__name__)
FILE_NAME = ".service.json"
JOURNAL_NAME = ".service.journal"
SAVE_EVERY = 1.0  # seconds between the background flushes
SNAPSHOT_EVERY = 60.0  # seconds between the background snapshots (what the journal leaves out)
COMPACT_BYTES = 4 * 1024 * 1024  # a journal this long is folded into a fresh snapshot
# key endings that are rebuilt or short-lived
SKIPPED_ENDINGS = (":head", ":events", ":anchors", ":lease", ":queued", ":later", ":snapshot", ":checkpoints", ":meta")
IDEMPOTENCY = re.compile(rb"^(?P<prefix>.*):\{(?P<game>[^}]*)\}:idem:[0-9a-f]+$")


def _b64(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text)


def _now_ms() -> int:
    return int(time.time() * 1000)


class ServiceKeys:
    """Keep the keys of one prefix that the event files do not hold: snapshot, journal, restore."""

    def __init__(self, redis, prefix: str, folder: str | os.PathLike):
        self.redis, self.prefix = redis, prefix
        self.folder = Path(folder)
        self.file = self.folder / FILE_NAME
        self.journal = self.folder / JOURNAL_NAME
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._changes = self._watch_changes()
        self._pending: dict[bytes, None] = {}  # changed keys a failed flush did not write

    # --- which keys --------------------------------------------------------------------------

    def kept(self, key: bytes) -> bool:
        """Whether a key is the service's own state (not events, not rebuilt, not transient)."""
        text = key.decode("utf-8", "replace")
        return text.startswith(self.prefix + ":") and not text.endswith(SKIPPED_ENDINGS) \
            and not text.startswith(self.prefix + ":games:")  # the games list is rebuilt from the files

    def journaled(self, key: bytes) -> bool:
        """Whether a change to a kept key is written before the next answer.

        All but the rate limits' counters and the webhook delivery logs (up to 1,000 entries each,
        rewritten whole at every delivery): those are kept by the snapshot every `SNAPSHOT_EVERY`.
        """
        text = key.decode("utf-8", "replace")
        return self.kept(key) and not text.startswith(self.prefix + ":limits:") \
            and not (text.startswith(self.prefix + ":webhook:") and text.endswith(":log"))

    def _watch_changes(self):
        """A pattern subscription to the in-process Redis' keyspace events of the prefix (None elsewhere)."""
        if not isinstance(self.redis, fakeredis.FakeRedis):
            return None
        db = self.redis.connection_pool.connection_kwargs.get("db", 0)
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.psubscribe(f"__keyspace@{db}__:" + re.sub(r"([*?\[\]\\])", r"\\\1", self.prefix) + ":*")
        self._channel_start = len(f"__keyspace@{db}__:")
        return pubsub

    def _changed(self) -> list[bytes]:
        """The keys written since the last call (each once, in the order first written)."""
        seen: dict[bytes, None] = {}
        while True:
            message = self._changes.get_message(timeout=0)
            if message is None:
                return list(seen)
            if message.get("type") == "pmessage":
                seen[message["channel"][self._channel_start:]] = None

    # --- one key -----------------------------------------------------------------------------

    def entry(self, key: bytes) -> dict | None:
        """A key's type, value (base64) and remaining time to live; None when it does not exist."""
        kind = self.redis.type(key)
        kind = kind.decode() if isinstance(kind, bytes) else kind
        if kind == "string":
            value = _b64(self.redis.get(key) or b"")
        elif kind == "hash":
            value = {_b64(k): _b64(v) for k, v in self.redis.hgetall(key).items()}
        elif kind == "set":
            value = sorted(_b64(m) for m in self.redis.smembers(key))
        elif kind == "zset":
            value = [[_b64(m), s] for m, s in self.redis.zrange(key, 0, -1, withscores=True)]
        elif kind == "list":
            value = [_b64(v) for v in self.redis.lrange(key, 0, -1)]
        else:
            return None  # gone (or a stream: the .jsonl files' business)
        ttl = self.redis.pttl(key)
        return {"type": kind, "value": value, "ttl_ms": ttl if ttl and ttl > 0 else None}

    def _restore(self, pipe, key: bytes, entry: dict | None, elapsed_ms: int) -> bool:
        """Queue the commands that give ``key`` the state ``entry`` (None: gone) had ``elapsed_ms`` ago."""
        pipe.delete(key)
        if entry is None:
            return False
        value, ttl, kind = entry["value"], entry.get("ttl_ms"), entry["type"]
        if ttl is not None and ttl <= elapsed_ms:
            return False  # its time ran out while the service was down
        if kind == "string":
            pipe.set(key, _unb64(value))
        elif kind == "hash" and value:
            pipe.hset(key, mapping={_unb64(k): _unb64(v) for k, v in value.items()})
        elif kind == "set" and value:
            pipe.sadd(key, *[_unb64(m) for m in value])
        elif kind == "zset" and value:
            pipe.zadd(key, {_unb64(m): s for m, s in value})
        elif kind == "list" and value:
            pipe.rpush(key, *[_unb64(v) for v in value])
        if ttl is not None:
            pipe.pexpire(key, ttl - elapsed_ms)
        return True

    # --- the snapshot ------------------------------------------------------------------------

    def dump(self) -> dict:
        """Every kept key: its type, value (base64) and remaining time to live."""
        entries = {}
        for key in self.redis.scan_iter(match=f"{self.prefix}:*", count=500):
            if self.kept(key) and (entry := self.entry(key)) is not None:
                entries[_b64(key)] = entry
        return {"saved_at_ms": _now_ms(), "keys": entries}

    def save(self) -> int:
        """Write a fresh snapshot (fsync'ed, then renamed over the old one) and empty the journal; returns how many keys."""
        with self._lock:
            return self._save()

    def _save(self) -> int:
        if self._changes is not None:
            self._changed()  # the snapshot holds them all: the journal starts after it
            self._pending.clear()
        dumped = self.dump()
        partial = self.file.with_suffix(".part")
        with open(partial, "w", encoding="utf-8", opener=private) as handle:  # owner-only: token digests, webhook secrets
            handle.write(json.dumps(dumped, sort_keys=True))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, self.file)
        fsync_folder(self.folder)
        if self.journal.exists():
            with open(self.journal, "r+b") as handle:
                handle.truncate(0)
                os.fsync(handle.fileno())
        return len(dumped["keys"])

    # --- the journal -------------------------------------------------------------------------

    def flush(self) -> int:
        """Write every change to a journaled key since the last flush, fsync'ed; returns how many keys.

        Called before an answer leaves: what the service has answered is then on disk.
        """
        with self._lock:
            if self._changes is None:
                return self._save()
            self._pending.update(dict.fromkeys(k for k in self._changed() if self.journaled(k)))
            lines = [json.dumps({"key": _b64(key), "at_ms": _now_ms(), "entry": self.entry(key)}, sort_keys=True)
                     + "\n" for key in self._pending]
            if lines:
                self._append("".join(lines))
                self._pending.clear()
                if self.journal.stat().st_size > COMPACT_BYTES:
                    self._save()
            return len(lines)

    def _append(self, text: str) -> None:
        """Append to the journal and fsync; on a failure (a full disk) cut what was written and raise.

        The keys stay pending, so the next flush writes them (a torn line would have taken the
        next one with it).
        """
        created = not self.journal.exists()
        with open(self.journal, "a", encoding="utf-8", opener=private) as handle:
            size = handle.tell()
            try:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            except OSError:
                try:
                    handle.truncate(size)
                except OSError:
                    log.exception("data folder: could not cut a failed write off %s", self.journal)
                raise
        if created:
            fsync_folder(self.folder)

    # --- at start ----------------------------------------------------------------------------

    def load(self) -> int:
        """Restore the snapshot and replay the journal, then fold both into a fresh snapshot; returns how many keys."""
        with self._lock:
            restored = self.restore()
            self._save()
            return restored

    def restore(self) -> int:
        """Restore the snapshot and replay the journal into this Redis, writing nothing to the folder.

        What a reader beside a running service uses (`workers.seal.folder_provenance`): folding
        into a fresh snapshot would truncate a journal the service is appending to.
        """
        return self._load_snapshot() + self._replay_journal()

    def _load_snapshot(self) -> int:
        if not self.file.exists():
            return 0
        try:
            dumped = json.loads(self.file.read_text())
        except ValueError as exc:
            log.error("data folder: %s is unreadable (%s); tokens and subscriptions were not restored", self.file, exc)
            return 0
        elapsed = max(0, _now_ms() - int(dumped.get("saved_at_ms", 0)))
        pipe = self.redis.pipeline(transaction=False)
        restored = sum(self._restore(pipe, _unb64(key), entry, elapsed) for key, entry in dumped.get("keys", {}).items())
        pipe.execute()
        return restored

    def _replay_journal(self) -> int:
        if not self.journal.exists():
            return 0
        changed = 0
        pipe = self.redis.pipeline(transaction=False)
        for number, line in enumerate(self.journal.read_bytes().split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                change = json.loads(line)
            except ValueError:
                log.warning("data folder: skipping a torn line %d of %s (a crash mid-write)", number, self.journal)
                continue
            self._restore(pipe, _unb64(change["key"]), change["entry"], max(0, _now_ms() - int(change["at_ms"])))
            changed += 1
        pipe.execute()
        return changed

    def forget_unwritten_answers(self, store, games: list[str]) -> int:
        """Drop the idempotency answers of ``games`` whose version their stream does not reach; returns how many.

        An append's answer is journaled before its events reach the game's file: a crash between
        the two leaves an answer for events that were never kept (and never acknowledged).
        """
        loaded, dropped = set(games), 0
        for key in self.redis.scan_iter(match=f"{self.prefix}:*:idem:*", count=500):
            found = IDEMPOTENCY.match(key)
            if found is None or found["prefix"].decode() != self.prefix:
                continue
            game_id = found["game"].decode("utf-8", "replace")
            try:
                version = int(json.loads(self.redis.get(key) or b"{}").get("version", 0))
            except (ValueError, AttributeError):
                continue
            if game_id in loaded and version > store.version(game_id):
                self.redis.delete(key)
                dropped += 1
        if dropped:
            log.warning("data folder: %d idempotency answer(s) named events that were never written; dropped", dropped)
            self.flush()
        return dropped

    # --- running -----------------------------------------------------------------------------

    def start(self) -> ServiceKeys:
        """Flush every `SAVE_EVERY` seconds (what no answer flushed) and snapshot every `SNAPSHOT_EVERY`, until `stop`."""
        def loop():
            snapshot_at = time.monotonic() + SNAPSHOT_EVERY
            while not self._stop.wait(SAVE_EVERY):
                try:
                    if time.monotonic() >= snapshot_at:
                        snapshot_at = time.monotonic() + SNAPSHOT_EVERY
                        self.save()
                    else:
                        self.flush()
                except Exception:  # keep trying: a full disk may clear
                    log.exception("data folder: could not save the service's keys")
        self._thread = threading.Thread(target=loop, name="cosmic-service-keys", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the flusher and save one last snapshot."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.save()
        except Exception:
            log.exception("data folder: could not save the service's keys at shutdown")
        if self._changes is not None:
            self._changes.close()
