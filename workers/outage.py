"""Jobs that outlive a moment when the game data cannot be reached.

With the game data on a Redis Cluster and RQ on a Redis of its own, a master of the cluster
can be down (crashed, failing over) while the worker and its queues are fine: a job then fails
on a connection error half-way, and nothing would run it again until the periodic sweep (ten
minutes). `again_after_outage` makes such a job queue the same call again a little later and
end normally. The jobs it wraps are safe to run twice: a bot job re-reads the game and answers
only what is still owed; a timer job is a no-op once its decision is no longer owed.
When RQ's own Redis is down too, the retry cannot be queued: the error goes up and the
worker's restart loop (`workers.main`) and its first sweep take over, as before.
"""

from __future__ import annotations

import functools
import logging

import redis
from redis.exceptions import ClusterError, RedisClusterException

log = logging.getLogger(__name__)

STORAGE_ERRORS = (redis.ConnectionError, redis.TimeoutError, ClusterError, RedisClusterException)
RETRY_SECONDS = 2.0


def again_after_outage(queue: str):
    """Decorate a job: on a storage error, queue the same call on ``queue`` in `RETRY_SECONDS`."""
    def wrap(func):
        @functools.wraps(func)
        def job(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except STORAGE_ERRORS as err:
                from workers.runtime import current
                log.warning("%s%r: the game data is unreachable (%s); trying again in %ss",
                            func.__name__, args, err, RETRY_SECONDS)
                current().enqueue_in(RETRY_SECONDS, job, *args, queue=queue, **kwargs)
                return {"stopped": "storage-unavailable", "retry_in": RETRY_SECONDS}
        return job
    return wrap
