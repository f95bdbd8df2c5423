"""The event log: pages of events and a live server-sent-events feed, each redacted for the caller."""

from __future__ import annotations

import json
import time

from flask import Blueprint, Response, request

from app import schemas
from app.http import parse_version_header, query, runtime, versioned
from app.problems import Problem
from app.routes.common import caller
from engine.rewind import is_marker
from events.redaction import ADMIN
from projections.errors import GameNotFound
from projections.log import entry, log_view, visible
from projections.sentences import Table

bp = Blueprint("feed", __name__)
TAIL_BATCH = 100


@bp.get("/games/<gid:game_id>/events")
def events(game_id: str):
    """Events with ``seq > after`` (a page of at most ``limit``), as the caller may see them."""
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
    return versioned(lambda: {"game_id": game_id, "version": head, "after": args["after"], "limit": args["limit"],
                              "next_after": next_after, "more": next_after < head,
                              "events": log_view(page, who, args["include_internal"], table)}, head, private=True)


@bp.get("/games/<gid:game_id>/stream")
def stream(game_id: str):
    """Server-sent events from ``Last-Event-ID`` (or ``?after=N``, default 0), live, until the game ends.

    Each message is ``id: <seq>``, ``event: <type>``, ``data: <event as JSON>``; a comment line
    keeps the connection alive; after the game's last event comes ``event: end``. The stream
    closes after ``?timeout`` seconds (at most the configured maximum): reconnect with
    ``Last-Event-ID`` to go on.
    """
    who = caller(game_id)
    args = query(schemas.STREAM_QUERY)
    rt = runtime()
    state = rt.repository.require(game_id)
    resume = parse_version_header(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    after = resume if resume is not None else args.get("after", 0)
    limit = min(args.get("timeout", rt.settings.sse_max_seconds), rt.settings.sse_max_seconds)
    finished_at = state["v"] if state["status"] == "finished" else None
    body = _messages(rt, game_id, who, after, limit, finished_at, Table.of(state))
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Vary": "Authorization"})


def _messages(rt, game_id: str, who: str | None, after: int, limit: float, finished_at: int | None, table: Table):
    """The SSE messages: catch up, then follow the stream's tail.

    A ``GameEnded`` ends the stream only if nothing follows it: a game rewound after its end
    has a ``GameRewound`` marker after it and goes on (engine/rewind.py).
    """
    keepalive = rt.settings.sse_keepalive
    deadline = time.monotonic() + limit
    yield "retry: 2000\n\n"
    while True:
        if finished_at is not None and after >= finished_at:
            if rt.store.version(game_id) <= after:
                yield "event: end\ndata: {}\n\n"
                return
            finished_at = None  # the end was rewound: its marker comes next
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        batch = rt.store.tail(game_id, after, block_ms=max(1, int(min(keepalive, remaining) * 1000)),
                              count=TAIL_BATCH)
        if not batch:
            yield ": keep-alive\n\n"
            continue
        for event in batch:
            after = event["seq"]
            if event["type"] == "GameEnded":
                finished_at = after
            elif is_marker(event):
                finished_at = None
            if visible(event, who):
                yield _message(entry(event, who, table))


def _message(event: dict) -> str:
    data = json.dumps(event, separators=(",", ":"), sort_keys=True)
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n"
