"""Webhook subscriptions: create, list, read, delete, and each one's delivery log.

Who may do what:

- A subscription to every game (no ``game_id``) needs the admin token.
- A subscription to one game: the admin, or any player seated in it (with its seat's token).
- What a subscription receives is redacted for its viewer: the admin's subscriptions get
  complete events (``viewer: "admin"``, or ``"public"`` if asked); a player's get exactly
  what that seat sees in its own log (``viewer`` = its colour), never another seat's secrets.
- Reading, listing, deleting a subscription and its log: the admin, or the seat that made it
  (a player lists its own with ``GET /webhooks?game_id=...``).
- The secret signs every delivery; it is returned once, by the request that created the
  subscription (chosen by the client or made by the server), and never again.
- A player's subscriptions may not target loopback or private addresses (unless the
  service allows it). A game's `MAX_PER_GAME` slots are shared fairly between its seats: each
  seat holds at most ``MAX_PER_GAME // seats`` (10 each of 2 seats, 3 each of 6), so no seat
  can take another's share; the admin's subscriptions take no seat's slots.
- Creating subscriptions is rate-limited per token and per address (app/limits.py).
"""

from __future__ import annotations

import re

from flask import Blueprint, Response

from app import schemas
from app.auth import require_player_or_admin
from app.http import json_body, json_response, query, runtime
from app.problems import Problem
from app.routes.common import caller, require_known_token
from events.redaction import ADMIN
from workers.subscriptions import deliverable_types, new_secret, url_problem
from workers.webhooks import enqueue, subscriptions

bp = Blueprint("webhooks", __name__)
SUB_ID = re.compile(r"^wh_[0-9a-f]{20}$")
MAX_PER_GAME = 20


@bp.post("/webhooks")
def create():
    """Subscribe a URL to one game's events or (admin) every game's; the answer holds the secret, once."""
    require_known_token()  # authenticate first: no body is looked at without a valid token
    body = schemas.CREATE_WEBHOOK.load(json_body())
    game_id = body.get("game_id")
    who = caller(game_id)
    if game_id is None and who != ADMIN:
        raise Problem(403, "forbidden", "only the admin token may subscribe to every game; name a game_id")
    who = require_player_or_admin(who)
    rt = runtime()
    subs = subscriptions(rt)
    if "viewer" in body and who != ADMIN:
        raise Problem(403, "forbidden", "a player's subscription sees what its seat sees; only the admin picks a viewer")
    problem = url_problem(body["url"], allow_private=who == ADMIN or rt.settings.webhook_allow_private)
    if problem is not None:
        raise Problem(400, "invalid-request", f"the webhook URL is not accepted: {problem}", errors={"url": [problem]})
    _check_types(body.get("event_types"))
    after = _start(rt, game_id, body.get("after"))
    if game_id is not None and who != ADMIN:
        _within_share(rt, subs, game_id, who)
    secret = body.get("secret") or new_secret()
    sub = subs.create(body["url"], secret=secret, game_id=game_id, event_types=body.get("event_types"),
                      viewer=body.get("viewer", "admin") if who == ADMIN else who, created_by=who, after=after)
    if game_id is not None and after < rt.store.version(game_id):
        enqueue(rt, subs, sub["id"], game_id)  # the history asked for is sent now, not at the next append
    shown = {**subs.public(sub), "secret": secret}
    return json_response(shown, 201, {"Location": f"/webhooks/{sub['id']}", "Cache-Control": "no-store"})


def share(seats: int) -> int:
    """How many of a game's webhook slots each of its seats may hold."""
    return MAX_PER_GAME // max(1, seats)


def _within_share(rt, subs, game_id: str, seat: str) -> None:
    """403 when the seat already holds its share of the game's slots (`share`)."""
    allowed = share(rt.repository.require(game_id)["seats"])
    held = sum(1 for sub in subs.matching(game_id) if sub["game_id"] == game_id and sub["created_by"] == seat)
    if held >= allowed:
        raise Problem(403, "forbidden", f"each seat of this game may hold {allowed} of its {MAX_PER_GAME} webhook "
                                        f"subscriptions (its share), and {seat} holds {held}: delete one first")


