"""A player across games: registering (``POST /players``), who am I (``GET /me``), my games (``GET /me/games``),
one live feed of them all (``GET /me/stream``: `app.mystream`).

What a player key may do is told in `app.players`. ``/me`` routes take only a player key: a seat's
token, a host token or the admin's is not a player (401).

``GET /me/games`` tells, per game, what the public board tells anyone (status, turn, version, who
owes which decision until when: `projections.views.pending`) read for the player's own seat; it
shows nothing of any hand, the player's own included (that is ``GET /games/{id}/hand``). It reads
each game's standing (`projections.standing`: a few hundred bytes kept after every append), not
the game's state, so its cost does not grow with the games' lengths.
"""

from __future__ import annotations

from flask import Blueprint, request

from app import schemas
from app.auth import bearer_token
from app.http import json_body, json_response, query, runtime
from app.problems import Problem
from app.routes.common import now_ms, players
from app.routes.feed import hub, leased_feed

bp = Blueprint("me", __name__)
READ_AT_ONCE = 50  # standings read per round trip while filling a page of GET /me/games


@bp.post("/players")
def register_player():
    """Register a player: its id and its player key (shown once; only the key's digest is kept)."""
    body = schemas.REGISTER_PLAYER.load(json_body())
    name = body["name"].strip()
    if not name:
        raise Problem(400, "invalid-request", "the name must not be blank", errors={"name": ["Blank."]})
    player_id, key = players().register(name, now_ms())
    answer = {**players().record(player_id), "key": key, "links": {"me": "/me", "games": "/me/games"}}
    return json_response(answer, 201, {"Location": "/me", "Cache-Control": "no-store"})


def current_player() -> str:
    """The id of the player whose key the request carries; 401 otherwise."""
    player_id = players().of_key(bearer_token())
    if player_id is None:
        raise Problem(401, "unauthorized", "this needs a player key (from POST /players)",
                      {"WWW-Authenticate": 'Bearer realm="cosmic", error="invalid_token"'})
    return player_id


@bp.get("/me")
def me():
    """The player the key belongs to."""
    return json_response(players().record(current_player()), headers={"Cache-Control": "private, no-cache",
                                                                        "Vary": "Authorization"})


@bp.get("/me/games")
def my_games():
    """The player's games, newest link first, each with whether it owes a decision now and until when."""
    player_id = current_player()
    args = query(schemas.MY_GAMES_QUERY)
    after = None
    if "after" in args:
        score, game_id = schemas.GAMES_CURSOR.match(args["after"]).groups()
        after = (int(score), game_id)
    limit, wanted = args["limit"], args["filter"]
    linked = [(game_id, at, color) for game_id, at, color in players().games(player_id)
              if after is None or (at, game_id) < after]  # past the cursor (newest first, ties by id descending)
    standings = runtime().standings
    page, more = [], False
    for start in range(0, len(linked), READ_AT_ONCE):
        chunk = linked[start:start + READ_AT_ONCE]
        read = standings.read([game_id for game_id, _, _ in chunk])
        for game_id, at, color in chunk:
            if read[game_id] is None:
                continue  # (a game linked as its creation was refused)
            entry = _entry(read[game_id], game_id, at, color)
            if not _shown(entry, wanted):
                continue
            if len(page) == limit:
                more = True
                break
            page.append(entry)
        if more:
            break
    next_after = f"{page[-1]['linked']}.{page[-1]['game_id']}" if page else args.get("after")
    return json_response({"player": player_id, "filter": wanted, "games": page, "limit": limit,
                          "next_after": next_after, "more": more},
                         headers={"Cache-Control": "private, no-cache", "Vary": "Authorization"})


def _shown(entry: dict, wanted: str) -> bool:
    if wanted == "all":
        return True
    if wanted == "owing":
        return entry["owes"]
    return entry["status"] == wanted


def _entry(standing: dict, game_id: str, linked: int, color: str) -> dict:
    """One game as its player sees it in the list: the game's standing (public facts), read for the player's seat.
    A seat the player handed to a bot owes the player nothing: the bot answers its decisions."""
    played_by_bot = color in standing.get("bots", ())
    mine = [p for p in standing["pending"] if color and p["player"] == color and not played_by_bot]
    deadlines = [p["deadline"] for p in mine if p.get("deadline") is not None]
    return {"game_id": game_id, "color": color or None, "status": standing["status"], "ruleset": standing["ruleset"],
            "version": standing["version"], "turn": standing["turn"], "offense": standing["offense"],
            "owes": bool(mine), "decisions": [{"kind": p["kind"], "title": p["title"], "deadline": p.get("deadline")}
                                              for p in mine],
            "deadline": min(deadlines) if deadlines else None, "winners": standing["winners"],
            "linked": linked, "links": {"self": f"/games/{game_id}", "prompts": f"/games/{game_id}/prompts",
                                        "stream": f"/games/{game_id}/stream"}}


@bp.get("/me/stream")
def my_stream():
    """One live feed of every game of the player: their events as its seats see them, ``your-move`` and
    ``no-longer-yours`` (`app.mystream`); resumable with ``Last-Event-ID``; capped as the game feeds are."""
    from app.mystream import MyFeed, messages, parse_cursor

    player_id = current_player()
    args = query(schemas.MY_STREAM_QUERY)
    rt = runtime()
    cursor = parse_cursor(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    if cursor is None:
        cursor = parse_cursor(args.get("after"), "after")
    limit = min(args.get("timeout", rt.settings.sse_max_seconds), rt.settings.sse_max_seconds)
    return leased_feed(player_id, limit, lambda: messages(hub(), rt, MyFeed(rt, players(), player_id, cursor), limit))
