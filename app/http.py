"""Request and response plumbing shared by the routes: JSON bodies, query strings, versions, ETags."""

from __future__ import annotations

import json
import re

from flask import Response, current_app, request
from flask import json as flask_json

from app.problems import Problem
from app.schemas import MAX_VERSION

# a version as an ETag: "12", or "12:gzip" / "12:br" as a compressed answer names it (app/compact.py);
# 16 digits at most, as openapi.yaml's pattern
ETAG_RE = re.compile(r'^\s*(?:W/)?"?(\d{1,16})(?::(?:br|gzip|deflate|zstd))?"?\s*$')


def runtime():
    """The runtime the app was built with."""
    return current_app.extensions["cosmic"]


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def json_body(required: bool = True) -> dict:
    """The request's JSON object; {} for an empty body when not ``required``; problems otherwise."""
    raw = request.get_data(cache=True)
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and request.content_length is None and len(raw) >= limit:
        # a chunked body is cut at the limit without a word from werkzeug: it was (at least) too large
        raise Problem(413, "payload-too-large", f"the request body is larger than the service accepts ({limit} bytes)")
    if not raw.strip():
        if required:
            raise Problem(400, "bad-request", "this request needs a JSON object body")
        return {}
    mimetype = request.mimetype or ""
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise Problem(415, "unsupported-media-type", "send the body as application/json")
    try:
        body = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as err:
        raise Problem(400, "bad-request", f"the body is not valid JSON: {str(err)[:200]}") from None
    if not isinstance(body, dict):
        raise Problem(400, "bad-request", "the body must be a JSON object")
    where = _lone_surrogate(body)
    if where is not None:
        raise Problem(400, "bad-request", f"the body's text at {where or 'its top'} is not valid Unicode "
                                          "(a lone surrogate escape such as \\ud800)")
    return body


def _lone_surrogate(value, path: str = "") -> str | None:
    """The path of the first string (or key) holding a lone UTF-16 surrogate, which UTF-8 cannot carry."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return path
        return None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        here = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and _lone_surrogate(key) is not None:
            return here
        found = _lone_surrogate(item, here)
        if found is not None:
            return found
    return None


def query(schema) -> dict:
    """The query string loaded with a schema (a ValidationError becomes a 400 problem)."""
    return schema.load(request.args.to_dict(flat=True))


def parse_version_header(value: str | None, name: str) -> int | None:
    """A version from an ``If-Match``-style header (``"12"``, ``12``); None when absent."""
    if value is None:
        return None
    match = ETAG_RE.match(value)
    if not match or int(match.group(1)) > MAX_VERSION:
        raise Problem(400, "invalid-request", f"{name} must hold one version, like \"12\" (at most {MAX_VERSION})",
                      errors={name: ["Not a version."]})
    return int(match.group(1))


def if_match_version() -> int | None:
    """The version ``If-Match`` pins; None when absent or ``*`` (RFC 9110: any current version of an
    existing game matches, and the route answers 404 for a game that does not exist)."""
    raw = request.headers.get("If-Match")
    if raw is not None and raw.strip() == "*":
        return None
    return parse_version_header(raw, "If-Match")


def expected_version(body: dict) -> int | None:
    """The version a write pins: ``If-Match`` or the body's ``expected_version`` (409 when they name two)."""
    header = if_match_version()
    in_body = body.get("expected_version")
    if header is not None and in_body is not None and header != in_body:
        # two pins, two versions: the game cannot be at both, so the write conflicts (409), as with one stale pin
        from projections.errors import GameNotFound
        game_id = (request.view_args or {}).get("game_id")
        current = runtime().store.version(game_id)
        if current == 0:
            raise GameNotFound(game_id)
        raise Problem(409, "version-conflict", f"If-Match pins version {header} and expected_version {in_body}; "
                      f"the game is at version {current}", current_version=current)
    return header if header is not None else in_body


def not_modified(version: int) -> bool:
    """Whether the request's ``If-None-Match`` already names this version."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    for part in header.split(","):
        part = part.strip()
        if part == "*":
            return True
        match = ETAG_RE.match(part)
        if match and int(match.group(1)) == version:
            return True
    return False


def versioned(body, version: int, status: int = 200, private: bool = False) -> Response:
    """A JSON response with ``ETag`` = version, or 304 when the client has that version already.

    ``body`` may be a callable, so a 304 does not pay for building the view.
    """
    etag = f'"{version}"'
    if status == 200 and not_modified(version):
        response = Response(status=304)
    else:
        response = json_response(body() if callable(body) else body, status)
    response.headers["ETag"] = etag
    response.names_a_version = True  # kept as it is when compressed (app.compact)
    response.headers["Cache-Control"] = "private, no-cache" if private else "no-cache"
    response.headers["Vary"] = "Authorization"
    return response


def json_response(body, status: int = 200, headers: dict | None = None) -> Response:
    """A JSON response."""
    response = Response(flask_json.dumps(body), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response
