"""Webhook subscriptions, their per-game delivery cursors and their delivery logs, in Redis.

Keys (``P`` is the deployment's prefix; per-game keys carry the game's hash tag, like its stream):

``P:webhooks:subs``                 hash: subscription id -> JSON (url, secret, game_id, event_types, viewer, ...)
``P:webhooks:all``                  set: ids of the subscriptions to every game
``P:webhooks:serial``               counter: creation order of the subscriptions
``P:{<game>}:webhooks``             set: ids of the subscriptions to that game only
``P:{<game>}:webhook:<id>``         hash: the cursor of one subscription in one game: ``delivered`` (the
                                    last seq done with), ``attempts`` (failed tries at the next one),
                                    ``retry_at`` (ms; no delivery before it)
``P:{<game>}:webhook:<id>:lease``   the lease of the job delivering to that subscription for that game
``P:webhook:<id>:games``            set: the games the subscription has a cursor in (for deleting it)
``P:webhook:<id>:log``              list: the latest delivery attempts, newest first (JSON)
``P:webhook:<id>:health``           hash: counters and the latest outcome

The secret is stored (it must be, to sign) but `public` never includes it: the API shows it
once, in the answer to the request that created the subscription.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
from urllib.parse import urlsplit

from events import catalog
from workers.clock import now_ms

URL_MAX = 2000
VIEWERS = ("admin", "public")  # besides a seat's colour (subscriptions made by a player)


def deliverable_types() -> list[str]:
    """The event types a subscription may ask for (engine bookkeeping is never delivered)."""
    return sorted(name for name, etype in catalog.TYPES.items() if not etype.internal)


def url_problem(url: str, allow_private: bool) -> str | None:
    """Why ``url`` cannot be a webhook target, or None when it can.

    http and https only, with a host and no credentials; unless ``allow_private``, no
    address that is not public, written in any form, and no name resolving to one
    (`is_private_host`); delivery checks again.
    """
    if len(url) > URL_MAX:
        return f"at most {URL_MAX} characters"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as err:
        return f"not a valid URL: {err}"
    if parts.scheme not in ("http", "https"):
        return "only http and https URLs are accepted"
    if not parts.hostname:
        return "the URL needs a host"
    if parts.username or parts.password:
        return "credentials in the URL are not accepted"
    if port == 0:
        return "port 0 is not a port"
    if not allow_private and is_private_host(parts.hostname):
        return "webhooks to loopback, private or link-local addresses need the admin token"
    return None


def is_private_host(host: str) -> bool:
    """Whether a host points anywhere but the public internet, read the way delivery will read it.

    Literal addresses in every form the resolver accepts count (``2130706433``, ``0x7f000001``,
    ``0177.0.0.1`` and ``127.1`` are all 127.0.0.1); a name is resolved now, and refused if any
    of its addresses is not public. A name that does not resolve yet is let through: delivery
    resolves it again and refuses it then if it points inward.
    """
    name = host.strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return is_private_address(ipaddress.ip_address(name))
    except ValueError:
        pass
    try:  # the resolver's legacy IPv4 forms: decimal, hex, octal, shortened
        return is_private_address(ipaddress.IPv4Address(socket.inet_aton(name)))
    except OSError:
        pass
    return any(is_private_address(address) for address in resolved_addresses(name))


def resolved_addresses(name: str) -> list:
    """The addresses a host name resolves to now ([] when it does not resolve)."""
    try:
        infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    return [ipaddress.ip_address(info[4][0].split("%", 1)[0]) for info in infos]


def is_private_address(address) -> bool:
    """Anything but a public unicast address: loopback, private, shared (100.64.0.0/10, where cloud
    metadata services live), link-local, reserved, documentation, multicast or unspecified.

    An IPv6 address that carries an IPv4 address (`embedded_ipv4`: mapped, compatible,
    translated, NAT64, 6to4, Teredo) is private when any IPv4 address it carries is: a gateway
    would take it to that IPv4 address.
    """
    if address.version == 6 and any(is_private_address(inner) for inner in embedded_ipv4(address)):
        return True
    if address.version == 6 and any(address in net for net in LOCAL_ONLY_V6):
        return True
    return not address.is_global or address.is_multicast


# IPv6 ranges that carry an IPv4 address in their low 32 bits (RFC 4291 2.5.5, RFC 2765, RFC 6052)
LOW_32_V6 = tuple(ipaddress.IPv6Network(net) for net in (
    "::/96",             # IPv4-compatible (deprecated): ::127.0.0.1
    "::ffff:0:0/96",     # IPv4-mapped: ::ffff:127.0.0.1
    "::ffff:0:0:0/96",   # IPv4-translated (SIIT): ::ffff:0:127.0.0.1
    "64:ff9b::/96",      # NAT64, the well-known prefix: 64:ff9b::127.0.0.1
    "64:ff9b:1::/48",    # NAT64, local-use prefixes (RFC 8215), read as a /96 prefix
))
# IPv6 ranges that are never the public internet, whatever Python's tables say (RFC 8215:
# local-use NAT64 prefixes lead into the operator's own network)
LOCAL_ONLY_V6 = (ipaddress.IPv6Network("64:ff9b:1::/48"),)
SIXTOFOUR = ipaddress.IPv6Network("2002::/16")
TEREDO = ipaddress.IPv6Network("2001::/32")


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries, by the forms that lead to them.

    Low 32 bits for the mapped, compatible, translated and NAT64 forms; bits 16-47 for 6to4
    (2002:7f00:1::1 is 127.0.0.1); the server and the (inverted) client address for Teredo.
    """
    found = []
    if any(address in net for net in LOW_32_V6):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address in SIXTOFOUR:
        found.append(address.sixtofour)
    if address in TEREDO:
        found.extend(address.teredo)
    return found


