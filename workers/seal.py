"""The seal: a keyed MAC of a game's chain head, so a history changed outside the service is told apart.

The hash chain (events.envelope) is keyless: whoever edits an event and recomputes every later
hash has a chain that verifies. The seal is an HMAC-SHA256, with a key only the service holds,
of what the chain's head stands for (``game_id``, ``version``, the last event's ``hash``, and
how much of the history came in unsealed); since every event's hash is linked into the next,
the head's seal covers every event before it. An export ends with one seal line:

    {"cosmic_seal":1,"game_id":…,"version":N,"hash":…,"unsealed_until":null,"key":<key id>,"mac":<hex>}

`verdict` judges a file's last line against its chain: ``sealed`` (the MAC is ours and fits),
``forged`` (our key's id, but the MAC or the head it names does not fit the events: the history
was changed after it was sealed), ``other-key`` (sealed by a service with another key: nothing
to check it with here) or ``unsealed`` (no seal line: an export older than seals). Imports refuse
``forged``; the others import, and the game keeps the mark ``unsealed_until`` = its version at
import (`Provenance`), which every later seal of it carries, so a re-export never launders an
unverified history into a sealed one.

The key: ``COSMIC_SEAL_KEY``; else, in the embedded mode, one generated once into the data
folder (``.seal.key``, owner-only); else one generated once into Redis (``<prefix>:seal:key``),
which anyone who can read that Redis can use: set ``COSMIC_SEAL_KEY`` in production.
docs/design-notes.md says what the seal does and does not prove.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

FORMAT = 1
KEY_FILE = ".seal.key"


class Sealer:
    """Seals and checks chain heads with one key."""

    def __init__(self, key: bytes):
        if len(key) < 16:
            raise ValueError("the seal key must have at least 16 bytes (COSMIC_SEAL_KEY)")
        self._key = key
        self.key_id = hashlib.sha256(b"cosmic-seal-key-id:" + key).hexdigest()[:16]

    def _mac(self, game_id: str, version: int, head_hash: str, unsealed_until: int | None) -> str:
        message = json.dumps({"cosmic_seal": FORMAT, "game_id": game_id, "version": version, "hash": head_hash,
                              "unsealed_until": unsealed_until}, sort_keys=True, separators=(",", ":"))
        return hmac.new(self._key, message.encode("utf-8"), hashlib.sha256).hexdigest()

    def seal(self, game_id: str, version: int, head_hash: str, unsealed_until: int | None = None) -> dict:
        """The seal record of a chain head."""
        return {"cosmic_seal": FORMAT, "game_id": game_id, "version": version, "hash": head_hash,
                "unsealed_until": unsealed_until, "key": self.key_id,
                "mac": self._mac(game_id, version, head_hash, unsealed_until)}

    def line(self, game_id: str, version: int, head_hash: str, unsealed_until: int | None = None) -> str:
        """The seal as an export's last line (newline included)."""
        return json.dumps(self.seal(game_id, version, head_hash, unsealed_until), sort_keys=True,
                          separators=(",", ":")) + "\n"

    def verdict(self, record: dict | None, game_id: str, version: int, head_hash: str) -> tuple[str, str]:
        """(``sealed`` | ``forged`` | ``other-key`` | ``unsealed``, a sentence) for a chain head and its seal."""
        if record is None:
            return "unsealed", "no seal: nothing shows this history came from a service holding the key"
        if record.get("key") != self.key_id:
            return "other-key", (f"sealed with another key ({str(record.get('key'))[:16]}): this service cannot "
                                 "check it, so it counts as unsealed")
        named = (record.get("game_id"), record.get("version"), record.get("hash"))
        if named != (game_id, version, head_hash):
            return "forged", ("the seal names another history (game, version or last hash) than the events: "
                              "events were changed, added or removed after it was sealed")
        unsealed = record.get("unsealed_until")
        if (unsealed is not None and type(unsealed) is not int) or not isinstance(record.get("mac"), str) or \
                not hmac.compare_digest(record["mac"], self._mac(game_id, version, head_hash, unsealed)):
            return "forged", "the seal does not fit the history: it was changed after it was sealed"
        if unsealed:
            return "sealed", f"sealed by this service; its first {unsealed} events came in unsealed"
        return "sealed", "sealed by this service: the history is as it stored it"


def is_seal_line(obj) -> bool:
    """Whether a parsed JSON line is a seal record (an export's last line), not an event."""
    return isinstance(obj, dict) and "cosmic_seal" in obj and "seq" not in obj


# --- the key ------------------------------------------------------------------------------------

def folder_key(folder: str | os.PathLike) -> bytes:
    """The data folder's key, generated once (owner-only, never overwritten)."""
    path = Path(folder) / KEY_FILE
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        pass
    Path(folder).mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return bytes.fromhex(path.read_text().strip())
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex() + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return key


def redis_key(redis, prefix: str) -> bytes:
    """A key generated once into Redis (when neither COSMIC_SEAL_KEY nor a data folder gives one)."""
    name = f"{prefix}:seal:key"
    redis.set(name, secrets.token_hex(32), nx=True)
    value = redis.get(name)
    return bytes.fromhex(value.decode() if isinstance(value, bytes) else value)


def configured(settings) -> bytes | None:
    """COSMIC_SEAL_KEY as bytes (None when unset)."""
    return settings.seal_key.encode("utf-8") if settings.seal_key else None


# --- what the service knows of a game's origin ----------------------------------------------------

class Provenance:
    """``unsealed_until`` per game: how many of its first events came in by an unsealed import.

    A string key of the game's own (hash-tagged with its stream; the embedded mode keeps it
    with the service's other keys in ``.service.json``).
    """

    def __init__(self, store):
        self.store = store

    def key(self, game_id: str) -> str:
        return self.store.game_key(game_id, "provenance")

    def unsealed_until(self, game_id: str) -> int | None:
        value = self.store.redis.get(self.key(game_id))
        return int(value) if value else None

    def mark(self, game_id: str, unsealed_until: int | None) -> None:
        if unsealed_until:
            self.store.redis.set(self.key(game_id), unsealed_until)
        else:
            self.store.redis.delete(self.key(game_id))


def folder_provenance(folder: str | os.PathLike, prefix: str) -> Provenance:
    """The marks of an embedded data folder's games, read without taking the folder's lock.

    The marks are among the service's keys the folder keeps (`workers.servicekeys`): they are
    loaded into a throwaway in-memory Redis and read there.
    """
    import fakeredis

    from events.store import EventStore
    from workers.servicekeys import ServiceKeys
    scratch = fakeredis.FakeRedis()
    ServiceKeys(scratch, prefix, folder).restore()  # read only: the service may be running
    return Provenance(EventStore(scratch, prefix=prefix))
