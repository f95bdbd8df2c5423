"""Queue names and job ids (everything a deployment's RQ keys are named after), and reading a job back."""

from __future__ import annotations

import re
import uuid

QUEUES = ("high", "default", "low")


def queue_name(prefix: str, name: str) -> str:
    """The RQ name of one of our queues under a key prefix (``cosmic.default``)."""
    if name not in QUEUES:
        raise ValueError(f"unknown queue {name!r}; queues: {', '.join(QUEUES)}")
    return f"{prefix}.{name}"


def safe_id(text: str) -> str:
    """``text`` as a job id may spell it (RQ allows [A-Za-z0-9_-]; anything else becomes ``_``)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


def job_id(prefix: str, kind: str) -> str:
    """A fresh job id naming the deployment and the kind of job."""
    return f"{safe_id(f'{prefix}-{kind}')}-{uuid.uuid4().hex[:16]}"


def is_ours(prefix: str, jid: str) -> bool:
    """Whether a job id is one this deployment made (every one starts with its prefix)."""
    return jid.startswith(safe_id(prefix) + "-")


def fetch_job(redis_client, jid: str):
    """The RQ job of that id, or None (never made, or expired)."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job
    try:
        return Job.fetch(jid, connection=redis_client)
    except NoSuchJobError:
        return None


def status_of(job, refresh: bool = True) -> str | None:
    """A job's status as a plain string (``scheduled``, ``queued``, ``finished``...); None for no job."""
    if job is None:
        return None
    status = job.get_status(refresh=refresh)
    return getattr(status, "value", status)


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def purge(redis_client, prefix: str) -> int:
    """Delete every RQ key of one deployment: its queues and registries, jobs and workers.

    RQ keeps its keys under ``rq:``, not under our prefix; ours are found by the queue names
    (``<prefix>.<name>``), job ids and worker names (``<prefix>-...``). Other deployments'
    keys are left alone. Returns how many keys were deleted.
    """
    safe = safe_id(prefix)
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
