"""The host of a game: who may seat bots and start it, and whether its lobby is private.

``POST /games`` makes a host token (shown once) and keeps, in the game's own hash
``{prefix}:{<game_id>}:host`` (hash-tagged like the stream, so a cluster keeps it on the
game's slot):

- ``token``: the SHA-256 of the host token (never the token; absent for a fork, which has no host);
- ``private``: ``1`` when joining needs the invitation, ``0`` otherwise;
- ``invitation``: the SHA-256 of the invitation code of a private game;
- ``seat``: the colour of the first person seat the host took with its host token (that seat's
  token then hosts too, so a host who plays needs one token only).

A game without this hash was made before hosts existed (or imported): it keeps the rules it was
made under (anyone seats bots; any seated player starts once the seats are full). The record is
claimed before the game is created (`claim`: only while neither the game nor a record exists, in
one script on the game's slot), so no request can host a game it did not create, and the games
list already knows a private game when its first event lands.
"""

from __future__ import annotations

import hashlib
import hmac

# KEYS: the game's head record, its host hash. ARGV: field, value, ... Returns 1 when claimed.
CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], unpack(ARGV))
return 1
"""


def digest(secret: str) -> str:
    """The stored form of a host token or an invitation (SHA-256, hex)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class Hosts:
    """The host records of one store's games."""

    def __init__(self, store):
        self.store = store
        self.redis = store.redis
        self._claim = self.redis.register_script(CLAIM)

    def key(self, game_id: str) -> str:
        """The hash of a game's host record."""
        return self.store.game_key(game_id, "host")

    def claim(self, game_id: str, token: str | None, private: bool, invitation: str | None = None) -> bool:
        """Record the host of a game about to be created (False when the id is taken: draw another).

        ``token`` None records a game with no host (a fork): only the admin seats bots and starts it.
        """
        fields = {"private": "1" if private else "0"}
        if token is not None:
            fields["token"] = digest(token)
        if invitation is not None:
            fields["invitation"] = digest(invitation)
        argv = [part for pair in fields.items() for part in pair]
        return bool(self._claim(keys=[self.store.head_key(game_id), self.key(game_id)], args=argv))

    def forget(self, game_id: str) -> None:
        """Drop a claimed record whose game was not created after all (its create was refused)."""
        self.redis.delete(self.key(game_id))

    def record(self, game_id: str) -> dict | None:
        """``{"token", "private", "invitation", "seat"}`` (digests; None where absent), or None for a game
        that has no host record (made before hosts existed)."""
        raw = {_text(k): _text(v) for k, v in self.redis.hgetall(self.key(game_id)).items()}
        if not raw:
            return None
        return {"token": raw.get("token"), "private": raw.get("private") == "1",
                "invitation": raw.get("invitation"), "seat": raw.get("seat")}

    def is_private(self, game_id: str) -> bool:
        """Whether the game's lobby is private (the games list leaves it out for everyone but the admin)."""
        return _text(self.redis.hget(self.key(game_id), "private") or b"") == "1"

    def take_seat(self, game_id: str, color: str) -> None:
        """Note the host's own seat (the first person seat taken with the host token)."""
        self.redis.hsetnx(self.key(game_id), "seat", color)


def same(secret: str | None, stored: str | None) -> bool:
    """Whether ``secret`` is the one whose digest is ``stored`` (constant time; False when either is missing)."""
    if not secret or not stored:
        return False
    return hmac.compare_digest(digest(secret), stored)


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
