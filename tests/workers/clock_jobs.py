"""Jobs for the embedded clock tests: each notes its name in a Redis list, so a test sees what ran in which order."""

from __future__ import annotations

import threading

from workers.process import current

RELEASE = threading.Event()  # `hold` waits for it (the test sets it)


def order_key() -> str:
    return f"{current().settings.prefix}:test:ran"


def note(name: str) -> str:
    """Record that the job ``name`` ran."""
    current().redis.rpush(order_key(), name)
    return name


def hold(seconds: float) -> str:
    """A slow job (a bot's long turn, a webhook target that hangs): waits for `RELEASE` or ``seconds``."""
    RELEASE.wait(seconds)
    return note("slow job")


def ran(runtime) -> list[str]:
    """The names of the jobs that ran, in order."""
    return [item.decode() for item in runtime.redis.lrange(f"{runtime.settings.prefix}:test:ran", 0, -1)]
