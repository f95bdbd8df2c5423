"""Every rate limit the service applies, in one place: flask-limiter on the service's own Redis.

What is limited (the table in README.md "Limits"; each quota is a setting, `workers.settings`):

- ``create``: ``POST /games``;  ``fork``: ``POST /games/{id}/fork``;  ``webhook``: ``POST /webhooks``;
  ``message``: ``POST /games/{id}/messages`` (the table talk: a seat's token is its seat, so the token
  quota is per seat);
  ``player``: ``POST /players`` (a player key each);
- ``write``: every ``POST`` and ``DELETE`` (actions, joins, starts, rewinds, claims, ... and the three
  above too, which count as writes besides their own limit).

Each kind has a quota per bearer token and one per client address; a request must be within
both. The admin token is never limited. Reads (``GET``) are not rate-limited; open live feeds
are capped by the feed machinery, which refuses with `cap_reached` (the same 429).

Keys. A token is counted by its SHA-256 (``token:<32 hex>``), never by the token itself. An
address is the connection's peer address (``request.remote_addr``): no forwarded header is
believed unless ``COSMIC_TRUSTED_PROXIES`` says how many proxies stand in front, and then only
that many hops of ``X-Forwarded-For`` (werkzeug's ``ProxyFix``). An IPv6 client is counted by
its /64 network (one host or household may hold a whole /64), an IPv4-mapped one as IPv4.

Storage. The counters live in the service's Redis under ``{prefix}:limits:`` (a Redis Cluster
too: flask-limiter's cluster storage, with both windows of a counter in one hash slot), so every
gunicorn process shares them; in the embedded mode (fakeredis) they are kept in process
memory, where a restart forgets them. The strategy is the sliding-window counter, which does not
let a client double its quota at a window's edge. When the counters' Redis does not answer (a
cluster master down holds a third of them), each process counts in its own memory until it
answers again: a limit never turns a storage failure into refused writes the service could take.
The requests already inside the counters' Redis when it fails (on gevent, many at once) find the
switch to memory made by the first of them; they are served uncounted, the failure logged
(flask-limiter's ``swallow_errors``), never answered 503.

Answers. A refused request is a 429 ``application/problem+json`` (``rate-limited``, built by
`app.problems.too_many`) with ``Retry-After``; every answer a limit applied to carries the
fields of the IETF draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers,
the form of drafts 09 and later): ``RateLimit-Policy`` lists each quota that applied
(``"write-token-60s";q=120;w=60``: a quota of 120 requests per 60 s window) and ``RateLimit`` what
is left of each (``"write-token-60s";r=118;t=52``: 118 requests, the window frees up within 52 s).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from flask import current_app, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded

from app.problems import Problem, problem_response, too_many
from workers.settings import ENV_NAMES

log = logging.getLogger(__name__)
WRITE_METHODS = ("POST", "DELETE", "PUT", "PATCH")
STRATEGY = "sliding-window-counter"


@dataclass(frozen=True)
class Rule:
    """One quota: a kind of request, counted per token or per address, its setting and its routes."""

    kind: str                 # create, fork, webhook, message, player, write
    who: str                  # token | address
    setting: str              # the `Settings` field holding its limit string
    endpoints: tuple | None   # the Flask endpoints it counts; None: every write
    what: str                 # what is counted, in words

    def applies(self) -> bool:
        """Whether this request counts against the rule (the endpoint; a token rule needs a token)."""
        if request.method not in WRITE_METHODS:
            return False
        if self.endpoints is not None and request.endpoint not in self.endpoints:
            return False
        return self.who == "address" or _bearer() is not None


RULES = tuple(
    Rule(kind, who, f"limit_{kind}_{who}", endpoints, what)
    for kind, endpoints, what in (
        ("create", ("games.create_game",), "games created"),
        ("fork", ("history.fork_game",), "forks"),
        ("webhook", ("webhooks.create",), "webhook subscriptions"),
        ("message", ("talk.send_message",), "messages of the table talk"),
        ("player", ("me.register_player",), "players registered"),
        ("write", None, "writes (POST and DELETE requests)"),
    )
    for who in ("token", "address")
)


def install(app, settings) -> Limiter:
    """Apply every limit of ``settings`` to ``app`` (counted where `storage` says); returns the limiter."""
    if settings.trusted_proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies, x_proto=0, x_host=0, x_port=0,
                                x_prefix=0)
    uri, options = storage(app.extensions["cosmic"])
    limits = [ApplicationLimit(value, key_function=KEYS[rule.who], scope=rule.kind, methods=WRITE_METHODS,
                               exempt_when=lambda rule=rule: not rule.applies())
              for rule in RULES if (value := getattr(settings, rule.setting)).strip().lower() != "none"]
    limiter = Limiter(client_key, application_limits=limits, strategy=STRATEGY, storage_uri=uri,
                      storage_options=options, headers_enabled=False, swallow_errors=True,
                      in_memory_fallback_enabled=True)
    limiter.init_app(app)
    limiter.request_filter(lambda: _is_admin(settings.admin_token))
    app.extensions["cosmic.limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, _refused)
    app.after_request(_state_limits)
    return limiter


def storage(runtime) -> tuple[str, dict]:
    """flask-limiter's storage for a runtime: its Redis (plain or cluster) under ``{prefix}:limits``, or
    process memory when the runtime's Redis is the embedded one."""
    from workers.connections import cluster_options, is_cluster

    prefix = f"{runtime.settings.prefix}:limits"
    if runtime.fake_server is not None:
        return "memory://", {}
    client = runtime.redis
    if not is_cluster(client):
        return "redis://", {"connection_pool": client.connection_pool, "key_prefix": prefix}
    nodes = ",".join(f"{node.host}:{node.port}" for node in client.get_nodes())
    kwargs = client.get_default_node().redis_connection.connection_pool.connection_kwargs
    # the service's own cluster options: redis-py's default retries sleep with backoff, which held
    # every write for seconds when a master was down
    options = {"key_prefix": prefix, **cluster_options({}),
               **{k: kwargs[k] for k in ("username", "password") if kwargs.get(k)}}
    if (runtime.settings.redis_url or "").lower().startswith("rediss"):
        options["ssl"] = True
    return f"redis+cluster://{nodes}", options


