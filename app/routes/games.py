"""Games: list, create, the board (now or at any version), join, start.

Who may do what in a lobby (the host record: `workers.hosts`):

- Creating a game answers its host token (shown once). The host (its token, or the seat it
  took with it) and the admin seat bots and start the game; ``"private": true`` makes joining
  need the invitation code the creation answers (the host shares it), and keeps the game out
  of the games list for everyone but the admin.
- A game made before hosts existed has no record and keeps its rules: anyone seats bots, any
  seated player starts it once every seat is taken.
"""

from __future__ import annotations

import secrets

from flask import Blueprint

from app import schemas
from app.auth import bearer_token, hosts_game, new_token, require_player_or_admin
from app.http import (
    if_match_version,
    json_body,
    json_response,
    query,
    runtime,
    versioned,
)
from app.problems import Problem
from app.routes.common import caller, new_game_id, now_ms, players, tokens
from events.redaction import ADMIN
from projections import views
from projections.errors import VersionConflict
from workers.hosts import same

bp = Blueprint("games", __name__)
CREATE_ATTEMPTS = 5


@bp.get("/games")
def list_games():
    """The newest games, optionally of one status (private games for the admin only)."""
    private = caller(None) == ADMIN
    args = query(schemas.LIST_QUERY)
    index, limit = runtime().index, args["limit"]
    if "offset" in args:  # the older way of paging (deprecated): positions, which shift as games are created
        games, total = index.list(args.get("status"), limit, args["offset"], private=private)
        more = args["offset"] + len(games) < total
        return json_response({"games": games, "total": total, "limit": limit, "offset": args["offset"],
                              "next_after": _games_cursor(games[-1]) if games else None, "more": more})
    after = None
    if "after" in args:
        score, game_id = schemas.GAMES_CURSOR.match(args["after"]).groups()
        after = (int(score), game_id)
    games, total, more = index.page(args.get("status"), limit, after, private=private)
    next_after = _games_cursor(games[-1]) if games else args.get("after")
    return json_response({"games": games, "total": total, "limit": limit, "next_after": next_after, "more": more})


def _games_cursor(summary: dict) -> str:
    """The cursor of the place after a game in the list (its creation time and id)."""
    return f"{int(summary.get('created') or 0)}.{summary['id']}"


