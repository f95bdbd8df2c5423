"""Caps on open live feeds: per seat token, per client address (anonymous feeds) and per process.

These are concurrency caps (how many feeds are open at once), not rate limits (app/limits.py):

- a **seat token** may hold ``COSMIC_FEEDS_PER_TOKEN`` feeds open at once (default 4);
- an **anonymous** client address ``COSMIC_FEEDS_PER_ADDRESS`` (default 32);
- the admin token has no cap of its own;
- one **API process** serves at most ``COSMIC_FEEDS_PER_PROCESS`` feeds (default 5000).

Past a token's or an address's cap the feed is refused with 429 ``rate-limited`` and a
``Retry-After`` saying when the soonest of that client's open feeds will have reached its
maximum length (``COSMIC_SSE_MAX_SECONDS``) and closed; past the process cap with 503
``over-capacity`` and ``Retry-After: 5`` (another process, or this one a moment later, may
have room). Neither ever makes another route wait.

The per-token and per-address counts are kept in Redis, so they hold across every API process
of the service: one sorted set per client, ``{prefix}:feeds:token:<sha256>`` or
``{prefix}:feeds:address:<address>``, whose members are the open feeds (``<process>:<n>|<ends
at, ms>``) scored by when their *lease* runs out. The process holding a feed renews its leases
every ``lease/3`` seconds (from the feed hub's beat) and removes a feed when it closes; a feed of
a process that died stops counting when its lease runs out (``LEASE_SECONDS``, 60 s).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
import uuid
from dataclasses import dataclass

from app.limits import cap_reached
from app.problems import over_capacity
from events.redaction import ADMIN

LEASE_SECONDS = 60.0
PROCESS_RETRY_AFTER = 5

# KEYS[1]: the client's sorted set. ARGV: now (ms), cap, member, lease expiry (ms), lease (ms).
# Drops leases that ran out, then adds the feed if there is room; else returns the members.
OPEN_SCRIPT = r"""
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.call('ZRANGE', KEYS[1], 0, -1)
end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return false
"""


@dataclass
class Lease:
    """One open feed's place under its caps (``key`` None: counted for the process only)."""

    kind: str                 # "seat", "anonymous" or "admin"
    key: str | None
    member: str | None
    released: bool = False


class FeedCaps:
    """Counts the open feeds of this process and of each client; refuses the ones past a cap."""

    def __init__(self, redis, prefix: str, *, per_token: int, per_address: int, per_process: int,
                 lease_seconds: float = LEASE_SECONDS):
        self.redis = redis
        self.prefix = prefix
        self.per_token, self.per_address, self.per_process = per_token, per_address, per_process
        self.lease_ms = int(lease_seconds * 1000)
        self._open_script = redis.register_script(OPEN_SCRIPT)
        self._process = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._leases: dict[int, Lease] = {}
        self._next_renewal = 0.0

    @property
    def open(self) -> int:
        """Feeds open in this process now."""
        return len(self._leases)

    def counts(self) -> dict[str, int]:
        """Open feeds of this process by kind."""
        counts = {"seat": 0, "anonymous": 0, "admin": 0}
        for lease in list(self._leases.values()):
            counts[lease.kind] += 1
        return counts

    def acquire(self, who: str | None, token: str | None, address: str | None, seconds: float) -> Lease:
        """A lease for a feed open for at most ``seconds``; 503 past the process cap, 429 past the client's."""
        if len(self._leases) >= self.per_process:
            raise over_capacity(f"this server holds its maximum of {self.per_process} live feeds; "
                                "try again shortly", PROCESS_RETRY_AFTER, limit=self.per_process)
        if who == ADMIN:
            lease = Lease("admin", None, None)
        else:
            from app.auth import digest
            kind = "anonymous" if who is None else "seat"
            key, cap, whose, policy = ((f"{self.prefix}:feeds:address:{address or 'unknown'}", self.per_address,
                                        "this client address (anonymous feeds)", "feeds-address") if who is None else
                                       (f"{self.prefix}:feeds:token:{digest(token or '')}", self.per_token,
                                        "this token", "feeds-token"))
            now_ms = int(time.time() * 1000)
            member = f"{self._process}:{next(self._numbers)}|{now_ms + int(seconds * 1000)}"
            full = self._open_script([key], [now_ms, cap, member, now_ms + self.lease_ms, self.lease_ms])
            if full:
                ends = [int((m.decode() if isinstance(m, bytes) else m).rpartition("|")[2]) for m in full]
                wait = max(1, int((min(ends) - now_ms) / 1000) + 1)
                raise cap_reached(policy, cap, f"{whose} already holds its maximum of {cap} open live feeds; "
                                  "close one, or wait until one ends", wait)
            lease = Lease(kind, key, member)
        with self._lock:
            self._leases[id(lease)] = lease
        return lease

    def release(self, lease: Lease) -> None:
        """The feed closed: it no longer counts (idempotent)."""
        if lease.released:
            return
        lease.released = True
        with self._lock:
            self._leases.pop(id(lease), None)
        if lease.key is not None:
            try:
                self.redis.zrem(lease.key, lease.member)
            except Exception:  # the lease runs out by itself
                pass

    def renew(self) -> None:
        """Extend the leases of this process's open feeds, at most every third of a lease (called often)."""
        now = time.monotonic()
        if now < self._next_renewal:
            return
        self._next_renewal = now + self.lease_ms / 3000
        with self._lock:
            leases = [lease for lease in self._leases.values() if lease.key is not None]
        if not leases:
            return
        expiry = int(time.time() * 1000) + self.lease_ms
        pipe = self.redis.pipeline(transaction=False)
        for lease in leases:
            pipe.zadd(lease.key, {lease.member: expiry}, xx=True)
            pipe.pexpire(lease.key, self.lease_ms)
        pipe.execute()
