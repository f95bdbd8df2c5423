"""Errors of the event store and of event validation.

Every store error derives from `StoreError`, so a caller can catch the family at once.
Invalid event *contents* (a payload that does not match its type's fields) are reported
as marshmallow ``ValidationError`` by `events.schemas`, because that is what the HTTP
layer already turns into problem responses.
"""

from __future__ import annotations


class StoreError(Exception):
    """Something went wrong reading or writing a game's events."""


class ConcurrencyConflict(StoreError):
    """The game is not at the version the caller expected; nothing was written.

    ``current_version`` is the stream's version when the append was tried, so the
    caller can reload, re-decide and retry (HTTP 409 carries it).
    """

    def __init__(self, current_version: int, expected_version: int | None = None, reason: str | None = None):
        self.current_version = current_version
        self.expected_version = expected_version
        self.reason = reason or "the game has moved on"
        super().__init__(
            f"expected version {expected_version}, game is at version {current_version}: {self.reason}")


class IdempotencyMismatch(StoreError):
    """An idempotency key was reused for a different request; nothing was written."""

    def __init__(self, key: str):
        self.key = key
        super().__init__(f"idempotency key {key!r} was already used for a different request")


class EventTooLarge(StoreError):
    """One sealed event is larger than the store accepts; nothing was written."""

    def __init__(self, index: int, event_type: str, size: int, limit: int):
        self.index, self.event_type, self.size, self.limit = index, event_type, size, limit
        super().__init__(f"event at index {index} ({event_type}) is {size} bytes, more than the limit of {limit}")


class UnknownEventType(StoreError):
    """An event names a type that is not registered in `events.catalog`; nothing was written."""

    def __init__(self, event_type, index: int | None = None):
        self.event_type, self.index = event_type, index
        where = "" if index is None else f"event at index {index}: "
        super().__init__(f"{where}unknown event type {event_type!r}")


class GameDamaged(StoreError):
    """The game's stored events disagree with its head record (events lost or added behind the store's
    back); nothing was written. An admin audits it (``cosmic audit``) and repairs or rewinds it."""

    def __init__(self, game_id: str, detail: str):
        self.game_id, self.detail = game_id, detail
        super().__init__(f"game {game_id} is damaged: {detail}")
