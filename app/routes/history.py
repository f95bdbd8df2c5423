"""A game's history: rewind, fork (and claiming a fork's seats), export, and the admin's audit.

Who may do what:

- Rewind (``POST /games/{id}/rewind``): the admin at once; a seated player records a
  request, and the rewind happens when every seated player who is not a bot has asked for
  the same version (workers/rewind.py keeps the requests outside the event stream).
- Fork (``POST /games/{id}/fork``): the admin, any game at any version, getting a token for
  every seat of the fork; a seated player, only a finished game (forking a game in play
  would replay its hidden draws), getting a token for its own seat. Every other seat of a
  player's fork is handed out once, to whoever holds that seat's token in the original game
  (``POST /games/{fork}/claim``), so nobody gets to read another player's hand. A fork has no
  host (`workers.hosts`): forked before its start, only the admin seats its bots and starts it;
  a fork of a private game is private too. Forks are rate-limited (app/limits.py).
- Export (``GET /games/{id}/export``): the admin gets the stream as stored (every private
  field, the hashes: importable with ``cosmic import``); anyone else only a finished game's
  log as the log shows it to them (redacted, no hashes, engine bookkeeping left out), which
  cannot be imported.
- Audit (``/admin/games/{id}/audit``): the admin only; GET runs it now, POST queues it.
"""

from __future__ import annotations

import json
import logging
import re

from flask import Blueprint, Response, stream_with_context

from app import schemas
from app.auth import bearer_token, is_admin_token, require_admin_token, require_player_or_admin
from app.http import expected_version, json_body, json_response, runtime
from app.problems import Problem, problem_response
from app.routes.common import caller, new_game_id, tokens
from events.envelope import ChainBreak
from events.redaction import ADMIN
from projections.errors import GameNotFound, VersionConflict, VersionNotFound
from projections.log import log_view
from projections.sentences import Table
from workers import jobs
from workers.audit import audit_game
from workers.fork import Origins, fork, hand_out
from workers.queues import fetch_job, is_ours, status_of
from workers.rewind import CONSENT_TTL, Consents, consent_status, request_consent, rewind, voters
from workers.transfer import export_lines

bp = Blueprint("history", __name__)
log = logging.getLogger(__name__)
JOB_ID = re.compile(r"^[A-Za-z0-9_-]{1,200}$")
EXPORT_BATCH = 500
FORK_ID_ATTEMPTS = 5


# --- rewind ---------------------------------------------------------------------------------------

@bp.post("/games/<gid:game_id>/rewind")
def rewind_game(game_id: str):
    """Rewind now (admin) or ask to (a seated player: 202 until every seated player asked the same)."""
    who = require_player_or_admin(caller(game_id))
    body = schemas.REWIND.load(json_body())
    expected = expected_version(body)
    rt = runtime()
    if who == ADMIN:
        result = rewind(rt, game_id, body["to_version"], by="admin", expected_version=expected)
        return json_response(result, 200, {"ETag": f'"{result["version"]}"', "Cache-Control": "no-store"})
    state = rt.repository.require(game_id)
    if expected is not None and state["v"] != expected:
        raise VersionConflict(state["v"], expected)
    if who not in voters(state):
        raise Problem(403, "forbidden", "only seated players who are not bots consent to a rewind")
    result = request_consent(rt, game_id, who, body["to_version"])
    status = 202 if result["status"] == "pending" else 200
    return json_response(result, status, {"ETag": f'"{result["version"]}"', "Cache-Control": "no-store"})


@bp.get("/games/<gid:game_id>/rewind")
def rewind_requests(game_id: str):
    """The pending rewind requests: who asked for which version, whose consent is needed."""
    caller(game_id)
    rt = runtime()
    state = rt.repository.require(game_id)
    status = consent_status(state, Consents(rt.store).pending(game_id))
    return json_response({"game_id": game_id, "version": state["v"], "expires_after_seconds": CONSENT_TTL,
                          **status}, 200, {"ETag": f'"{state["v"]}"', "Cache-Control": "no-cache"})


# --- fork ---------------------------------------------------------------------------------------

@bp.post("/games/<gid:game_id>/fork")
def fork_game(game_id: str):
    """A new game from this one's first N events; returns the new seats' tokens (once)."""
    who = require_player_or_admin(caller(game_id))
    body = schemas.FORK.load(json_body(required=False))
    rt = runtime()
    state = rt.repository.require(game_id)
    if who != ADMIN and state["status"] != "finished":
        raise Problem(403, "forbidden", "a player may fork a finished game only (a fork of a game in play would "
                      "show its hidden draws); the admin may fork any game")
    fork_id = _claim_fork_id(rt, game_id)
    try:
        made = fork(rt, game_id, body.get("version"), new_id=fork_id)
    except VersionNotFound as missing:  # the game exists: a version it does not have cannot be forked from
        rt.hosts.forget(fork_id)
        raise Problem(422, "fork-refused", f"the game has versions 1 to {missing.current}, not {missing.version}",
                      current_version=missing.current) from None
    except Exception:
        rt.hosts.forget(fork_id)
        raise
    seats = voters(rt.repository.require(fork_id))  # the seats of people: bots get no token
    issued = hand_out(rt.store, tokens(), fork_id, seats if who == ADMIN else [c for c in seats if c == who])
    result = {**made, "tokens": issued, "claimable": [c for c in seats if c not in issued] if who != ADMIN else [],
              "links": {"self": f"/games/{fork_id}", "claim": f"/games/{fork_id}/claim",
                        "events": f"/games/{fork_id}/events"}}
    return json_response(result, 201, {"Location": f"/games/{fork_id}", "ETag": f'"{made["version"]}"',
                                       "Cache-Control": "no-store"})


