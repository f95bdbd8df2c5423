"""The event log: pages of events and a live server-sent-events feed, each redacted for the caller."""

from __future__ import annotations

import json
import time

from flask import Blueprint, Response, current_app, request

from app import schemas
from app.auth import bearer_token
from app.compact import live
from app.http import parse_version_header, query, runtime, versioned
from app.problems import Problem
from app.routes.common import caller
from engine.rewind import is_marker
from events.redaction import ADMIN
from projections.errors import GameNotFound
from projections.log import compact_view, entry, log_view, visible
from projections.sentences import Table
from workers import metrics

bp = Blueprint("feed", __name__)


@bp.get("/games/<gid:game_id>/events")
def events(game_id: str):
    """Events with ``seq > after`` (a page of at most ``limit``), as the caller may see them; ``view=compact``:
    only each entry's sentence, for a client catching up (`projections.log.compact_view`)."""
    who = caller(game_id)
    args = query(schemas.EVENTS_QUERY)
    if args["include_internal"] and who != ADMIN:
        raise Problem(403, "forbidden", "engine bookkeeping events are for the admin token only")
    rt = runtime()
    store = rt.store
    head = store.version(game_id)
    if head == 0:
        raise GameNotFound(game_id)
    page = store.read(game_id, after=args["after"], count=args["limit"])
    table = Table.of(rt.repository.require(game_id))  # names and edition, for each entry's sentence
    next_after = page[-1]["seq"] if page else max(args["after"], 0)
    if args["view"] == "compact":  # catching up: the sentences only (projections.log.compact_view)
        return versioned(lambda: {"game_id": game_id, "view": "compact", "version": head, "after": args["after"],
                                  "limit": args["limit"], "next_after": next_after, "more": next_after < head,
                                  "events": compact_view(page, who, args["include_internal"], table)}, head, private=True)
    return versioned(lambda: {"game_id": game_id, "version": head, "after": args["after"], "limit": args["limit"],
                              "next_after": next_after, "more": next_after < head,
                              "events": log_view(page, who, args["include_internal"], table)}, head, private=True)


@bp.get("/games/<gid:game_id>/stream")
def stream(game_id: str):
    """Server-sent events from ``Last-Event-ID`` (or ``?after=N``, default 0), live, until the game ends.

    Each message is ``id: <seq>``, ``event: <type>``, ``data: <event as JSON>``; a comment line
    keeps the connection alive; after the game's last event comes ``event: end``. The stream
    closes after ``?timeout`` seconds (at most the configured maximum): reconnect with
    ``Last-Event-ID`` to go on. The events come from this process's feed hub (app/hub.py), which
    reads each game once for every feed that follows it; the open feeds are capped per token,
    per client address and per process (app/feedcaps.py: 429 or 503 with ``Retry-After``).
    """
    who = caller(game_id)
    args = query(schemas.STREAM_QUERY)
    rt = runtime()
    state = rt.repository.require(game_id)
    resume = parse_version_header(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    after = resume if resume is not None else args.get("after", 0)
    limit = min(args.get("timeout", rt.settings.sse_max_seconds), rt.settings.sse_max_seconds)
    finished_at = state["v"] if state["status"] == "finished" else None
    return leased_feed(who, limit, lambda: _messages(hub(), rt, game_id, who, after, limit, finished_at,
                                                     Table.of(state)))


def leased_feed(who, limit: float, messages) -> Response:
    """A live feed (``text/event-stream``) of what ``messages()`` yields, holding a place of the feed caps
    for ``who`` (a colour, ``None`` for a spectator, or a player) from now until it closes.

    No free place: the caps' 429 or 503 (`app.feedcaps`), counted in the metrics by why. The place is
    given back when the body closes, also when it was never read.
    """
    caps = feed_caps()
    try:
        lease = caps.acquire(who, bearer_token(), request.remote_addr, limit)
    except Problem as refused:
        metrics.FEEDS_REFUSED.labels(_refusal(who, refused)).inc()
        raise
    metrics.FEEDS_OPEN.labels(lease.kind).inc()
    try:
        body, headers = live(messages(), {"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
                                          "Vary": "Authorization"})
        response = Response(body, mimetype="text/event-stream", headers=headers)
    except BaseException:
        _release(caps, lease)
        raise
    response.call_on_close(lambda: _release(caps, lease))
    return response


def hub():
    """This app's feed hub (app/hub.py)."""
    return current_app.extensions["cosmic.hub"]


def feed_caps():
    """This app's caps on open feeds (app/feedcaps.py)."""
    return current_app.extensions["cosmic.feedcaps"]


def _refusal(who: str | None, refused: Problem) -> str:
    if refused.status == 503:
        return "process"
    return "address" if who is None else "token"


def _release(caps, lease) -> None:
    if not lease.released:
        caps.release(lease)
        metrics.FEEDS_OPEN.labels(lease.kind).dec()


def _messages(feed_hub, rt, game_id: str, who: str | None, after: int, limit: float, finished_at: int | None,
              table: Table):
    """The SSE messages: catch up, then follow the game through the hub.

    A ``GameEnded`` ends the stream only if nothing follows it: a game rewound after its end
    has a ``GameRewound`` marker after it and goes on (engine/rewind.py).
    """
    keepalive = rt.settings.sse_keepalive
    deadline = time.monotonic() + limit
    yield "retry: 2000\n\n"
    with feed_hub.subscribe({game_id: after}) as feed:
        lagged = 0
        while True:
            if finished_at is not None and after >= finished_at:
                if rt.store.version(game_id) <= after:
                    yield "event: end\ndata: {}\n\n"
                    return
                finished_at = None  # the end was rewound (its marker comes next) or talk follows it
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            deliveries = feed.next(min(keepalive, remaining))
            if feed.lagged != lagged:
                metrics.FEED_CATCH_UPS.inc(feed.lagged - lagged)
                lagged = feed.lagged
            if not deliveries:
                yield ": keep-alive\n\n"
                continue
            for batch, start in deliveries:
                for event in batch.events[start:]:
                    after = event["seq"]
                    if event["type"] == "GameEnded":
                        finished_at = after
                    elif is_marker(event):
                        finished_at = None
                text = "".join(batch.rendered(who, _render(who, table))[start:])
                if text:
                    yield text


def _render(who: str | None, table: Table):
    """The SSE messages of a list of events for one viewer, with their sentences ("" for each event it may not see)."""
    def render(events: list[dict]) -> list[str]:
        return [_message(entry(event, who, table)) if visible(event, who) else "" for event in events]
    return render


def _message(event: dict) -> str:
    data = json.dumps(event, separators=(",", ":"), sort_keys=True)
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n"
