"""Games: list, create, the board (now or at any version), join, start."""

from __future__ import annotations

import secrets

from flask import Blueprint

from app import schemas
from app.auth import require_player_or_admin
from app.http import (
    if_match_version,
    json_body,
    json_response,
    query,
    runtime,
    versioned,
)
from app.problems import Problem
from app.routes.common import caller, new_game_id, now_ms, tokens
from events.redaction import ADMIN
from projections import views
from projections.errors import VersionConflict

bp = Blueprint("games", __name__)
CREATE_ATTEMPTS = 5


@bp.get("/games")
def list_games():
    """The newest games, optionally of one status."""
    caller(None)
    args = query(schemas.LIST_QUERY)
    index, limit = runtime().index, args["limit"]
    if "offset" in args:  # the older way of paging (deprecated): positions, which shift as games are created
        games, total = index.list(args.get("status"), limit, args["offset"])
        more = args["offset"] + len(games) < total
        return json_response({"games": games, "total": total, "limit": limit, "offset": args["offset"],
                              "next_after": _games_cursor(games[-1]) if games else None, "more": more})
    after = None
    if "after" in args:
        score, game_id = schemas.GAMES_CURSOR.match(args["after"]).groups()
        after = (int(score), game_id)
    games, total, more = index.page(args.get("status"), limit, after)
    next_after = _games_cursor(games[-1]) if games else args.get("after")
    return json_response({"games": games, "total": total, "limit": limit, "next_after": next_after, "more": more})


def _games_cursor(summary: dict) -> str:
    """The cursor of the place after a game in the list (its creation time and id)."""
    return f"{int(summary.get('created') or 0)}.{summary['id']}"


@bp.post("/games")
def create_game():
    """Create a game; a seed or a stacked setup needs the admin token."""
    who = caller(None)
    body = schemas.CREATE_GAME.load(json_body())
    if ("seed" in body or "setup" in body) and who != ADMIN:
        raise Problem(403, "forbidden", "only the admin token may set the seed or a setup")
    command = {"action": "create", "ruleset": body["ruleset"], "options": body["options"], "seats": body["seats"],
               "seed": body.get("seed") or secrets.token_hex(16), "setup": body.get("setup") or {},
               "at": now_ms()}
    for _ in range(CREATE_ATTEMPTS):
        game_id = new_game_id()
        try:
            outcome = runtime().commands.run(game_id, command, expected_version=0)
        except VersionConflict:
            continue  # that id is taken: draw another
        state = outcome.state
        body = {"id": game_id, "version": state["v"], "status": state["status"], "ruleset": state["ruleset"],
                "options": state["options"], "seats": state["seats"],
                "links": _links(game_id)}
        return json_response(body, 201, {"Location": f"/games/{game_id}", "ETag": f'"{state["v"]}"'})
    raise Problem(409, "version-conflict", "could not find a free game id; try again", current_version=0)


@bp.get("/games/<gid:game_id>")
def board(game_id: str):
    """The public board, now or at ``?version=N``."""
    caller(game_id)
    args = query(schemas.VERSION_QUERY)
    repository = runtime().repository
    state = repository.state_at(game_id, args["version"]) if "version" in args else repository.require(game_id)
    return versioned(lambda: views.board(state), state["v"])


@bp.post("/games/<gid:game_id>/players")
def join(game_id: str):
    """Take a seat: returns the seat's colour and its bearer token (shown only here).

    Anyone may seat a bot (``"bot": "random" | "heuristic"``) while the game is in the lobby;
    a bot seat gets no token (``"token": null``): the workers play it, and nobody may read its
    hand or act for it except the admin.
    """
    caller(game_id)
    body = schemas.JOIN.load(json_body())
    state = runtime().repository.require(game_id)
    if state["status"] != "lobby":
        raise Problem(409, "game-started", f"the game is {state['status']}: seats are taken only in the lobby",
                      rule="3", current_version=state["v"])
    command = {"action": "join", "name": body["name"], "at": now_ms()}
    for name in ("color", "bot"):
        if body.get(name) is not None:
            command[name] = body[name]
    outcome = runtime().commands.run(game_id, command)
    color = next(e["payload"]["player"] for e in outcome.events if e["type"] == "PlayerJoined")
    token = None if body.get("bot") is not None else tokens().issue(game_id, color)
    result = {"game_id": game_id, "player": color, "color": color, "name": body["name"].strip(),
              "token": token, "version": outcome.version}
    return json_response(result, 201, {"ETag": f'"{outcome.version}"', "Cache-Control": "no-store"})


@bp.post("/games/<gid:game_id>/start")
def start(game_id: str):
    """Start play: the admin, or any seated player once every seat is taken."""
    require_player_or_admin(caller(game_id))
    schemas.EMPTY.load(json_body(required=False))
    expected = if_match_version()
    runtime().repository.require(game_id)
    outcome = runtime().commands.run(game_id, {"action": "start", "at": now_ms()}, expected_version=expected)
    state = outcome.state
    result = {"game_id": game_id, "version": state["v"], "status": state["status"], "order": list(state["order"]),
              "pending": views.pending(state)}
    return json_response(result, 200, {"ETag": f'"{state["v"]}"'})


def _links(game_id: str) -> dict:
    base = f"/games/{game_id}"
    return {"self": base, "players": f"{base}/players", "start": f"{base}/start", "actions": f"{base}/actions",
            "hand": f"{base}/hand", "prompts": f"{base}/prompts", "events": f"{base}/events",
            "stream": f"{base}/stream"}
