"""Players: one identity across games, held by a player key.

``POST /players`` registers a player (a name, no password, no e-mail) and answers its player key
once; like a seat's token (`app.auth.Tokens`) only the key's SHA-256 is kept. Keys in Redis:

- ``{prefix}:players:keys``: digest of a player key -> player id (``pl_<20 hex>``);
- ``{prefix}:player:<id>``: the player's record (``name``, ``created``);
- ``{prefix}:player:<id>:games``: a sorted set of the player's games, scored by when they were
  linked (milliseconds), and ``{prefix}:player:<id>:seats``: game id -> the colour the player holds
  there (``""`` for a game it created and has not taken a seat in yet);
- ``{prefix}:player:<id>:order``: a list of the same games in the order they were linked, only ever
  appended to, so a game's place in it never changes (the cursor of ``GET /me/stream`` is one
  number per place: `app.mystream`).

What the key does (`app.auth.viewer`): in a game where the player holds a seat, the player key acts
for that seat, exactly as the seat's own token does (which keeps working); in any other game it
reads as a spectator does, and joining that game with it (``POST /games/{id}/players``) links the
new seat to the player. A player holds at most one seat of a game (a second join with its key is a
409). Creating a game with the key links the game (host, no seat yet); the seat the player then
takes in it hosts, as the seat a host token takes does. The key acts for nothing else: not for
another player's seats, not as a host token of a game the player did not create.
"""

from __future__ import annotations

import secrets

from app.auth import digest

PLAYER_ID_PREFIX = "pl_"


def _text(value) -> str | None:
    if value is None:
        return None
    return value.decode("utf-8") if isinstance(value, bytes) else value


class Players:
    """The players of one store, their keys (as digests) and the games each is linked to."""

    def __init__(self, store, remember: int = 10000):
        self.redis = store.redis
        self.prefix = store.prefix
        self.remember = remember
        self._seen: dict[str, str] = {}  # key digest -> player id (an id never changes once issued)

    def keys_key(self) -> str:
        return f"{self.prefix}:players:keys"

    def record_key(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}"

    def games_key(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:games"

    def seats_key(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:seats"

    def order_key(self, player_id: str) -> str:
        return f"{self.prefix}:player:{player_id}:order"

    def register(self, name: str, at: int) -> tuple[str, str]:
        """A new player: (its id, its key). The key is shown once; only its digest is stored."""
        player_id = PLAYER_ID_PREFIX + secrets.token_hex(10)
        key = secrets.token_urlsafe(32)
        self.redis.hset(self.record_key(player_id), mapping={"name": name, "created": at})
        self.redis.hset(self.keys_key(), digest(key), player_id)
        return player_id, key

    def record(self, player_id: str) -> dict:
        """``{"id", "name", "created"}``."""
        raw = {_text(k): _text(v) for k, v in self.redis.hgetall(self.record_key(player_id)).items()}
        return {"id": player_id, "name": raw.get("name"), "created": int(raw.get("created") or 0)}

    def of_key(self, key: str | None) -> str | None:
        """The id of the player whose key this is, or None."""
        if not key:
            return None
        hashed = digest(key)
        known = self._seen.get(hashed)
        if known is not None:
            return known
        player_id = _text(self.redis.hget(self.keys_key(), hashed))
        if player_id is not None:
            if len(self._seen) >= self.remember:
                self._seen.clear()
            self._seen[hashed] = player_id
        return player_id

    def seat(self, player_id: str, game_id: str) -> str | None:
        """The colour the player holds in a game; "" for a game it created without a seat; None when unlinked."""
        return _text(self.redis.hget(self.seats_key(player_id), game_id))

    def link(self, player_id: str, game_id: str, color: str, at: int) -> None:
        """Link a game to the player (``color`` "" for a game it created and holds no seat in yet)."""
        self.redis.hset(self.seats_key(player_id), game_id, color)
        if self.redis.zadd(self.games_key(player_id), {game_id: at}, nx=True):
            self.redis.rpush(self.order_key(player_id), game_id)  # a new game: its place, for good

    def order(self, player_id: str) -> list[str]:
        """The player's games in the order they were linked (a game's place never changes)."""
        return [_text(g) for g in self.redis.lrange(self.order_key(player_id), 0, -1)]

    def games(self, player_id: str) -> list[tuple[str, int, str]]:
        """Every linked game, newest link first: (game id, when linked, colour or "")."""
        linked = self.redis.zrevrange(self.games_key(player_id), 0, -1, withscores=True)
        if not linked:
            return []
        ids = [_text(g) for g, _ in linked]
        colors = self.redis.hmget(self.seats_key(player_id), ids)
        return [(game_id, int(score), _text(color) or "") for (game_id, (_, score), color)
                in zip(ids, linked, colors, strict=True)]
