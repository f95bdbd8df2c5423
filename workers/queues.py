"""Queue names and job ids: everything a deployment's RQ keys are named after."""

from __future__ import annotations

import re
import uuid

QUEUES = ("high", "default", "low")


def queue_name(prefix: str, name: str) -> str:
    """The RQ name of one of our queues under a key prefix (``cosmic.default``)."""
    if name not in QUEUES:
        raise ValueError(f"unknown queue {name!r}; queues: {', '.join(QUEUES)}")
    return f"{prefix}.{name}"


def job_id(prefix: str, kind: str) -> str:
    """A fresh job id naming the deployment and the kind of job (RQ allows [A-Za-z0-9_-])."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", f"{prefix}-{kind}")
    return f"{safe}-{uuid.uuid4().hex[:16]}"


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def purge(redis_client, prefix: str) -> int:
    """Delete every RQ key of one deployment: its queues and registries, jobs and workers.

    RQ keeps its keys under ``rq:``, not under our prefix; ours are found by the queue names
    (``<prefix>.<name>``), job ids and worker names (``<prefix>-...``). Other deployments'
    keys are left alone. Returns how many keys were deleted.
    """
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", prefix)
    found = set()
    for pattern in (f"rq:*{_glob_escape(prefix)}.*", f"rq:*{_glob_escape(safe)}-*"):
        found.update(redis_client.scan_iter(match=pattern, count=1000))
    for key in found:
        redis_client.delete(key)
    for index in ("rq:queues", "rq:workers"):
        members = [m for m in redis_client.smembers(index)
                   if f"{prefix}." in _text(m) or f"{safe}-" in _text(m)]
        if members:
            redis_client.srem(index, *members)
    return len(found)


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
