"""Jobs that outlive a moment when the game data cannot be reached.

With the game data on a Redis Cluster and RQ on a Redis of its own, a master of the cluster
can be down (crashed, failing over) while the worker and its queues are fine: a job then fails
on a connection error half-way, and nothing would run it again until the periodic sweep (ten
minutes). `again_after_outage` makes such a job queue the same call again a little later and
end normally. The jobs it wraps are safe to run twice: a bot job re-reads the game and answers
only what is still owed; a timer is a no-op once its decision is no longer owed. (Timers are not
RQ jobs any more: the clock puts one whose game cannot be reached back in its schedule,
`workers.timers.fire_claimed`; the wrapped `workers.timers.fire` runs old timer jobs.)
When RQ's own Redis is down too, the retry cannot be queued: the error goes up and the
worker's restart loop (`workers.main`) and its first sweep take over, as before.
"""

from __future__ import annotations

import functools
import logging

import redis
from redis.exceptions import ClusterError, RedisClusterException

from workers.process import current

log = logging.getLogger(__name__)

STORAGE_ERRORS = (redis.ConnectionError, redis.TimeoutError, ClusterError, RedisClusterException)
RETRY_SECONDS = 2.0          # the first wait; it doubles with each failure in a row ...
LONGEST_RETRY_SECONDS = 10.0  # ... up to this, so the games of a master down for long cost little


def retry_in(attempt: int) -> float:
    """Seconds before try number ``attempt + 1`` of a job that met an outage ``attempt`` times in a row."""
    return min(LONGEST_RETRY_SECONDS, RETRY_SECONDS * 2 ** max(0, attempt - 1))


def again_after_outage(queue: str):
    """Decorate a job: on a storage error, queue the same call on ``queue`` again, `retry_in` seconds later."""
    def wrap(func):
        @functools.wraps(func)
        def job(*args, outage_attempt: int = 0, **kwargs):
            try:
                return func(*args, **kwargs)
            except STORAGE_ERRORS as err:
                attempt = outage_attempt + 1
                delay = retry_in(attempt)
                log.warning("%s%r: the game data is unreachable (%s); trying again in %ss",
                            func.__name__, args, err, delay)
                current().enqueue_in(delay, job, *args, queue=queue, outage_attempt=attempt, **kwargs)
                return {"stopped": "storage-unavailable", "retry_in": delay}
        return job
    return wrap
