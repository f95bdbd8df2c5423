"""Errors of the projections and of the write path."""

from __future__ import annotations


class ProjectionError(Exception):
    """Base of the errors this package raises on purpose."""


class GameNotFound(ProjectionError):
    """No game has this id (its stream is empty)."""

    def __init__(self, game_id: str):
        super().__init__(f"there is no game {game_id!r}")
        self.game_id = game_id


class VersionNotFound(ProjectionError):
    """A past version was asked for that the game does not have."""

    def __init__(self, game_id: str, version: int, current: int):
        super().__init__(f"game {game_id!r} has versions 1 to {current}, not {version}")
        self.game_id, self.version, self.current = game_id, version, current


class VersionConflict(ProjectionError):
    """The game is not at the version the caller expected (or kept moving during retries)."""

    def __init__(self, current: int, expected: int | None):
        super().__init__(f"the game is at version {current}, not {expected}")
        self.current, self.expected = current, expected


class IdempotencyKeyReused(ProjectionError):
    """An idempotency key came back with a different request."""

    def __init__(self, key: str):
        super().__init__("this Idempotency-Key was already used for a different request")
        self.key = key
