"""The envelope every stored event carries, and the integrity chain over it.

An event as the engine emits it is ``{"type", "payload", "actor", "time"}``. When the
store appends it, the event gains its place in the game's stream:

``game_id``         the game the event belongs to
``seq``             1, 2, 3, ... without gaps, per game
``schema_version``  the version of the payload's schema for this event type
``prev_hash``       the ``hash`` of the event before it ("" for the first event)
``end``             true on the last event of each command (the game then waits for a decision);
                    absent on the others, and on every event of games stored before stream format 2
``hash``            SHA-256 of the canonical JSON of every other field

The hash covers the previous hash, so changing, removing or reordering any stored event
breaks the chain from that point on; `verify_chain` names the first event that does not fit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

ENVELOPE_FIELDS = ("type", "game_id", "seq", "time", "actor", "schema_version", "payload", "prev_hash")


def canonical_json(value) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_hash(event: dict) -> str:
    """SHA-256 (hex) of the canonical JSON of an event's envelope fields (not of ``hash``)."""
    body = {name: event.get(name) for name in ENVELOPE_FIELDS}
    if event.get("end"):
        body["end"] = True
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def seal(events: Iterable[dict], game_id: str, after_seq: int, prev_hash: str,
         schema_version_of) -> list[dict]:
    """Give emitted events their place after ``after_seq``: sequence numbers and the hash chain.

    ``schema_version_of(type)`` names the payload schema version of an event type.
    Returns new dicts; the inputs are not changed.
    """
    sealed = []
    for offset, event in enumerate(events, start=1):
        stored = {
            "type": event["type"],
            "game_id": game_id,
            "seq": after_seq + offset,
            "time": int(event.get("time") or 0),
            "actor": event.get("actor") or "system",
            "schema_version": schema_version_of(event["type"]),
            "payload": event.get("payload") or {},
            "prev_hash": prev_hash,
        }
        if event.get("end"):
            stored["end"] = True
        stored["hash"] = event_hash(stored)
        prev_hash = stored["hash"]
        sealed.append(stored)
    return sealed


class ChainBreak(Exception):
    """The stored events do not form an unbroken, correctly hashed sequence."""

    def __init__(self, seq: int, reason: str):
        super().__init__(f"event {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def verify_chain(events: Iterable[dict], game_id: str | None = None) -> int:
    """Check sequence numbers, game id, previous-hash links and each event's own hash.

    Returns the number of events checked, or raises `ChainBreak` at the first event that
    does not fit (a changed payload, a missing or reordered event, a foreign event).
    """
    expected_seq, prev_hash, count = 1, "", 0
    for event in events:
        seq = event.get("seq")
        if seq != expected_seq:
            raise ChainBreak(expected_seq, f"expected sequence number {expected_seq}, found {seq}")
        if game_id is not None and event.get("game_id") != game_id:
            raise ChainBreak(seq, f"belongs to game {event.get('game_id')!r}, not {game_id!r}")
        if event.get("prev_hash") != prev_hash:
            raise ChainBreak(seq, "previous-hash link does not match the event before it")
        if event.get("hash") != event_hash(event):
            raise ChainBreak(seq, "content does not match its hash")
        prev_hash, expected_seq, count = event["hash"], expected_seq + 1, count + 1
    return count
