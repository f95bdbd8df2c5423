"""Errors of the workers' operations on whole games (rewind, fork, import).

Each carries a stable ``slug`` (the HTTP layer's problem type) and a ``detail`` in words.
"""

from __future__ import annotations


class WorkerError(Exception):
    """Base of the errors this package raises on purpose."""

    slug = "invalid-request"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class RewindRefused(WorkerError):
    """A rewind to a version that makes no sense (not before now, before the start, a finished state)."""

    slug = "rewind-refused"


class ForkRefused(WorkerError):
    """A fork that may not be made (e.g. a player forking a game still being played)."""

    slug = "fork-refused"


class ImportRefused(WorkerError):
    """A file that cannot be imported; ``line`` is the 1-based line of the first problem, if one."""

    slug = "import-refused"

    def __init__(self, detail: str, line: int | None = None):
        super().__init__(f"line {line}: {detail}" if line is not None else detail)
        self.line = line