def _claim_fork_id(rt, game_id: str) -> str:
    """A free id for a fork, its host record (no host; private as the original) claimed before the copy."""
    record = rt.hosts.record(game_id)
    private = bool(record and record["private"])
    for _ in range(FORK_ID_ATTEMPTS):
        fork_id = new_game_id()
        if rt.hosts.claim(fork_id, None, private):
            return fork_id
    raise Problem(409, "version-conflict", "could not find a free game id for the fork; try again",
                  current_version=rt.store.version(game_id))


@bp.post("/games/<gid:game_id>/claim")
def claim_seat(game_id: str):
    """Take one's seat in a fork, authenticated by one's token for the same seat in the original game."""
    token = bearer_token()
    if token is None:
        raise Problem(401, "unauthorized", "send your token of the game this one was forked from",
                      {"WWW-Authenticate": 'Bearer realm="cosmic"'})
    schemas.EMPTY.load(json_body(required=False))
    rt = runtime()
    state = rt.repository.require(game_id)
    origin = Origins(rt.store).of(game_id)
    if origin is None:
        raise Problem(409, "not-a-fork", "this game is not a fork: its seats are taken by joining")
    if is_admin_token(token, rt.settings.admin_token):
        raise Problem(403, "forbidden", "the admin acts for every seat already; seats are claimed by players")
    color = tokens().seat_of(origin["game"], token)
    if color is None:
        raise Problem(401, "unauthorized", "this token is not valid for the game this one was forked from",
                      {"WWW-Authenticate": 'Bearer realm="cosmic", error="invalid_token"'})
    seat = (state.get("players") or {}).get(color)
    if seat is None or seat.get("bot"):
        raise Problem(403, "forbidden", f"{color} has no seat to claim in this fork")
    issued = hand_out(rt.store, tokens(), game_id, [color]).get(color)
    if issued is None:
        raise Problem(409, "seat-claimed", f"the {color} seat of this fork was already handed out")
    return json_response({"game_id": game_id, "player": color, "token": issued, "version": state["v"]}, 201,
                         {"Cache-Control": "no-store"})


# --- export -------------------------------------------------------------------------------------

@bp.get("/games/<gid:game_id>/export")
def export_game(game_id: str):
    """The game as JSON lines: the stored stream (admin) or a finished game's log as the caller may see it."""
    who = caller(game_id)
    rt = runtime()
    state = rt.repository.require(game_id)
    headers = {"ETag": f'"{state["v"]}"', "Cache-Control": "private, no-store", "Vary": "Authorization",
               "Content-Disposition": f'attachment; filename="{game_id}.jsonl"'}
    if who == ADMIN:
        try:
            lines = list(export_lines(rt.store, game_id, rt.sealer, rt.provenance.unsealed_until(game_id)))
        except ChainBreak as err:
            log.error("export of game %s refused: %s", game_id, err)
            return problem_response(500, "internal-error", f"the stored stream is damaged at event {err.seq}; "
                                    "audit the game (GET /admin/games/{id}/audit)")
        return Response(lines, mimetype="application/x-ndjson", headers={**headers, "X-Cosmic-Export": "full"})
    if state["status"] != "finished":
        raise Problem(403, "forbidden", "only the admin exports a game in play; players read /games/{id}/events")
    body = stream_with_context(_redacted_lines(rt.store, game_id, who, Table.of(state)))
    return Response(body, mimetype="application/x-ndjson", headers={**headers, "X-Cosmic-Export": "redacted"})


def _redacted_lines(store, game_id: str, who: str | None, table: Table):
    after = 0
    while True:
        page = store.read(game_id, after=after, count=EXPORT_BATCH)
        for event in log_view(page, who, table=table):
            yield json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
        if len(page) < EXPORT_BATCH:
            return
        after = page[-1]["seq"]


# --- audit (admin) ------------------------------------------------------------------------------

def _require_admin(game_id: str | None) -> None:
    require_admin_token(caller(game_id))


@bp.get("/admin/games/<gid:game_id>/audit")
def audit_now(game_id: str):
    """Audit the game now: the report names the first broken or inconsistent event, if any."""
    _require_admin(game_id)
    rt = runtime()
    if not rt.store.exists(game_id):
        raise GameNotFound(game_id)
    report = audit_game(rt.store, rt.repository, game_id)
    return json_response(report.as_dict(), 200, {"Cache-Control": "no-store"})


@bp.post("/admin/games/<gid:game_id>/audit")
def audit_later(game_id: str):
    """Queue the audit on the ``low`` queue; its report is the job's result (GET /admin/jobs/{job_id})."""
    _require_admin(game_id)
    schemas.EMPTY.load(json_body(required=False))
    rt = runtime()
    if not rt.store.exists(game_id):
        raise GameNotFound(game_id)
    job = rt.enqueue(jobs.audit_game, game_id, queue="low")
    return json_response({"job_id": job.id, "queue": "low", "links": {"job": f"/admin/jobs/{job.id}"}}, 202,
                         {"Location": f"/admin/jobs/{job.id}", "Cache-Control": "no-store"})


@bp.get("/admin/jobs/<job_id>")
def job_status(job_id: str):
    """A queued job's status and, once finished, its result."""
    _require_admin(None)
    rt = runtime()
    if not JOB_ID.match(job_id) or not is_ours(rt.settings.prefix, job_id):
        raise Problem(404, "not-found", "no such job of this service")
    job = fetch_job(rt.rq_redis, job_id)
    if job is None:
        raise Problem(404, "not-found", "no such job (finished jobs are kept for a while only)")
    status = status_of(job, refresh=False)
    result = job.return_value() if status == "finished" else None
    return json_response({"job_id": job.id, "status": status, "function": job.func_name.rsplit(".", 1)[-1],
                          "result": result}, 200, {"Cache-Control": "no-store"})
