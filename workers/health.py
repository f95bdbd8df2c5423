"""``python -m workers.health``: exit 0 when a worker of this service is alive, 1 otherwise (a container health check).

Alive: Redis answers, and an RQ worker serving this service's queues (``COSMIC_PREFIX``) has
sent a heartbeat within `STALE_SECONDS`. With ``--name NAME`` only that worker counts (the
container's own, when workers are named after their host).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime

STALE_SECONDS = 90


def alive_workers(settings, name: str | None = None) -> list[str]:
    """The names of this service's workers with a recent heartbeat."""
    import redis
    from rq import Worker

    from workers.queues import QUEUES, queue_name

    connection = redis.Redis.from_url(settings.queue_url)
    ours = {queue_name(settings.prefix, q) for q in QUEUES}
    now = datetime.now(UTC)
    found = []
    for worker in Worker.all(connection=connection):
        if name is not None and worker.name != name:
            continue
        if not ours & set(worker.queue_names()):
            continue
        beat = worker.last_heartbeat
        if beat is not None and beat.tzinfo is None:
            beat = beat.replace(tzinfo=UTC)
        if beat is not None and (now - beat).total_seconds() <= STALE_SECONDS:
            found.append(worker.name)
    return found


def main(argv: list[str] | None = None) -> int:
    from workers.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", help="only this worker counts")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if settings.embedded:
        print("no REDIS_URL: nothing to check", file=sys.stderr)
        return 1
    try:
        found = alive_workers(settings, args.name)
    except Exception as exc:  # a health check answers, it does not crash
        print(f"unhealthy: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"healthy: {', '.join(found)}" if found else "unhealthy: no worker of this service has a recent heartbeat")
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