def _check_types(types: list[str] | None) -> None:
    if types is None:
        return
    known = set(deliverable_types())
    unknown = sorted(set(types) - known)
    if unknown:
        raise Problem(400, "invalid-request", "unknown or undeliverable event types: " + ", ".join(unknown),
                      errors={"event_types": [f"Unknown event type {name!r}." for name in unknown]})


def _start(rt, game_id: str | None, after: int | None) -> int | None:
    """Where a per-game subscription starts: after event ``after`` (default: the game's current version)."""
    if game_id is None:
        if after is not None:
            raise Problem(400, "invalid-request", "after needs a game_id",
                          errors={"after": ["Only for a subscription to one game."]})
        return None
    version = rt.repository.require(game_id)["v"]
    if after is None:
        return version
    if after > version:  # a version the game does not have, named in a body: 422, as a fork's (openapi.yaml)
        raise Problem(422, "version-not-found", f"the game has {version} events; after may be 0 to {version}",
                      current_version=version, errors={"after": [f"At most {version}."]})
    return after


@bp.get("/webhooks")
def list_all():
    """The admin's view of every subscription (optionally of one game), or a seat's own in its game."""
    require_known_token()  # authenticate first: no query is looked at without a valid token
    args = query(schemas.WEBHOOKS_QUERY)
    game_id = args.get("game_id")
    who = caller(game_id)
    if game_id is None and who != ADMIN:
        raise Problem(403, "forbidden", "a seat's token lists the subscriptions of its own game: name the game_id")
    who = require_player_or_admin(who)
    subs = subscriptions(runtime())
    after = int(args["after"]) if "after" in args else -1
    found = [s for s in subs.all() if (game_id is None or s["game_id"] == game_id)
             and (who == ADMIN or s["created_by"] == who) and s.get("n", 0) > after]
    page = found[:args["limit"]]
    next_after = str(page[-1].get("n", 0)) if page else args.get("after")
    return json_response({"webhooks": [subs.public(s) for s in page], "limit": args["limit"],
                          "next_after": next_after, "more": len(found) > len(page)},
                         headers={"Cache-Control": "no-store"})


@bp.get("/webhooks/<sub_id>")
def read(sub_id: str):
    """One subscription (never its secret), with its delivery health."""
    subs, sub = _owned(sub_id)
    return json_response(subs.public(sub), headers={"Cache-Control": "no-store"})


@bp.delete("/webhooks/<sub_id>")
def delete(sub_id: str):
    """Stop a subscription: nothing more is sent; its cursors and log go."""
    subs, sub = _owned(sub_id)
    subs.delete(sub["id"])
    return Response(status=204)


@bp.get("/webhooks/<sub_id>/deliveries")
def deliveries(sub_id: str):
    """The latest delivery attempts, newest first: event, attempt, status code, error, time."""
    subs, sub = _owned(sub_id)
    args = query(schemas.DELIVERIES_QUERY)
    entries = subs.deliveries(sub["id"], args.get("game_id"))
    if "after" in args:  # the entries older than the cursor's (gone with it when the log was trimmed past it)
        ids = [entry["delivery"] for entry in entries]
        entries = entries[ids.index(args["after"]) + 1:] if args["after"] in ids else []
    page = entries[:args["limit"]]
    next_after = page[-1]["delivery"] if page else args.get("after")
    return json_response({"subscription": sub["id"], "deliveries": page, "limit": args["limit"],
                          "next_after": next_after, "more": len(entries) > len(page)},
                         headers={"Cache-Control": "no-store"})


def _owned(sub_id: str):
    """The subscription, if the caller is the admin or the seat that made it (401/403/404 otherwise)."""
    require_known_token()  # the same answer for a known and an unknown id without a valid token
    subs = subscriptions(runtime())
    sub = subs.get(sub_id) if SUB_ID.match(sub_id) else None
    if sub is None:
        raise Problem(404, "not-found", f"there is no webhook subscription {sub_id!r}")
    who = caller(sub["game_id"])  # None: a seat's token, and the subscription is to every game
    if who != ADMIN and sub["created_by"] != who:
        raise Problem(403, "forbidden", "a seat may see and delete only the subscriptions it made")
    return subs, sub
