"""Errors as ``application/problem+json`` (RFC 9457) with stable types, and the handlers that send them.

Every error response has ``type`` (``urn:cosmic:problem:<slug>``, stable: clients switch on
it), ``title`` (fixed per type), ``status`` and ``detail`` (this occurrence, in words);
some add fields: ``rule``/``rule_title`` (rules errors), ``field`` (bad commands),
``errors`` (invalid requests, by field), ``current_version`` (conflicts). A 500 never
carries the exception's text: it could hold a game's secrets.
"""

from __future__ import annotations

import logging

import redis
from flask import Flask, Response, json
from marshmallow import ValidationError
from redis.exceptions import ClusterError, RedisClusterException
from werkzeug.exceptions import HTTPException

import engine
from events.exceptions import EventTooLarge, GameDamaged
from projections.errors import GameNotFound, IdempotencyKeyReused, VersionConflict, VersionNotFound
from workers.errors import WorkerError

log = logging.getLogger(__name__)
TYPE_PREFIX = "urn:cosmic:problem:"
MEDIA_TYPE = "application/problem+json"

TITLES = {
    "bad-request": "The request body is not valid JSON",
    "invalid-request": "The request does not fit its schema",
    "bad-command": "The command is malformed",
    "unauthorized": "Authentication is required",
    "forbidden": "This token may not do that",
    "not-found": "No such resource",
    "game-not-found": "No such game",
    "version-not-found": "The game has no such version",
    "method-not-allowed": "Method not allowed",
    "version-conflict": "The game is not at the expected version",
    "not-owed": "No such decision is owed",
    "payload-too-large": "The request body is too large",
    "uri-too-long": "The URL is too long",
    "headers-too-large": "The request's header fields are too many or too large",
    "malformed-http": "The request is not valid HTTP",
    "unsupported-media-type": "The request body must be JSON",
    "rules-violation": "The rules forbid this",
    "idempotency-key-reused": "The Idempotency-Key was used for another request",
    "rewind-refused": "The game cannot be rewound to that version",
    "fork-refused": "The game cannot be forked so",
    "message-refused": "The table talk does not take this message",
    "seat-claimed": "That seat of the fork was already handed out",
    "already-seated": "The player already holds a seat of this game",
    "not-a-fork": "The game is not a fork: it has no seats to claim",
    "game-started": "The game has left the lobby",
    "seat-played-by-bot": "A bot plays this seat",
    "seat-not-handed-over": "The seat is not handed to a bot",
    "game-damaged": "The game's stored events are inconsistent",
    "service-unavailable": "The service cannot reach its storage",
    "rate-limited": "Too many requests: wait before trying again",
    "over-capacity": "The service is at capacity: try again later",
    "internal-error": "Internal error",
}


class Problem(Exception):
    """An error to send as a problem document."""

    def __init__(self, status: int, slug: str, detail: str, headers: dict | None = None, **extra):
        super().__init__(detail)
        self.status, self.slug, self.detail = status, slug, detail
        self.headers = headers or {}
        self.extra = extra


def too_many(detail: str, retry_after: int, headers: dict | None = None, **extra) -> Problem:
    """A 429 ``rate-limited`` problem: a limit on this client or token was reached.

    ``Retry-After`` says in whole seconds when to try again; ``headers`` may add the limit's
    own headers (``RateLimit``, ``RateLimit-Policy``). Every limit the service applies answers so
    (app/limits.py, the feed caps), so a client has one shape to pace itself by.
    """
    return Problem(429, "rate-limited", detail, {**(headers or {}), "Retry-After": str(max(1, int(retry_after)))},
                   retry_after=max(1, int(retry_after)), **extra)


def over_capacity(detail: str, retry_after: int, **extra) -> Problem:
    """A 503 ``over-capacity`` problem: the whole service (not this client) is at a limit; try later."""
    return Problem(503, "over-capacity", detail, {"Retry-After": str(max(1, int(retry_after)))},
                   retry_after=max(1, int(retry_after)), **extra)


def problem_response(status: int, slug: str, detail: str, headers: dict | None = None, **extra) -> Response:
    """The problem document as a response."""
    body = {"type": TYPE_PREFIX + slug, "title": TITLES[slug], "status": status, "detail": detail, **extra}
    response = Response(json.dumps(body), status=status, mimetype=MEDIA_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _from_problem(err: Problem):
    return problem_response(err.status, err.slug, err.detail, err.headers, **err.extra)


def _from_http(err: HTTPException):
    slug = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "payload-too-large",
            415: "unsupported-media-type"}.get(err.code, None)
    if slug is None:
        if err.code and 400 <= err.code < 500:
            return problem_response(400, "invalid-request", err.description or "bad request")
        return _internal(err)
    headers = {}
    if err.code == 405 and getattr(err, "valid_methods", None):
        headers["Allow"] = ", ".join(sorted(err.valid_methods))
    detail = {404: "no such resource here", 405: "this resource does not allow that method",
              413: "the request body is larger than the service accepts"}.get(err.code, err.description or "")
    return problem_response(err.code, slug, detail, headers)


