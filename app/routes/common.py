"""Helpers the route modules share: the caller, the clock (`workers.clock.now_ms`), the game id pattern
and new game ids (`workers.fork.new_game_id`)."""

from __future__ import annotations

from flask import current_app
from werkzeug.routing import BaseConverter

from app.auth import Tokens, bearer_token, viewer
from app.http import runtime
from app.problems import Problem
from projections.errors import GameNotFound
from workers.clock import now_ms  # noqa: F401 (every command's ``at``: the clock the timers compare with)
from workers.fork import new_game_id  # noqa: F401 (the one shape of game id, made by the API and by forks)
from workers.hosts import same

GAME_ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"


class GameIdConverter(BaseConverter):
    """``<gid:game_id>``: only ids the service could have made; anything else is a 404."""

    regex = GAME_ID_PATTERN


def players():
    """The players of this app's store (`app.players.Players`)."""
    return current_app.extensions["cosmic.players"]


def tokens() -> Tokens:
    """The token table of this app's store."""
    return current_app.extensions["cosmic.tokens"]


def caller(game_id: str | None) -> str | None:
    """Who is asking about ``game_id``: ``admin``, a colour, or None.

    The game's host token asks as a spectator (None): what it may do more is the routes' to say
    (`app.auth.hosts_game`). A token of another game, sent about a game that does not exist, is
    answered 404 (no such game), not 401: the game is what is missing. A token the service never
    issued is a 401 wherever it is sent (invalid credentials come first).
    """
    try:
        return viewer(tokens(), runtime().settings.admin_token, game_id, players())
    except Problem as problem:
        if problem.status == 401 and game_id is not None:
            token = bearer_token() or ""
            record = runtime().hosts.record(game_id)
            if record is not None and same(token, record["token"]):
                return None
            if not runtime().store.exists(game_id) and tokens().issued(token):
                raise GameNotFound(game_id) from None
        raise


def require_known_token() -> None:
    """401 before anything else unless the request carries a token this service issued (or the admin's):
    no resource is looked up for a caller whose credentials are not valid anywhere."""
    from app.auth import is_admin_token, require_token
    require_token()
    token = bearer_token()
    if (not is_admin_token(token, runtime().settings.admin_token) and not tokens().issued(token)
            and players().of_key(token) is None):
        raise Problem(401, "unauthorized", "this token is not one the service issued",
                      {"WWW-Authenticate": 'Bearer realm="cosmic", error="invalid_token"'})