def new_secret() -> str:
    """A signing secret for a subscription whose creator did not choose one."""
    return secrets.token_urlsafe(32)


def new_id() -> str:
    """A subscription id."""
    return "wh_" + secrets.token_hex(10)


class Subscriptions:
    """The subscriptions of one deployment (see the module docstring for the keys)."""

    def __init__(self, store, log_size: int = 1000):
        self.store = store
        self.redis = store.redis
        self.prefix = store.prefix
        self.log_size = log_size

    # --- keys ---------------------------------------------------------------------------------

    @property
    def subs_key(self) -> str:
        return f"{self.prefix}:webhooks:subs"

    @property
    def all_key(self) -> str:
        return f"{self.prefix}:webhooks:all"

    def game_set_key(self, game_id: str) -> str:
        return self.store.game_key(game_id, "webhooks")

    def cursor_key(self, sub_id: str, game_id: str) -> str:
        return self.store.game_key(game_id, f"webhook:{sub_id}")

    def game_key(self, sub_id: str, game_id: str, suffix: str) -> str:
        """Another per-(subscription, game) key: ``lease``, ``queued``, ``later``."""
        return self.store.game_key(game_id, f"webhook:{sub_id}:{suffix}")

    def _sub_key(self, sub_id: str, suffix: str) -> str:
        return f"{self.prefix}:webhook:{sub_id}:{suffix}"

    # --- subscriptions ------------------------------------------------------------------------

    def create(self, url: str, *, secret: str, game_id: str | None, event_types: list[str] | None,
               viewer: str, created_by: str, after: int | None = None) -> dict:
        """Store a new subscription; a per-game one starts after event ``after`` of its game."""
        sub = {"id": new_id(), "url": url, "secret": secret, "game_id": game_id,
               "event_types": sorted(set(event_types)) if event_types is not None else None,
               "viewer": viewer, "created_by": created_by, "created": now_ms(),
               "n": self.redis.incr(f"{self.prefix}:webhooks:serial")}  # creation order, within a millisecond too
        if game_id is not None:
            self.start_cursor(sub["id"], game_id, after or 0)
        self.redis.hset(self.subs_key, sub["id"], json.dumps(sub))
        self.redis.sadd(self.game_set_key(game_id) if game_id is not None else self.all_key, sub["id"])
        return sub

    def get(self, sub_id: str) -> dict | None:
        """A subscription (with its secret), or None."""
        raw = self.redis.hget(self.subs_key, sub_id)
        return json.loads(raw) if raw is not None else None

    def all(self) -> list[dict]:
        """Every subscription, oldest first."""
        subs = [json.loads(raw) for raw in self.redis.hvals(self.subs_key)]
        return sorted(subs, key=lambda s: (s.get("n", 0), s["created"], s["id"]))

    def matching(self, game_id: str) -> list[dict]:
        """The subscriptions that want the events of ``game_id`` (one round trip when there are none)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.smembers(self.all_key)
        pipe.smembers(self.game_set_key(game_id))
        ids = sorted({_text(i) for group in pipe.execute() for i in group})
        if not ids:
            return []
        return [json.loads(raw) for raw in self.redis.hmget(self.subs_key, ids) if raw is not None]

    def delete(self, sub_id: str) -> bool:
        """Remove a subscription with its cursors, log and counters; False when there was none."""
        sub = self.get(sub_id)
        if sub is None:
            return False
        self.redis.hdel(self.subs_key, sub_id)
        self.redis.srem(self.game_set_key(sub["game_id"]) if sub["game_id"] else self.all_key, sub_id)
        for game_id in self.redis.smembers(self._sub_key(sub_id, "games")):
            self.forget_cursor(sub_id, _text(game_id))
        for suffix in ("games", "log", "health"):
            self.redis.delete(self._sub_key(sub_id, suffix))
        return True

    def public(self, sub: dict) -> dict:
        """A subscription as the API shows it: everything but the secret, plus its delivery health."""
        shown = {name: value for name, value in sub.items() if name not in ("secret", "n")}
        shown["delivery"] = self.health(sub["id"])
        return shown

    # --- cursors ------------------------------------------------------------------------------

    def start_cursor(self, sub_id: str, game_id: str, delivered: int) -> None:
        """Where deliveries to a game start, unless they already started."""
        pipe = self.redis.pipeline(transaction=False)  # two keys on different cluster slots: no MULTI
        pipe.hsetnx(self.cursor_key(sub_id, game_id), "delivered", delivered)
        pipe.sadd(self._sub_key(sub_id, "games"), game_id)
        pipe.execute()

    def cursor(self, sub_id: str, game_id: str) -> dict:
        """``{"delivered", "attempts", "retry_at"}`` of a subscription in a game (zeros when unset)."""
        raw = self.redis.hgetall(self.cursor_key(sub_id, game_id))
        values = {_text(k): int(v) for k, v in raw.items()}
        return {"delivered": values.get("delivered", 0), "attempts": values.get("attempts", 0),
                "retry_at": values.get("retry_at", 0)}

    def advance(self, sub_id: str, game_id: str, seq: int) -> None:
        """Everything up to ``seq`` is done with: the next delivery starts after it, with a clean slate."""
        self.redis.hset(self.cursor_key(sub_id, game_id), mapping={"delivered": seq, "attempts": 0, "retry_at": 0})

    def failed(self, sub_id: str, game_id: str, delivered: int, attempts: int, retry_at: int) -> None:
        """The event after ``delivered`` failed ``attempts`` times in a row; wait until ``retry_at`` (ms)."""
        self.redis.hset(self.cursor_key(sub_id, game_id),
                        mapping={"delivered": delivered, "attempts": attempts, "retry_at": retry_at})

    def forget_cursor(self, sub_id: str, game_id: str) -> None:
        """Drop a subscription's cursor in one game (the subscription is gone)."""
        for key in (self.cursor_key(sub_id, game_id), self.game_key(sub_id, game_id, "queued"),
                    self.game_key(sub_id, game_id, "later")):
            self.redis.delete(key)
        self.redis.srem(self._sub_key(sub_id, "games"), game_id)

    # --- the delivery log ---------------------------------------------------------------------

    def record(self, sub_id: str, entry: dict) -> None:
        """Add one delivery attempt to the log (keeping the latest ``log_size``) and to the counters."""
        log_key, health_key = self._sub_key(sub_id, "log"), self._sub_key(sub_id, "health")
        pipe = self.redis.pipeline(transaction=False)
        pipe.lpush(log_key, json.dumps(entry, sort_keys=True))
        pipe.ltrim(log_key, 0, self.log_size - 1)
        pipe.hset(health_key, mapping={"last_attempt_at": entry["at"], "last_status_code": entry["status_code"] or 0,
                                       "last_error": entry["error"] or ""})
        if entry["ok"]:
            pipe.hincrby(health_key, "delivered", 1)
            pipe.hset(health_key, mapping={"last_success_at": entry["at"], "consecutive_failures": 0})
        else:
            pipe.hincrby(health_key, "failed", 1)
            pipe.hincrby(health_key, "consecutive_failures", 1)
        pipe.execute()

    def deliveries(self, sub_id: str, game_id: str | None = None, limit: int | None = None) -> list[dict]:
        """The latest delivery attempts kept, newest first (optionally of one game; at most ``limit``)."""
        entries = [json.loads(raw) for raw in self.redis.lrange(self._sub_key(sub_id, "log"), 0, -1)]
        if game_id is not None:
            entries = [e for e in entries if e["game_id"] == game_id]
        return entries if limit is None else entries[:limit]

    def health(self, sub_id: str) -> dict:
        """Counters and the latest outcome: ``status`` is ``idle``, ``ok`` or ``failing``."""
        raw = {_text(k): _text(v) for k, v in self.redis.hgetall(self._sub_key(sub_id, "health")).items()}
        number = {name: int(raw.get(name) or 0) for name in ("delivered", "failed", "consecutive_failures",
                                                             "last_attempt_at", "last_success_at",
                                                             "last_status_code")}
        status = "idle" if not raw else ("failing" if number["consecutive_failures"] else "ok")
        return {"status": status, "delivered": number["delivered"], "failed": number["failed"],
                "consecutive_failures": number["consecutive_failures"],
                "last_attempt_at": number["last_attempt_at"] or None,
                "last_success_at": number["last_success_at"] or None,
                "last_status_code": number["last_status_code"] or None,
                "last_error": raw.get("last_error") or None}


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
