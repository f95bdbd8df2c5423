"""The Redis stream store: one stream per game, appended atomically and optimistically.

Key layout (every key of a game carries the ``{game_id}`` hash tag, so a game lives on
one Redis Cluster slot and the append script may touch all of them):

``{prefix}:{<game_id>}:events``      stream; entry ID ``<seq>-1``, one field ``e`` = canonical
                                     JSON of the sealed event
``{prefix}:{<game_id>}:head``        hash ``version`` (last seq) and ``hash`` (its hash); written
                                     only by the append script, together with the stream
``{prefix}:{<game_id>}:idem:<h>``    string, JSON ``{"key", "fingerprint", "response",
                                     "version"}``; ``<h>`` = SHA-256 of the idempotency key;
                                     expires after ``idempotency_ttl`` seconds

After every append (and restore) the store publishes ``<game_id> <version>`` on the pub/sub
channel ``{prefix}:appended`` (`EventStore.appended_channel`): the live feeds' hub
(app/hub.py) wakes on it instead of every feed blocking on its own read. A notification is
only a hint: it is sent after the write, may be lost, and readers still read the stream.

An append is sealed in Python (sequence numbers and the SHA-256 chain need the hashes)
and written by one Lua script, which first checks everything (idempotency record, version,
previous hash, sizes, JSON, sequence and hash links) and only then writes. Redis runs a
script without interleaving other commands, so the check and the writes are atomic; and
because nothing in the write phase can fail on input the checks accepted, a rejected
command leaves no trace (Redis does not roll back a script that fails half-way).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from marshmallow import ValidationError

from events import catalog, envelope, schemas
from events.exceptions import (
    ConcurrencyConflict,
    EventTooLarge,
    GameDamaged,
    IdempotencyMismatch,
    StoreError,
    UnknownEventType,
)

log = logging.getLogger(__name__)
DEFAULT_IDEMPOTENCY_TTL = 24 * 3600
_GAME_ID_RE = re.compile(r"^[^\s{}*?\[\]\\]{1,200}$")  # no braces (hash tag) and no glob characters
_HEAD_CACHE_LIMIT = 4096
# longest single blocking read of a live feed: below any client socket timeout we would meet
# (redis-py 8 defaults to 5 s), so a long idle wait never breaks the connection
BLOCK_SLICE_MS = 2000

# KEYS: head, stream. The head record and the stream's length read at one instant: a game whose
# stream is shorter or longer than its head says is damaged (the append script's own test).
HEAD_SCRIPT = r"""
local head = redis.call('HMGET', KEYS[1], 'version', 'hash')
return {head[1], head[2], redis.call('XLEN', KEYS[2])}
"""

# ARGV: expected version, prev hash, max bytes, game id, idempotency record ("" = none),
# record TTL in ms, then one canonical JSON text per event. KEYS: stream, head, anchors[, idem].
# Phase 1 only reads and returns a status on any problem; phase 2 writes.
APPEND_SCRIPT = r"""
local expected = tonumber(ARGV[1])
local prev_hash = ARGV[2]
local max_bytes = tonumber(ARGV[3])
local game_id = ARGV[4]
local record = ARGV[5]
local ttl_ms = tonumber(ARGV[6])
local first = 7
local count = #ARGV - first + 1

local head = redis.call('HMGET', KEYS[2], 'version', 'hash')
local version = tonumber(head[1]) or 0
local head_hash = head[2] or ''

if KEYS[4] then
  local stored = redis.call('GET', KEYS[4])
  if stored then
    return {'replay', version, stored}
  end
end
if redis.call('XLEN', KEYS[1]) ~= version then
  return {'corrupt', version, 'stream length ' .. redis.call('XLEN', KEYS[1]) .. ' disagrees with head'}
end
if version ~= expected then
  return {'conflict', version, head_hash, 'version'}
end
if head_hash ~= prev_hash then
  return {'conflict', version, head_hash, 'prev_hash'}
end

local link = prev_hash
local hashes = {}
for i = 1, count do
  local text = ARGV[first + i - 1]
  if string.len(text) > max_bytes then
    return {'invalid', i, 'larger than ' .. max_bytes .. ' bytes'}
  end
  local ok, event = pcall(cjson.decode, text)
  if not ok or type(event) ~= 'table' then
    return {'invalid', i, 'not a JSON object'}
  end
  if event['seq'] ~= expected + i then
    return {'invalid', i, 'sequence number is not ' .. (expected + i)}
  end
  if event['game_id'] ~= game_id then
    return {'invalid', i, 'belongs to another game'}
  end
  if event['prev_hash'] ~= link or type(event['hash']) ~= 'string' then
    return {'invalid', i, 'hash chain link is broken'}
  end
  link = event['hash']
  hashes[i] = link
