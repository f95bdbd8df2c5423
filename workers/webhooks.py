"""Webhook delivery: every appended event, as a signed POST, in order per game, retried with backoff.

After every append, `listener` finds the subscriptions that want the game (its own and the
all-games ones), starts their cursor in this game if it has none (at the event before this
append: a subscription gets what is appended after it exists) and enqueues
``deliver(sub_id, game_id)`` when any of the new events passes the subscription's filter. A
``queued`` flag coalesces the appends that arrive while such a job waits in the queue.

`deliver` (the job) holds the lease of (subscription, game), so two workers never deliver
to the same subscription for the same game at once, and then walks the game's stream from
the cursor: events the subscription does not want (other types; engine bookkeeping, never
delivered) just move the cursor; each wanted event is POSTed, and the cursor moves past it
only after a 2xx. On a failure (non-2xx, network error, timeout) it records the attempt,
sets ``retry_at`` = now + backoff (``COSMIC_WEBHOOK_BACKOFF`` doubling per consecutive
failure, at most ``COSMIC_WEBHOOK_BACKOFF_MAX``), schedules itself for then and stops: the
events after it wait, so the receiver sees each game's events in order. It never gives up:
a subscription to a receiver that stays down keeps retrying at the capped interval and shows
``"status": "failing"``; delete it to stop. After a 2xx the same event is never sent again
(the cursor moves while the lease is held, and in the embedded mode it is on disk before the
next POST), unless the worker dies between the receiver's answer and that write: receivers
dedupe on ``X-Cosmic-Event-Id`` for that case (at most the one event in flight per game).

The request: body = the event envelope as JSON (canonical: sorted keys, no spaces),
redacted for the subscription's viewer (``admin``: complete, hashes included; a seat's
colour: as that seat sees it; ``public``: as a spectator does), with ``text``, the sentence
that tells it to that viewer in the game's edition (projections/sentences.py), as the log and
the feed carry it; a private message of the table talk goes only to its two players' and the
admin's subscriptions. Headers:
``X-Cosmic-Signature: sha256=<hex HMAC-SHA256 of the body bytes with the secret>``,
``X-Cosmic-Event-Id`` (``<game_id>:<seq>``), ``X-Cosmic-Event-Type``, ``X-Cosmic-Game``,
``X-Cosmic-Seq``, ``X-Cosmic-Delivery`` (a fresh id per attempt), ``X-Cosmic-Attempt``,
``X-Cosmic-Subscription``, ``X-Cosmic-Timestamp`` (ms; not covered by the signature).

A rewind appends a ``GameRewound`` marker (engine/rewind.py): it is delivered like any other
event (its payload is public: the target version, who decided, the clock shift), so a
receiver learns that the events after it continue the game from that version; the abandoned
line's events were delivered before it and are not sent again. A fork is a new game: the
all-games subscriptions get its copied events from its first.
Redirects are not followed (a 3xx is a failure) and proxy variables are ignored. A player's
subscription whose host resolves to a private address (IPv4 embedded in IPv6 included) fails
without a request unless ``COSMIC_WEBHOOK_ALLOW_PRIVATE`` is set: the connection resolves the
name once and connects only to the addresses it judged (`workers.outbound`).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import logging
import math
import time
import urllib.error
import urllib.request
import uuid
from urllib.parse import urlsplit

from events.envelope import canonical_json
from events.redaction import ADMIN, is_internal, shown_to
from projections.sentences import Table, narrated
from workers import metrics
from workers.clock import now_ms
from workers.directory import Announcing, Directory
from workers.leases import Lease, look_again_later, once_within
from workers.outbound import VettedHTTPHandler, VettedHTTPSHandler, vetted_addresses
from workers.process import current
from workers.subscriptions import Subscriptions

log = logging.getLogger(__name__)

QUEUE = "default"
SIGNATURE_HEADER = "X-Cosmic-Signature"
READ_BATCH = 200
POSTS_PER_JOB = 200        # then the job hands over to a fresh one
QUEUED_FLAG_MS = 60_000    # how long an enqueued-but-not-started job keeps later appends from enqueuing
RESPONSE_LIMIT = 64 * 1024
USER_AGENT = "cosmic-webhooks/0.1"


def subscriptions(runtime) -> Subscriptions:
    """The subscription store of a runtime (its creations and deletions reach every process's `Directory`)."""
    return Announcing(runtime)


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` + hex HMAC-SHA256 of ``body`` with ``secret``."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str | None) -> bool:
    """Whether a signature header fits a body (what a receiver does; constant-time)."""
    return header is not None and hmac.compare_digest(sign(secret, body), header)


def viewer_of(sub: dict) -> str | None:
    """Whom a subscription reads as: the admin, a seat's colour, or None (``public``: a spectator)."""
    viewer = sub.get("viewer")
    return ADMIN if viewer == "admin" else (None if viewer == "public" else viewer)


def wanted(sub: dict, event: dict) -> bool:
    """Whether a subscription gets an event: never engine bookkeeping, nor a private message its viewer is not
    one of the two players of (workers/talk.py); its types filter, if any."""
    if is_internal(event) or not shown_to(event, viewer_of(sub)):
        return False
    types = sub.get("event_types")
    return types is None or event["type"] in types


def payload(sub: dict, event: dict, table: Table | None = None) -> bytes:
    """The body sent for an event: its envelope redacted for the subscription's viewer, with the sentence that
    tells it (``text``, projections/sentences.py; ``table``: the game's names and edition) as the log has it."""
    return canonical_json(narrated(event, viewer_of(sub), table or Table())).encode("utf-8")


# --- after every append ----------------------------------------------------------------------

def listener(runtime):
    """A `CommandRunner` listener: start cursors and enqueue deliveries for matching subscriptions.

    Which subscriptions match comes from this process's `Directory`, so an append reads no key
    shared by every game unless a subscription was created or deleted (docs/cluster.md).
    """
    directory = Directory(runtime)

    def on_append(game_id: str, before: dict, after: dict, events: list) -> None:
        for sub in directory.matching(game_id):
            if directory.start_cursor(sub["id"], game_id, events[0]["seq"] - 1) and \
                    any(wanted(sub, event) for event in events):
                enqueue(runtime, directory.subs, sub["id"], game_id)
    return on_append


def enqueue(runtime, subs: Subscriptions, sub_id: str, game_id: str) -> None:
    """Enqueue a delivery job unless one is already waiting in the queue for this (subscription, game)."""
    if once_within(runtime.redis, subs.game_key(sub_id, game_id, "queued"), QUEUED_FLAG_MS):
        runtime.enqueue(deliver, sub_id, game_id, queue=QUEUE)


# --- the job ---------------------------------------------------------------------------------

def deliver(sub_id: str, game_id: str, retry: bool = False) -> dict:
    """Deliver a subscription's pending events of one game, in order (see the module docstring).

    ``retry``: this run is the scheduled retry (a retry that the scheduler runs early puts
    itself back; an append's job arriving during the backoff leaves the event to it).
    """
    runtime = current()
    subs = subscriptions(runtime)
    if not retry:
        runtime.redis.delete(subs.game_key(sub_id, game_id, "queued"))
    sub = subs.get(sub_id)
    if sub is None:
        subs.forget_cursor(sub_id, game_id)
        return {"subscription": sub_id, "game_id": game_id, "stopped": "deleted", "sent": 0}
    lease = Lease(runtime.redis, subs.game_key(sub_id, game_id, "lease"),
                  int(runtime.settings.webhook_timeout * 4000) + 10_000)  # renewed before every POST
    if not lease.acquire():
        look_again_later(runtime, lease, subs.game_key(sub_id, game_id, "later"), deliver, sub_id, game_id,
                         queue=QUEUE)
        return {"subscription": sub_id, "game_id": game_id, "stopped": "busy", "sent": 0}
    try:
        sent, stopped = _deliver_pending(runtime, subs, sub, game_id, lease, retry)
    finally:
        lease.release()
    if stopped == "caught-up" and subs.cursor(sub_id, game_id)["delivered"] < runtime.store.version(game_id):
        enqueue(runtime, subs, sub_id, game_id)  # events appended while we held the lease
    return {"subscription": sub_id, "game_id": game_id, "stopped": stopped, "sent": sent}


def _deliver_pending(runtime, subs: Subscriptions, sub: dict, game_id: str, lease: Lease,
                     retry: bool) -> tuple[int, str]:
    """POST the wanted events after the cursor until caught up, a failure, or the job's budget."""
    settings = runtime.settings
    cursor = subs.cursor(sub["id"], game_id)
    wait_ms = cursor["retry_at"] - now_ms()
    if wait_ms > 0:
        if retry:
            _schedule_retry(runtime, sub["id"], game_id, cursor["retry_at"])
        return 0, "backing-off"
    delivered, attempts, sent = cursor["delivered"], cursor["attempts"], 0
    head = runtime.store.version(game_id)
    table = Table.of(runtime.repository.current(game_id)) if head else Table()  # names and edition, for ``text``
    if delivered > head:  # the stream is shorter than what was delivered (deleted and made again): go on from its end
        delivered = head
        subs.advance(sub["id"], game_id, head)
    while True:
        batch = runtime.store.read(game_id, after=delivered, count=READ_BATCH)
        if not batch:
            subs.advance(sub["id"], game_id, delivered)
            return sent, "caught-up"
        for event in batch:
            if not wanted(sub, event):
                delivered = event["seq"]
                continue
            if sent >= POSTS_PER_JOB:
                subs.advance(sub["id"], game_id, delivered)
                runtime.enqueue(deliver, sub["id"], game_id, queue=QUEUE)
                return sent, "handed-over"
            if not lease.extend():
                return sent, "lease-lost"  # whoever holds it now goes on from the stored cursor
            ok = _attempt(runtime, subs, sub, event, attempts + 1, table)
            sent += 1
            if not ok:
                attempts += 1
                retry_at = now_ms() + int(backoff(settings, attempts) * 1000)
                subs.failed(sub["id"], game_id, delivered, attempts, retry_at)
                _schedule_retry(runtime, sub["id"], game_id, retry_at)
                return sent, "failed"
            delivered, attempts = event["seq"], 0
            subs.advance(sub["id"], game_id, delivered)
            runtime.durable()  # the embedded mode: the position is on disk before the next POST


def backoff(settings, attempts: int) -> float:
    """Seconds to wait after ``attempts`` consecutive failures: doubling from the base, capped."""
    return min(settings.webhook_backoff * 2 ** min(attempts - 1, 40), settings.webhook_backoff_max)


def _schedule_retry(runtime, sub_id: str, game_id: str, retry_at_ms: int) -> None:
    """Schedule the retry for the first whole second not before ``retry_at`` (RQ counts whole seconds)."""
    delay = math.ceil(retry_at_ms / 1000) - time.time()
    runtime.enqueue_in(max(0.0, delay), deliver, sub_id, game_id, True, queue=QUEUE)


def _attempt(runtime, subs: Subscriptions, sub: dict, event: dict, attempt: int, table: Table | None = None) -> bool:
    """POST one event once and log the attempt; True on a 2xx."""
    body = payload(sub, event, table)
    delivery = uuid.uuid4().hex
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT,
               SIGNATURE_HEADER: sign(sub["secret"], body),
               "X-Cosmic-Event-Id": f"{event['game_id']}:{event['seq']}", "X-Cosmic-Event-Type": event["type"],
               "X-Cosmic-Game": event["game_id"], "X-Cosmic-Seq": str(event["seq"]),
               "X-Cosmic-Delivery": delivery, "X-Cosmic-Attempt": str(attempt),
               "X-Cosmic-Subscription": sub["id"], "X-Cosmic-Timestamp": str(now_ms())}
    started = time.monotonic()
    at = now_ms()
    vetted = not runtime.settings.webhook_allow_private and sub.get("created_by") != ADMIN
    status, error = post(sub["url"], body, headers, runtime.settings.webhook_timeout, vetted=vetted)
    ok = status is not None and 200 <= status < 300
    metrics.WEBHOOK_ATTEMPTS.labels("ok" if ok else "failed").inc()
    if ok:  # the delivery's lag: from the event's append (its time) to the receiver's 2xx
        metrics.WEBHOOK_LAG.observe(max(0, now_ms() - event["time"]) / 1000)
    subs.record(sub["id"], {"delivery": delivery, "game_id": event["game_id"], "seq": event["seq"],
                            "event_type": event["type"], "attempt": attempt, "status_code": status,
                            "ok": ok, "error": None if ok else (error or f"HTTP {status}"), "at": at,
                            "duration_ms": int((time.monotonic() - started) * 1000)})
    if not ok:
        log.info("webhook %s: %s seq %s attempt %s failed: %s", sub["id"], event["game_id"], event["seq"],
                 attempt, error or status)
    return ok


# --- HTTP ------------------------------------------------------------------------------------

class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not an instruction: it makes the attempt fail."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects)
# a player's target: the connection itself resolves the name and connects only to public addresses
_VETTED_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects,
                                             VettedHTTPHandler, VettedHTTPSHandler)


def post(url: str, body: bytes, headers: dict, timeout: float, vetted: bool = False) -> tuple[int | None, str | None]:
    """POST ``body``; (status code, None) when the receiver answered, (code or None, error) otherwise.

    ``vetted``: connect only to public addresses of the name, resolved by the connection itself
    (`workers.outbound`), so no request leaves for an inward address.
    """
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    opener = _VETTED_OPENER if vetted else _OPENER
    try:
        with opener.open(request, timeout=timeout) as response:
            response.read(RESPONSE_LIMIT)
            return response.status, None
    except urllib.error.HTTPError as err:
        err.close()
        return err.code, f"HTTP {err.code}"
    except urllib.error.URLError as err:
        return None, f"{type(err.reason).__name__}: {err.reason}"[:300]
    except (OSError, http.client.HTTPException, ValueError) as err:
        return None, f"{type(err).__name__}: {err}"[:300]


def private_target(url: str) -> str | None:
    """Why a player's webhook may not be sent to ``url`` (its host resolves to a private address), or None."""
    parts = urlsplit(url)
    try:
        vetted_addresses(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except OSError as err:
        return str(err)[:300]
    return None