@bp.post("/games")
def create_game():
    """Create a game and answer its host token (once); a seed or a stacked setup needs the admin token."""
    who = caller(None)
    body = schemas.CREATE_GAME.load(json_body())
    if ("seed" in body or "setup" in body) and who != ADMIN:
        raise Problem(403, "forbidden", "only the admin token may set the seed or a setup")
    command = {"action": "create", "ruleset": body["ruleset"], "options": body["options"], "seats": body["seats"],
               "seed": body.get("seed") or secrets.token_hex(16), "setup": body.get("setup") or {},
               "at": now_ms()}
    rt = runtime()
    host_token = new_token()
    invitation = secrets.token_urlsafe(12) if body["private"] else None
    for _ in range(CREATE_ATTEMPTS):
        game_id = new_game_id()
        if not rt.hosts.claim(game_id, host_token, body["private"], invitation):
            continue  # that id is taken: draw another
        try:
            outcome = rt.commands.run(game_id, command, expected_version=0)
        except VersionConflict:
            rt.hosts.forget(game_id)
            continue
        except Exception:
            rt.hosts.forget(game_id)  # refused (bad options, a setup no deck supplies): no game, no host
            raise
        tokens().note(host_token, game_id)
        player_id = players().of_key(bearer_token())
        if player_id is not None:  # created with a player key: the game is the player's (no seat yet)
            players().link(player_id, game_id, "", now_ms())
        state = outcome.state
        body = {"id": game_id, "version": state["v"], "status": state["status"], "ruleset": state["ruleset"],
                "options": state["options"], "seats": state["seats"], "private": body["private"],
                "host_token": host_token, "invitation": invitation, "links": _links(game_id, invitation)}
        return json_response(body, 201, {"Location": f"/games/{game_id}", "ETag": f'"{state["v"]}"',
                                         "Cache-Control": "no-store"})
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

    The host (or the admin) seats bots (``"bot": <a level of engine.levels>``) while the game is in
    the lobby; a bot seat gets no token (``"token": null``): the workers play it, and nobody may
    read its hand or act for it except the admin. A private game's seats need its invitation
    (or the host token). The first person seat taken with the host token hosts too.

    Joined with a player key (`app.players`), the seat is linked to the player, whose key then acts
    for it; a player holds one seat of a game (409 ``already-seated``). In a game the player created
    with its key, the seat it takes hosts.
    """
    who = caller(game_id)
    body = schemas.JOIN.load(json_body())
    rt = runtime()
    state = rt.repository.require(game_id)
    if state["status"] != "lobby":
        raise Problem(409, "game-started", f"the game is {state['status']}: seats are taken only in the lobby",
                      rule="3", current_version=state["v"])
    record = rt.hosts.record(game_id)
    host = hosts_game(record, who)
    if record is not None and body.get("bot") is not None and not host:
        raise Problem(403, "forbidden", "only the game's host (its host token, or the seat the host took with it) "
                                        "or the admin seats bots")
    if record is not None and record["private"] and not host and not same(body.get("invitation"),
                                                                             record["invitation"]):
        raise Problem(403, "forbidden", "this game is private: taking a seat needs the invitation its host shares "
                                        "(`invitation`)", errors={"invitation": ["Missing or not this game's."]})
    player_id = players().of_key(bearer_token()) if body.get("bot") is None else None
    linked = players().seat(player_id, game_id) if player_id is not None else None
    if linked:
        raise Problem(409, "already-seated", f"this player key already holds the {linked} seat of this game; "
                                             "a player holds one seat of a game", current_version=state["v"])
    command = {"action": "join", "name": body["name"], "at": now_ms()}
    for name in ("color", "bot"):
        if body.get(name) is not None:
            command[name] = body[name]
    outcome = rt.commands.run(game_id, command)
    color = next(e["payload"]["player"] for e in outcome.events if e["type"] == "PlayerJoined")
    token = None if body.get("bot") is not None else tokens().issue(game_id, color)
    if token is not None and record is not None and who is None and same(bearer_token(), record["token"]):
        rt.hosts.take_seat(game_id, color)  # the host plays: its seat's token hosts too
    if token is not None and player_id is not None:
        players().link(player_id, game_id, color, now_ms())  # the player key acts for this seat from now on
        if linked == "" and record is not None:
            rt.hosts.take_seat(game_id, color)  # the player created the game: its seat hosts
    result = {"game_id": game_id, "player": color, "color": color, "name": body["name"].strip(),
              "token": token, "version": outcome.version}
    return json_response(result, 201, {"ETag": f'"{outcome.version}"', "Cache-Control": "no-store"})


@bp.post("/games/<gid:game_id>/start")
def start(game_id: str):
    """Start play once every seat is taken: the host or the admin (a game made before hosts: any seated player)."""
    who = caller(game_id)
    record = runtime().hosts.record(game_id)
    if record is None:
        require_player_or_admin(who)
    elif not hosts_game(record, who):
        if bearer_token() is None:
            raise Problem(401, "unauthorized", "starting this game needs its host token (or the admin token)",
                          {"WWW-Authenticate": 'Bearer realm="cosmic"'})
        raise Problem(403, "forbidden", "only the game's host (its host token, or the seat the host took with it) "
                                        "or the admin starts it")
    schemas.EMPTY.load(json_body(required=False))
    expected = if_match_version()
    runtime().repository.require(game_id)
    outcome = runtime().commands.run(game_id, {"action": "start", "at": now_ms()}, expected_version=expected)
    state = outcome.state
    result = {"game_id": game_id, "version": state["v"], "status": state["status"], "order": list(state["order"]),
              "pending": views.pending(state)}
    return json_response(result, 200, {"ETag": f'"{state["v"]}"'})


def _links(game_id: str, invitation: str | None = None) -> dict:
    base = f"/games/{game_id}"
    links = {"self": base, "players": f"{base}/players", "start": f"{base}/start", "actions": f"{base}/actions",
             "hand": f"{base}/hand", "prompts": f"{base}/prompts", "events": f"{base}/events",
             "stream": f"{base}/stream"}
    if invitation is not None:  # the web table's form of the invitation, for the host to share
        links["invite"] = f"/table/#join={game_id}&invitation={invitation}"
    return links
