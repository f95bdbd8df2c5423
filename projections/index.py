"""The list of games by status: a small projection kept next to the streams.

Keys: ``{prefix}:games:<status>`` sorted sets (score = creation time in ms, member = game
id) for ``lobby``, ``playing`` and ``finished``, and ``{prefix}:{<game_id>}:meta`` (the
game's public summary as JSON, see `projections.views.summary`). Updated when a game's
status or seating changes; `rebuild` recreates it from the streams.

Private games (created with ``"private": true``, see `workers.hosts`) are kept apart, in
``{prefix}:games:private:<status>``: a list for everyone leaves them out, the admin's
takes them too (`page` with ``private=True``), and their summaries say ``"private": true``.
The index asks the callable it was given (``private``) whether a game is private.
"""

from __future__ import annotations

import json
import logging

from events.exceptions import GameDamaged
from projections import views

log = logging.getLogger(__name__)

STATUSES = ("lobby", "playing", "finished")


class GameIndex:
    """Which games exist, by status, with their public summaries."""

    def __init__(self, store, private=None):
        self.store = store
        self.redis = store.redis
        self.prefix = store.prefix
        self.private = private or (lambda game_id: False)

    def status_key(self, status: str, private: bool = False) -> str:
        """The sorted set of the (public or private) games in one status."""
        return f"{self.prefix}:games:private:{status}" if private else f"{self.prefix}:games:{status}"

    def _keys(self, status: str | None, private: bool) -> list[str]:
        """The sorted sets a list reads: one status or all, the private games too when asked."""
        statuses = [status] if status else list(STATUSES)
        return [self.status_key(name, hidden) for name in statuses for hidden in ((False, True) if private else (False,))]

    def meta_key(self, game_id: str) -> str:
        """The key of a game's public summary."""
        return self.store.game_key(game_id, "meta")

    def update(self, game_id: str, state: dict) -> None:
        """Record a game's current summary and status."""
        entry = views.summary(state)
        entry["id"] = game_id
        private = self.private(game_id)
        if private:
            entry["private"] = True
        status = entry["status"]
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self.meta_key(game_id), json.dumps(entry, separators=(",", ":")))
        for other in STATUSES:
            for hidden in (False, True):
                if (other, hidden) != (status, private):
                    pipe.zrem(self.status_key(other, hidden), game_id)
        if status in STATUSES:
            pipe.zadd(self.status_key(status, private), {game_id: entry.get("created") or 0})
        pipe.execute()

    def changed(self, before: dict, after: dict) -> bool:
        """Whether a state change alters the game's summary (status or seats)."""
        return (before.get("status"), len(before.get("order") or [])) != \
            (after.get("status"), len(after.get("order") or []))

    def list(self, status: str | None = None, limit: int = 50, offset: int = 0,
             private: bool = False) -> tuple[list[dict], int]:
        """Summaries of the newest games (of one status, or all) from a position, and how many there are in all
        (``GET /games?offset=``, kept for old clients; `page` is the cursor every list uses)."""
        pipe = self.redis.pipeline(transaction=False)
        for key in self._keys(status, private):
            pipe.zrevrange(key, 0, offset + limit - 1, withscores=True)
            pipe.zcard(key)
        replies = pipe.execute()
        ranked, total = [], 0
        for members, count in zip(replies[0::2], replies[1::2], strict=True):
            ranked += [(score, _text(member)) for member, score in members]
            total += count
        ranked.sort(key=lambda item: (-item[0], item[1]))
        return self._summaries([game_id for _, game_id in ranked[offset:offset + limit]]), total

    def page(self, status: str | None = None, limit: int = 50, after: tuple[int, str] | None = None,
             private: bool = False) -> tuple[list[dict], int, bool]:
        """A page of the newest games (of one status, or all) after a cursor (creation time, id).

        Games are ordered newest first, and by id among games created in the same millisecond,
        so a cursor names one place in that order however many games are created meanwhile.
        Returns the summaries, how many games there are in all and whether more follow.
        ``private`` (the admin's list) takes the private games too.
        """
        keys = self._keys(status, private)
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            if after is None:
                pipe.zrevrange(key, 0, limit, withscores=True)
            else:
                pipe.zrevrangebyscore(key, f"({after[0]}", "-inf", start=0, num=limit + 1, withscores=True)
                pipe.zrangebyscore(key, after[0], after[0], withscores=True)  # the cursor's millisecond
            pipe.zcard(key)
        replies = iter(pipe.execute())
        ranked, total = [], 0
        for _ in keys:
            ranked += [(score, _text(member)) for member, score in next(replies)]
            if after is not None:
                ranked += [(score, _text(member)) for member, score in next(replies) if _text(member) > after[1]]
            total += next(replies)
        ranked.sort(key=lambda item: (-item[0], item[1]))
        return self._summaries([game_id for _, game_id in ranked[:limit]]), total, len(ranked) > limit

    def _summaries(self, game_ids: list[str]) -> list[dict]:
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)  # one GET per game: each sits on its own cluster slot
        for game_id in game_ids:
            pipe.get(self.meta_key(game_id))
        return [json.loads(meta) for meta in pipe.execute() if meta is not None]

    def remove(self, game_id: str) -> None:
        """Take a game out of the list."""
        pipe = self.redis.pipeline(transaction=False)
        for status in STATUSES:
            for hidden in (False, True):
                pipe.zrem(self.status_key(status, hidden), game_id)
        pipe.delete(self.meta_key(game_id))
        pipe.execute()

    def rebuild(self, repository) -> int:
        """Recreate the index from every stream under the prefix; returns how many games it lists."""
        game_ids = self.store.game_ids()
        listed = 0
        for game_id in game_ids:
            try:
                state = repository.current(game_id)
            except GameDamaged as damaged:  # one damaged game must not keep the others off the list
                log.error("games list: %s not listed: %s", game_id, damaged)
                continue
            self.update(game_id, state)
            listed += 1
        return listed


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
