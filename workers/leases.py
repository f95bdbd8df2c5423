"""Leases: a Redis lock with an expiry, held by one job at a time (``SET NX PX`` + compare-and-delete).

A job that must not run twice at once for the same thing (a game's bots, one webhook
subscription's deliveries to one game) takes a lease on a key; a job finding it taken
stops, leaving one follow-up for when the lease would expire (`look_again_later`). The lease expires by itself
if its holder dies, so nothing stays locked forever; a holder that works for long extends
it, and checks it still holds it before each step that must not be done twice. Release and
extension compare the holder's random token first, so a job whose lease expired and was
taken over can never release or extend its successor's.
"""

from __future__ import annotations

import uuid

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


class Lease:
    """One attempt to hold ``key`` for ``ttl_ms`` milliseconds at a time."""

    def __init__(self, redis_client, key: str, ttl_ms: int):
        self.redis = redis_client
        self.key = key
        self.ttl_ms = int(ttl_ms)
        self.token = uuid.uuid4().hex
        self.held = False

    def acquire(self) -> bool:
        """Take the lease if nobody holds it; True when taken."""
        self.held = bool(self.redis.set(self.key, self.token, nx=True, px=self.ttl_ms))
        return self.held

    def extend(self) -> bool:
        """Renew the lease for another ``ttl_ms``; False when it was lost (expired and maybe taken)."""
        self.held = bool(self.redis.eval(EXTEND, 1, self.key, self.token, self.ttl_ms))
        return self.held

    def release(self) -> None:
        """Give the lease up (only if still ours)."""
        if self.held:
            self.redis.eval(RELEASE, 1, self.key, self.token)
            self.held = False

    def remaining_ms(self) -> int:
        """Milliseconds until whoever holds the key's lease loses it (0 when nobody does)."""
        left = self.redis.pttl(self.key)
        return max(0, int(left or 0))


def once_within(redis_client, key: str, ttl_ms: int) -> bool:
    """True for the first caller in a window of ``ttl_ms`` (guards against piling up follow-up jobs)."""
    return bool(redis_client.set(key, "1", nx=True, px=max(1, int(ttl_ms))))


def look_again_later(runtime, lease: Lease, key: str, func, *args, queue: str) -> None:
    """Another job holds ``lease``: if it died holding it, someone must go on once it expires.

    Schedules ``func(*args)`` for a second after the lease would expire, once per such window
    (``key`` marks the window), however many jobs found the lease taken meanwhile.
    """
    delay_ms = lease.remaining_ms() + 1000
    if once_within(runtime.redis, key, delay_ms):
        runtime.enqueue_in(delay_ms / 1000, func, *args, queue=queue)