end

for i = 1, count do
  redis.call('XADD', KEYS[1], (expected + i) .. '-1', 'e', ARGV[first + i - 1])
end
if count > 0 then
  redis.call('HSET', KEYS[2], 'version', expected + count, 'hash', link)
  -- the anchors: every event's hash as first written, 64 characters each; kept only for a game
  -- anchored from its first event (an older game's anchors would not line up)
  if redis.call('STRLEN', KEYS[3]) == expected * 64 then
    redis.call('APPEND', KEYS[3], table.concat(hashes))
  end
end
if KEYS[4] then
  redis.call('SET', KEYS[4], record, 'PX', ttl_ms)
end
return {'ok', expected + count, link}
"""


@dataclass
class AppendResult:
    """What an append did: the version after it, the events it wrote, and the caller's response."""

    version: int
    events: list[dict] = field(default_factory=list)
    replayed: bool = False
    response: object = None


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def _entry_event(fields: dict) -> dict:
    """The event stored in one stream entry (the client may or may not decode responses)."""
    raw = fields.get(b"e") if b"e" in fields else fields.get("e")
    return json.loads(raw)


class EventStore:
    """Append-only event streams of games in Redis; see the module docstring for the keys."""

    def __init__(self, redis_client, prefix: str = "cosmic", schema_version_of=catalog.schema_version,
                 max_event_bytes: int = 65536, idempotency_ttl: int = DEFAULT_IDEMPOTENCY_TTL):
        if not prefix or "{" in prefix or "}" in prefix:
            raise ValueError(f"invalid key prefix {prefix!r} (braces would break the per-game hash tag)")
        if idempotency_ttl <= 0 or max_event_bytes <= 0:
            raise ValueError("idempotency_ttl and max_event_bytes must be positive")
        self.redis = redis_client
        self.prefix = prefix
        self.schema_version_of = schema_version_of
        self.max_event_bytes = max_event_bytes
        self.idempotency_ttl = idempotency_ttl
        self._append_script = redis_client.register_script(APPEND_SCRIPT)
        self._head_script = redis_client.register_script(HEAD_SCRIPT)
        # Last known (version, hash) per game, so an append usually needs no extra read of
        # the head. Only an optimisation: the script checks the hash, and a stale entry
        # costs one retry (see `append`).
        self._heads: dict[str, tuple[int, str]] = {}

    # --- keys --------------------------------------------------------------------------------

    def _key(self, game_id: str, suffix: str) -> str:
        if type(game_id) is not str or not _GAME_ID_RE.match(game_id):
            raise ValueError(f"invalid game id {game_id!r}")
        return f"{self.prefix}:{{{game_id}}}:{suffix}"

    def game_key(self, game_id: str, suffix: str) -> str:
        """A key of the game's own, hash-tagged like its stream (projections keep snapshots there)."""
        if not suffix or suffix in ("events", "head", "anchors") or suffix.startswith("idem:"):
            raise ValueError(f"the key suffix {suffix!r} belongs to the store")
        return self._key(game_id, suffix)

    def stream_key(self, game_id: str) -> str:
        """The Redis key of a game's event stream (for readers such as SSE feeds)."""
        return self._key(game_id, "events")

    def head_key(self, game_id: str) -> str:
        """The Redis key of a game's head record (version and last hash)."""
        return self._key(game_id, "head")

    def anchors_key(self, game_id: str) -> str:
        """The Redis key of a game's anchors: each event's hash as first written, 64 characters apiece.

        A rewrite that re-hashes the chain after an edit (and fixes the head) still disagrees with
        the anchors from the edited event on, so an audit names that event (issue 15.12).
        """
        return self._key(game_id, "anchors")

    def anchors(self, game_id: str) -> str:
        """The anchored hashes, concatenated ("" for a game written before anchors were kept)."""
        return _text(self.redis.get(self.anchors_key(game_id)) or b"")

    def idempotency_key(self, game_id: str, key: str) -> str:
        """The Redis key recording one idempotency key of a game (the key is hashed: any text is safe)."""
        if type(key) is not str or not key:
            raise ValueError("an idempotency key must be a non-empty string")
        return self._key(game_id, "idem:" + hashlib.sha256(key.encode("utf-8")).hexdigest())

    # --- writing -----------------------------------------------------------------------------

    def append(self, game_id: str, events: list[dict], expected_version: int, idempotency_key: str | None = None,
               response=None, prev_hash: str | None = None, fingerprint: str | None = None) -> AppendResult:
        """Write a command's events as the next sequence numbers after ``expected_version``, or nothing.

        Raises `ConcurrencyConflict` (the game is elsewhere), `UnknownEventType`,
        ValidationError, `EventTooLarge` or `IdempotencyMismatch`; in every such case
        nothing was written. With an ``idempotency_key`` already recorded for this game
        nothing is written either, and the first call's ``response`` comes back
        (``replayed=True``), whatever ``expected_version`` the retry carries.
        ``response`` (any JSON-able value) is stored with the key and returned on retries
        (as read back from JSON). ``fingerprint`` identifies the request; a retry whose
        fingerprint differs from the recorded one raises `IdempotencyMismatch` (a missing
        fingerprint on either side matches anything). ``prev_hash`` is the hash of event
        ``expected_version``; when not given it comes from the store's last known head
        (one extra read if unknown). Errors about one event name its index in ``events``.
        """
        self._check_version_arg(expected_version)
        keys = [self.stream_key(game_id), self.head_key(game_id), self.anchors_key(game_id)]
        if idempotency_key is not None:
            keys.append(self.idempotency_key(game_id, idempotency_key))
        self._validate(events)
        record = self._record(idempotency_key, fingerprint, response, expected_version + len(events))
        link = prev_hash if prev_hash is not None else self._known_hash(game_id, expected_version)
        reply = self._try_append(game_id, keys, events, expected_version, link, record)
        if reply[0] == "conflict" and prev_hash is None and reply[1] == expected_version:
            # Our remembered head was stale (the game was deleted and rewritten): retry once with
            # the hash the script saw; it is re-checked atomically, so this cannot break the chain.
            reply = self._try_append(game_id, keys, events, expected_version, reply[2], record)
        return self._result(game_id, reply, expected_version, idempotency_key, fingerprint, response)

    def _try_append(self, game_id, keys, events, expected_version, link, record):
        sealed = envelope.seal(events, game_id, expected_version, link, self.schema_version_of)
        texts = self._encode(sealed)
        args = [expected_version, link, self.max_event_bytes, game_id, record,
                self.idempotency_ttl * 1000, *texts]
        reply = [_text(part) if isinstance(part, bytes) else part for part in self._append_script(keys, args)]
        if reply[0] == "ok":
            self._remember(game_id, reply[1], reply[2])
            self._announce(game_id, reply[1])
            reply.append(sealed)
        elif reply[0] == "conflict":
            self._remember(game_id, reply[1], reply[2])
        return reply

    def _result(self, game_id, reply, expected_version, idempotency_key, fingerprint, response) -> AppendResult:
        status = reply[0]
        if status == "ok":
            return AppendResult(version=reply[1], events=reply[3], replayed=False, response=response)
        if status == "replay":
            stored = json.loads(reply[2])
            if fingerprint is not None and stored.get("fingerprint") not in (None, fingerprint):
                raise IdempotencyMismatch(idempotency_key)
            return AppendResult(version=reply[1], events=[], replayed=True, response=stored.get("response"))
        if status == "conflict":
            reason = "the game has moved on" if reply[3] == "version" else \
                "the previous hash does not match the stored head"
            raise ConcurrencyConflict(reply[1], expected_version, reason)
        if status == "invalid":
            # the script counts from 1; report the index in the command, as the Python checks do
            raise StoreError(f"event at index {reply[1] - 1} of the command for game {game_id} "
                             f"refused by the store: {reply[2]}")
        raise GameDamaged(game_id, _text(reply[2]))

    @staticmethod
    def _check_version_arg(expected_version) -> None:
        if type(expected_version) is not int or expected_version < 0:
            raise ValueError(f"expected_version must be an int >= 0, not {expected_version!r}")

    @staticmethod
    def _validate(events) -> None:
        """Check every event before any is sealed, naming the index of the first bad one."""
        if not isinstance(events, (list, tuple)):
            raise TypeError("events must be a list of event dicts")
        for index, event in enumerate(events):
            try:
                schemas.validate_emitted(event)
            except ValidationError as err:
                raise ValidationError({index: err.messages}) from err
            except UnknownEventType as err:
                raise UnknownEventType(err.event_type, index) from None

    def _encode(self, sealed: list[dict]) -> list[bytes]:
        """Canonical JSON of each sealed event, refusing any larger than the limit."""
        texts = []
        for index, event in enumerate(sealed):
            text = envelope.canonical_json(event).encode("utf-8")
            if len(text) > self.max_event_bytes:
                raise EventTooLarge(index, event["type"], len(text), self.max_event_bytes)
            texts.append(text)
        return texts

    @staticmethod
    def _record(idempotency_key, fingerprint, response, version) -> str:
        if idempotency_key is None:
            return ""
        try:
            return envelope.canonical_json(
                {"key": idempotency_key, "fingerprint": fingerprint, "response": response, "version": version})
        except (TypeError, ValueError) as err:
            raise TypeError(f"the response to store with an idempotency key must be JSON-able: {err}") from err

    # --- announcing appends -------------------------------------------------------------------

    @property
    def appended_channel(self) -> str:
        """The pub/sub channel where every append is announced as ``<game_id> <version>``."""
        return f"{self.prefix}:appended"

    def _announce(self, game_id: str, version: int) -> None:
        """Publish that the game reached ``version``; a failure is logged, never raised (the events are written)."""
        try:
            self.redis.publish(self.appended_channel, f"{game_id} {version}")
        except Exception as err:  # the feeds' hub also polls the heads it follows, so a lost hint only delays them
            log.warning("could not announce %s at version %s: %s", game_id, version, err)

    # --- the remembered head -----------------------------------------------------------------

    def _remember(self, game_id: str, version: int, last_hash: str) -> None:
        if len(self._heads) >= _HEAD_CACHE_LIMIT:
            self._heads.clear()  # crude bound; the cache only saves a read
        self._heads[game_id] = (int(version), last_hash)

    def _known_hash(self, game_id: str, version: int) -> str:
        """The hash of event ``version``: remembered, else read from the head ("" if not there)."""
        if version == 0:
            return ""
        known = self._heads.get(game_id)
        if known is not None and known[0] == version:
            return known[1]
        current, last_hash = self.head(game_id)
        # A head at another version cannot tell us the hash of event ``version``; the
        # script will report the conflict (or replay) anyway.
        return last_hash if current == version else ""

    # --- reading -----------------------------------------------------------------------------

    def head(self, game_id: str) -> tuple[int, str]:
        """The game's (version, hash of its last event); (0, "") for no game."""
        version, last_hash = self.redis.hmget(self.head_key(game_id), "version", "hash")
        if version is None:
            return 0, ""
        self._remember(game_id, int(version), _text(last_hash))
        return int(version), _text(last_hash)

    def checked_head(self, game_id: str) -> tuple[int, str]:
        """`head`, raising `GameDamaged` when the stream does not hold exactly the head's events.

        For the reads that serve a game's current state: every process then gives a damaged
        game one answer (``game-damaged``), where a process holding the state in its cache and
        one folding the shortened stream used to serve two versions in turn.
        """
        version, last_hash, length = self._head_script([self.head_key(game_id), self.stream_key(game_id)])
        version = int(version) if version is not None else 0
        if int(length) != version:
            raise GameDamaged(game_id, f"stream length {int(length)} disagrees with head {version}")
        if version == 0:
            return 0, ""
        self._remember(game_id, version, _text(last_hash))
        return version, _text(last_hash)

    def version(self, game_id: str) -> int:
        """The number of events the game has (its last sequence number); 0 for no game."""
        return self.head(game_id)[0]

    def exists(self, game_id: str) -> bool:
        """Whether the game has a stream (at least one event)."""
        return bool(self.redis.exists(self.stream_key(game_id)))

    def read(self, game_id: str, after: int = 0, until: int | None = None, count: int | None = None) -> list[dict]:
        """Events with ``after < seq <= until`` (to the end without ``until``), at most ``count``."""
        if until is not None and until <= after:
            return []
        entries = self.redis.xrange(self.stream_key(game_id), min=f"{after + 1}-0",
                                    max="+" if until is None else f"{until}-1", count=count)
        return [_entry_event(fields) for _, fields in entries]

    def iter_all(self, game_id: str, batch: int = 1000) -> Iterator[dict]:
        """Every event of the game in order, read ``batch`` at a time (for replays of long games)."""
        after = 0
        while True:
            events = self.read(game_id, after=after, count=batch)
            yield from events
            if len(events) < batch:
                return
            after = events[-1]["seq"]

    def tail(self, game_id: str, after: int, block_ms: int, count: int = 100) -> list[dict]:
        """Events after ``after``, waiting up to ``block_ms`` for some to arrive; [] on timeout.

        For live feeds (SSE). The wait is cut into blocking reads of at most `BLOCK_SLICE_MS`
        each: a client's socket timeout (5 s by default in redis-py 8) shorter than the wait
        would otherwise break the read and the feed with it. ``block_ms`` must be positive.
        """
        key = self.stream_key(game_id)
        waited_until = time.monotonic() + block_ms / 1000
        while True:
            left_ms = int((waited_until - time.monotonic()) * 1000)
            reply = self.redis.xread({key: f"{after}-1"}, count=count,
                                     block=max(1, min(left_ms, BLOCK_SLICE_MS)))
            if reply or left_ms <= BLOCK_SLICE_MS:
                break
        if not reply:
            return []
        # RESP2 gives [[key, entries]], RESP3 gives {key: [entries]}
        entries = next(iter(reply.values()))[0] if isinstance(reply, dict) else reply[0][1]
        return [_entry_event(fields) for _, fields in entries]

    def idempotent_response(self, game_id: str, key: str):
        """The response recorded with an idempotency key of this game, or None if not (or no longer) recorded."""
        record = self.idempotency_record(game_id, key)
        return None if record is None else record.get("response")

    def idempotency_record(self, game_id: str, key: str) -> dict | None:
        """The whole record of an idempotency key (``key``, ``fingerprint``, ``response``, ``version``), or None."""
        stored = self.redis.get(self.idempotency_key(game_id, key))
        return None if stored is None else json.loads(stored)

    # --- restoring sealed events -------------------------------------------------------------

    def restore(self, game_id: str, sealed: list[dict], batch: int = 500) -> int:
        """Write already-sealed events (e.g. from an export) back into the game's stream, verified.

        The whole list must be an intact chain of this game (`envelope.verify_chain`) whose
        events load with `schemas.load_event`. Events the stream already holds are skipped
        after checking that the stored chain is a prefix of ``sealed`` (same hash at its
        head); the rest are written in batches through the same atomic script as `append`,
        so a concurrent writer makes the restore fail with `ConcurrencyConflict` instead of
        forking the chain. Returns how many events were written.
        """
        sealed = list(sealed)
        envelope.verify_chain(sealed, game_id)
        for index, event in enumerate(sealed):
            try:
                schemas.load_event(event)
            except ValidationError as err:
                raise ValidationError({index: err.messages}) from err
        version, head_hash = self.head(game_id)
        if version > len(sealed):
            raise StoreError(f"game {game_id} already has {version} events, more than the {len(sealed)} to restore")
        if version and sealed[version - 1]["hash"] != head_hash:
            raise StoreError(f"game {game_id} already holds other events than the ones to restore")
        keys = [self.stream_key(game_id), self.head_key(game_id), self.anchors_key(game_id)]
        written = 0
        for start in range(version, len(sealed), batch):
            chunk = sealed[start:start + batch]
            texts = self._encode(chunk)
            link = sealed[start - 1]["hash"] if start else ""
            args = [start, link, self.max_event_bytes, game_id, "", self.idempotency_ttl * 1000, *texts]
            reply = [_text(p) if isinstance(p, bytes) else p for p in self._append_script(keys, args)]
            if reply[0] != "ok":
                self._result(game_id, reply, start, None, None, None)
            self._remember(game_id, reply[1], reply[2])
            written += len(chunk)
        if written:
            self._announce(game_id, len(sealed))
        return written

    # --- housekeeping ------------------------------------------------------------------------

    def delete(self, game_id: str) -> None:
        """Remove every key of the game (stream, head, idempotency records); for tests and import rollback."""
        keys = [self.stream_key(game_id), self.head_key(game_id), self.anchors_key(game_id)]
        pattern = _glob_escape(self._key(game_id, "idem:")) + "*"
        keys.extend(self.redis.scan_iter(match=pattern, count=1000))
        self.redis.delete(*keys)
        self._heads.pop(game_id, None)

    def game_ids(self) -> list[str]:
        """The ids of every game with a stream under this prefix (scans the keyspace: not for hot paths)."""
        start, end = f"{self.prefix}:{{", "}:events"
        ids = set()
        for key in self.redis.scan_iter(match=_glob_escape(start) + "*" + end, count=1000, _type="stream"):
            game_id = _text(key)[len(start):-len(end)]
            if _GAME_ID_RE.match(game_id):
                ids.add(game_id)
        return sorted(ids)