# --- who is counted -------------------------------------------------------------------------------

def _bearer() -> str | None:
    """The bearer token sent, read leniently (a malformed header is the route's 401 to answer)."""
    header = request.headers.get("Authorization", "")
    if header[:7].lower() != "bearer ":
        return None
    return header[7:].strip() or None


def token_key() -> str:
    """A token's counter: its digest, never the token."""
    return "token:" + hashlib.sha256((_bearer() or "").encode("utf-8")).hexdigest()[:32]


def client_key() -> str:
    """An address's counter: the peer address (IPv6 by its /64, IPv4-mapped as IPv4)."""
    return "address:" + client_address()


def client_address() -> str:
    """The client's address as the limits count it (see the module docstring about proxies)."""
    raw = request.remote_addr or "unknown"
    try:
        address = ipaddress.ip_address(raw.split("%", 1)[0])
    except ValueError:
        return raw
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


KEYS = {"token": token_key, "address": client_key}


def _is_admin(admin_token: str | None) -> bool:
    token = _bearer()
    return bool(token and admin_token) and hmac.compare_digest(token.encode("utf-8"), admin_token.encode("utf-8"))


# --- answers --------------------------------------------------------------------------------------

def _policy_name(request_limit) -> str:
    """``<kind>-<token|address>-<window>s``: one quota (a setting may hold several windows)."""
    key, scope = request_limit.request_args[-2:]
    return f"{scope}-{key.split(':', 1)[0]}-{request_limit.limit.get_expiry()}s"


def _rule_of(request_limit) -> Rule:
    key, scope = request_limit.request_args[-2:]
    return next(rule for rule in RULES if rule.kind == scope and rule.who == key.split(":", 1)[0])


def _seconds_left(request_limit) -> int:
    return max(0, math.ceil(request_limit.window.reset_time - time.time()))


def _headers(request_limits) -> dict:
    """The draft's two fields for the quotas that applied to this request."""
    policy = ", ".join(f'"{_policy_name(lim)}";q={lim.limit.amount};w={lim.limit.get_expiry()}'
                       for lim in request_limits)
    left = ", ".join(f'"{_policy_name(lim)}";r={lim.remaining};t={_seconds_left(lim)}' for lim in request_limits)
    return {"RateLimit-Policy": policy, "RateLimit": left}


def _refused(err: RateLimitExceeded):
    """The 429 problem for a quota that ran out (``Retry-After``: when it frees up, at least 1 s)."""
    limiter = current_app.extensions["cosmic.limiter"]
    breached = limiter.current_limit
    rule = _rule_of(breached)
    wait = max(1, _seconds_left(breached))
    window = breached.limit.get_expiry()
    problem = too_many(f"too many {rule.what} from this {rule.who}: at most {breached.limit.amount} per {window} s "
                       f"({ENV_NAMES[rule.setting]}); try again in {wait} s", wait,
                       policy=_policy_name(breached))
    return problem_response(problem.status, problem.slug, problem.detail, problem.headers, **problem.extra)


def _state_limits(response):
    """Every answer a limit applied to says so (the 429 too), unless a cap already said it."""
    limiter = current_app.extensions.get("cosmic.limiter")
    applied = limiter.current_limits if limiter is not None else []
    if applied and "RateLimit" not in response.headers:
        try:
            response.headers.update(_headers(applied))
        except Exception:  # the counters stopped answering after the check: the answer goes without them
            log.warning("rate limits: the counters did not answer; the response goes without RateLimit fields",
                        exc_info=True)
    return response


def cap_reached(policy: str, cap: int, detail: str, retry_after: int) -> Problem:
    """A 429 for a cap on things held open at once (live feeds per token or address), in the same shape.

    The draft's quota unit ``concurrent-requests`` says it is a cap, not a rate:
    ``RateLimit-Policy: "feeds-token";q=20;qu="concurrent-requests"`` and ``RateLimit: "feeds-token";r=0``.
    (A cap of the whole process is not the client's doing: `app.problems.over_capacity`, a 503.)
    """
    return too_many(detail, retry_after, headers={"RateLimit-Policy": f'"{policy}";q={cap};qu="concurrent-requests"',
                                                  "RateLimit": f'"{policy}";r=0'}, policy=policy)
