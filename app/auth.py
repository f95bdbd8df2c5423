"""Who is asking: the admin, a seated player (by bearer token), or nobody.

A player's token is made at join and returned once; only its SHA-256 is stored, in the
game's own hash ``{prefix}:{<game_id>}:tokens`` (field = hex digest, value = colour), so
a read of Redis cannot act for anyone, and in ``{prefix}:tokens:index`` (digest -> game id),
which tells a token of another game (a 404 on a game that does not exist) from a made-up
one (a 401 everywhere). The index is one key shared by every game (one master of a Redis
Cluster), so writing it is best effort: a join or a request of a game on a healthy master never
fails because the index's master is down, and a token missing from it joins it when next seen.
The admin token comes from ``COSMIC_ADMIN_TOKEN``.
A token is valid for its own game only; a token that is present but not valid is an
error (401), never a silent fall-back to anonymous.

A game's host token (`workers.hosts`: made by ``POST /games``, its digest in the game's host
record and in the index) reads a game as a spectator does; it seats bots and starts the game
(`hosts_game`), as does the seat the host took with it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import request

from app.problems import Problem
from events.redaction import ADMIN
from workers.outage import STORAGE_ERRORS

BEARER = "bearer "


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh, unguessable bearer token."""
    return secrets.token_urlsafe(24)


class Tokens:
    """The per-game token table, with the seats of tokens already seen remembered in process.

    A token's seat never changes once issued, so a remembered answer stays right; only
    found tokens are remembered (a wrong token is asked about every time).
    """

    def __init__(self, store, remember: int = 10000):
        self.store = store
        self.redis = store.redis
        self.remember = remember
        self._seen: dict[tuple[str, str], str] = {}

    def key(self, game_id: str) -> str:
        """The hash of token digests of one game."""
        return self.store.game_key(game_id, "tokens")

    def index_key(self) -> str:
        """The hash of every token digest the service issued, with its game (digest -> game id)."""
        return f"{self.store.prefix}:tokens:index"

    def issue(self, game_id: str, color: str) -> str:
        """Make a token for a seat and store its digest; returns the token (shown once)."""
        token = new_token()
        hashed = digest(token)
        self.redis.hset(self.key(game_id), hashed, color)
        self._index(hashed, game_id)
        return token

    def note(self, token: str, game_id: str) -> None:
        """Index a token kept outside the seat table (a host token), so it is known as one of ``game_id``'s."""
        self._index(digest(token), game_id)
    def _index(self, hashed: str, game_id: str) -> None:
        """Add a digest to the shared index if it is missing (best effort: see the module docstring)."""
        try:
            self.redis.hsetnx(self.index_key(), hashed, game_id)
        except STORAGE_ERRORS:
            pass  # (added when the token is next seen)

    def issued(self, token: str) -> bool:
        """Whether the service issued this token, for any game (a token of another game, not a made-up one)."""
        return bool(self.redis.hexists(self.index_key(), digest(token)))

    def seat_of(self, game_id: str, token: str) -> str | None:
        """The colour a token acts for in this game, or None."""
        hashed = digest(token)
        known = self._seen.get((game_id, hashed))
        if known is not None:
            return known
        color = self.redis.hget(self.key(game_id), hashed)
        if color is None:
            return None
        self._index(hashed, game_id)  # a token issued before the index existed (or while it was down) joins it
        color = color.decode("utf-8") if isinstance(color, bytes) else color
        if len(self._seen) >= self.remember:
            self._seen.clear()  # crude bound: it only saves a read
        self._seen[(game_id, hashed)] = color
        return color


def bearer_token() -> str | None:
    """The request's bearer token, None without an Authorization header; 401 when malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    if not header.lower().startswith(BEARER) or not header[len(BEARER):].strip():
        raise Problem(401, "unauthorized", "use 'Authorization: Bearer <token>'",
                      {"WWW-Authenticate": 'Bearer realm="cosmic"'})
    return header[len(BEARER):].strip()


def is_admin_token(token: str | None, admin_token: str | None) -> bool:
    """Whether ``token`` is the configured admin token (constant-time)."""
    if not token or not admin_token:
        return False
    return hmac.compare_digest(token.encode("utf-8"), admin_token.encode("utf-8"))


def viewer(tokens: Tokens, admin_token: str | None, game_id: str | None, players=None) -> str | None:
    """``ADMIN``, the caller's colour in ``game_id``, or None (anonymous); 401 for a token that fits neither.

    On a route that is not about one game (``game_id`` None) a seat's token means nothing and is
    ignored: a client that sends its token with every call can still list and create games.
    Routes that need more than that say so themselves (`require_admin_token`).

    A player key (`app.players`) acts for the player's seat of ``game_id``, as that seat's token
    does; in a game where the player holds no seat it reads as a spectator (None), so it may join.
    """
    token = bearer_token()
    if token is None:
        return None
    if is_admin_token(token, admin_token):
        return ADMIN
    if game_id is None:
        return None
    color = tokens.seat_of(game_id, token)
    if color is None and players is not None:
        player_id = players.of_key(token)
        if player_id is not None:
            return players.seat(player_id, game_id) or None
    if color is None:
        raise Problem(401, "unauthorized", "this token is not valid for this game",
                      {"WWW-Authenticate": 'Bearer realm="cosmic", error="invalid_token"'})
    return color


def require_player_or_admin(who: str | None) -> str:
    """401 for anonymous callers."""
    if who is None:
        raise Problem(401, "unauthorized", "this needs a player's token (from joining) or the admin token",
                      {"WWW-Authenticate": 'Bearer realm="cosmic"'})
    return who


def require_token() -> None:
    """401 before anything else when the request carries no token at all (authenticate first)."""
    if bearer_token() is None:
        raise Problem(401, "unauthorized", "this needs a player's token (from joining) or the admin token",
                      {"WWW-Authenticate": 'Bearer realm="cosmic"'})


def hosts_game(record: dict | None, who: str | None) -> bool:
    """Whether the caller hosts the game whose host record (`workers.hosts.Hosts.record`) is ``record``:
    the admin, the host token, or the seat the host took with it. False for a game with no record."""
    from workers.hosts import same
    if who == ADMIN:
        return True
    if record is None:
        return False
    if record["seat"] is not None and who == record["seat"]:
        return True
    token = bearer_token()
    return same(token, record["token"])


def require_admin_token(who: str | None) -> None:
    """The admin only: 401 without a token, 403 with any other token (a seat's)."""
    if who == ADMIN:
        return
    if bearer_token() is None:
        raise Problem(401, "unauthorized", "this needs the admin token", {"WWW-Authenticate": 'Bearer realm="cosmic"'})
    raise Problem(403, "forbidden", "this needs the admin token")
