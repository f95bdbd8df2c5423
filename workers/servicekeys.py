"""The embedded mode keeps more than events: tokens, webhook subscriptions, idempotency answers.

In production they live in Redis; in the embedded mode Redis lives in the process and starts
empty, so a restart would lock the players out (their tokens gone), forget subscriptions and
answer a retried request anew. `ServiceKeys` copies every key of the service's prefix that is
not derived from the events into ``<data_dir>/.service.json`` (a second after it changes, and at
shutdown) and restores them at the next start, with their remaining time to live. Tokens are
kept as the digests the store holds (never the tokens themselves).

Not kept: the event streams and their head records (the ``.jsonl`` files are their copy), what
is rebuilt from them (snapshots, checkpoints, the games list), short-lived leases and flags, and
RQ's own keys (timers are scheduled again from the open deadlines at start, design note 5).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import threading
import time
from pathlib import Path

from workers.datafolder import private

log = logging.getLogger(__name__)
FILE_NAME = ".service.json"
SAVE_EVERY = 1.0  # seconds
# key endings that are rebuilt or short-lived
SKIPPED_ENDINGS = (":head", ":events", ":anchors", ":lease", ":queued", ":later", ":snapshot", ":checkpoints", ":meta")


def _b64(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text)


class ServiceKeys:
    """Save and restore the keys of one prefix that the event files do not hold."""

    def __init__(self, redis, prefix: str, folder: str | os.PathLike):
        self.redis, self.prefix = redis, prefix
        self.file = Path(folder) / FILE_NAME
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def kept(self, key: bytes) -> bool:
        """Whether a key is the service's own state (not events, not rebuilt, not transient)."""
        text = key.decode("utf-8", "replace")
        return text.startswith(self.prefix + ":") and not text.endswith(SKIPPED_ENDINGS) \
            and not text.startswith(self.prefix + ":games:")  # the games list is rebuilt from the files

    def dump(self) -> dict:
        """Every kept key: its type, value (base64) and remaining time to live."""
        entries = {}
        for key in self.redis.scan_iter(match=f"{self.prefix}:*", count=500):
            if not self.kept(key):
                continue
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
                continue  # streams are the .jsonl files' business
            ttl = self.redis.pttl(key)
            entries[_b64(key)] = {"type": kind, "value": value, "ttl_ms": ttl if ttl and ttl > 0 else None}
        return {"saved_at_ms": int(time.time() * 1000), "keys": entries}

    def save(self) -> int:
        """Write the kept keys to the file (atomically); returns how many."""
        dumped = self.dump()
        partial = self.file.with_suffix(".part")
        with open(partial, "w", opener=private) as handle:  # owner-only: token digests, webhook secrets
            handle.write(json.dumps(dumped, sort_keys=True))
        os.replace(partial, self.file)
        return len(dumped["keys"])

    def load(self) -> int:
        """Restore the saved keys (a key whose time ran out while the service was down stays gone)."""
        if not self.file.exists():
            return 0
        try:
            dumped = json.loads(self.file.read_text())
        except ValueError as exc:
            log.error("data folder: %s is unreadable (%s); tokens and subscriptions were not restored", self.file, exc)
            return 0
        elapsed = max(0, int(time.time() * 1000) - int(dumped.get("saved_at_ms", 0)))
        restored = 0
        pipe = self.redis.pipeline(transaction=False)
        for raw_key, entry in dumped.get("keys", {}).items():
            key, value, ttl = _unb64(raw_key), entry["value"], entry.get("ttl_ms")
            if ttl is not None and ttl <= elapsed:
                continue
            pipe.delete(key)
            kind = entry["type"]
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
                pipe.pexpire(key, ttl - elapsed)
            restored += 1
        pipe.execute()
        return restored

    def start(self) -> ServiceKeys:
        """Save every `SAVE_EVERY` seconds in a background thread until `stop`."""
        def loop():
            while not self._stop.wait(SAVE_EVERY):
                try:
                    self.save()
                except Exception:  # keep trying: a full disk may clear
                    log.exception("data folder: could not save the service's keys")
        self._thread = threading.Thread(target=loop, name="cosmic-service-keys", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the saver and save one last time."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.save()
        except Exception:
            log.exception("data folder: could not save the service's keys at shutdown")
