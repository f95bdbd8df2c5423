"""This process's runtime: the one a job finds when RQ (or the clock) calls it.

A job is a module-level function with small arguments, so it cannot be handed the runtime:
it asks `current()`. Whoever runs jobs installs the runtime first (`cosmic worker`,
`cosmic serve`'s embedded worker, a test); `workers.runtime` also registers how to build one
from the environment (`build_with`), which the web app uses on its first request.

This module sits below every job module and imports none of them, so `workers.runtime` (which
wires the jobs' listeners) and the jobs (which need a runtime) do not import each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_current = None
_builder: Callable[[], object] | None = None
_lock = threading.Lock()


class NoRuntime(RuntimeError):
    """No runtime is installed in this process and none can be built."""


def build_with(builder: Callable[[], object]) -> None:
    """How `current` builds a runtime when none is installed (``workers.runtime`` gives one from the environment)."""
    global _builder
    _builder = builder


def current():
    """This process's runtime: the installed one, else one built (once) by the registered builder."""
    global _current
    with _lock:
        if _current is None:
            if _builder is None:
                raise NoRuntime("no runtime is installed in this process: jobs run under `cosmic worker` "
                                "or `cosmic serve`, which install theirs")
            _current = _builder()
        return _current


def install(runtime) -> None:
    """Make ``runtime`` this process's runtime (None: build one on next use)."""
    global _current
    with _lock:
        _current = runtime