def _from_validation(err: ValidationError):
    messages = err.messages if isinstance(err.messages, dict) else {"_schema": err.messages}
    return problem_response(400, "invalid-request", "the request has invalid or unknown fields", errors=messages)


def _edition() -> str:
    """The edition of the game a request is about, so that a refusal speaks its words (RULES.md 9); RULES.md's
    own for a request about no game (or when the game cannot be read: the refusal is sent anyway)."""
    from flask import has_request_context, request

    game_id = (request.view_args or {}).get("game_id") if has_request_context() else None
    if not game_id:
        return "mayfair"
    try:
        from app.http import runtime

        return runtime().repository.current(game_id).get("ruleset") or "mayfair"
    except Exception:  # noqa: BLE001  (a refusal must never become a 500)
        return "mayfair"


def _from_rules(err: engine.RulesError):
    from projections.words import speak

    edition = _edition()
    detail, title = speak(err.detail, edition), speak(err.rule_title, edition)
    if isinstance(err, engine.NotOwed):
        return problem_response(409, "not-owed", detail, rule=err.rule, rule_title=title)
    return problem_response(422, "rules-violation", detail, rule=err.rule, rule_title=title)


def _from_command(err: engine.CommandError):
    from projections.words import speak

    return problem_response(400, "bad-command", speak(err.detail, _edition()), field=err.field)


def _from_worker(err: WorkerError):
    """A whole-game operation the workers refused (a rewind, a fork, a message): 422 with the error's own type
    (and the ``rule`` it broke, when it names one)."""
    rule = getattr(err, "rule", None)
    return problem_response(422, err.slug if err.slug in TITLES else "invalid-request", err.detail,
                            **({"rule": rule} if rule else {}))


def _from_conflict(err: VersionConflict):
    detail = (f"the game is at version {err.current}, not {err.expected}" if err.expected is not None
              else "the game kept changing; try again")
    return problem_response(409, "version-conflict", detail, {"ETag": f'"{err.current}"'},
                            current_version=err.current)


def _from_damaged(err: GameDamaged):
    """A damaged game (its stream shorter or longer than its head record): refused, named, nothing written."""
    return problem_response(409, "game-damaged", f"this game's stored events are inconsistent ({err.detail}); "
                                                 "nothing was written; the service's admin can audit it")


def _internal(err: Exception):
    log.exception("unhandled error", exc_info=err)
    return problem_response(500, "internal-error", "something went wrong on our side; it has been logged")


def register(app: Flask) -> None:
    """Install the handlers that turn every error into a problem document."""
    app.register_error_handler(Problem, _from_problem)
    app.register_error_handler(HTTPException, _from_http)
    app.register_error_handler(ValidationError, _from_validation)
    app.register_error_handler(engine.RulesError, _from_rules)
    app.register_error_handler(engine.CommandError, _from_command)
    app.register_error_handler(VersionConflict, _from_conflict)
    app.register_error_handler(WorkerError, _from_worker)
    app.register_error_handler(GameDamaged, _from_damaged)
    app.register_error_handler(GameNotFound, lambda err: problem_response(404, "game-not-found", str(err)))
    app.register_error_handler(VersionNotFound, lambda err: problem_response(
        404, "version-not-found", str(err), current_version=err.current))
    app.register_error_handler(IdempotencyKeyReused, lambda err: problem_response(
        422, "idempotency-key-reused", str(err)))
    app.register_error_handler(redis.ConnectionError, _unavailable)
    app.register_error_handler(redis.TimeoutError, _unavailable)
    # a cluster mid-failover: a slot without a master, or no node reachable for a moment
    app.register_error_handler(ClusterError, _unavailable)
    app.register_error_handler(RedisClusterException, _unavailable)
    app.register_error_handler(EventTooLarge, lambda err: problem_response(
        413, "payload-too-large", "the command would record an event larger than the store accepts"))
    app.register_error_handler(Exception, _internal)


def _unavailable(err: Exception):
    log.error("storage error: %s", err)
    return problem_response(503, "service-unavailable", "the game store is not answering; try again shortly",
                            {"Retry-After": "1"})
