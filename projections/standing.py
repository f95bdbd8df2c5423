"""Each game's standing: a few hundred bytes of public facts kept beside its stream, for ``GET /me/games``.

A player's list of games tells, per game, its status, turn, version and who owes which decision
until when. Folding each game's state for that (the repository's cache, else a snapshot and the
events after it) made the list's cost grow with the games' lengths and sizes; the standing is
what the list needs and nothing more, written after every append (`workers.runtime` adds
`Standings.update` as a command listener) under ``{prefix}:{<game_id>}:standing`` (the game's hash
slot) as JSON:

``{"version", "status", "ruleset", "turn", "offense", "pending": [{"player", "kind", "title",
"deadline"}], "bots": [colour...], "winners"}`` (``bots``: the seats a bot plays now, joined as one or
handed over, whose decisions are the bot's, not the person's).

It holds only what the public board shows (`projections.views.pending`): no hand, no option, no
card. A standing is believed only when its ``version`` is the game's head (read in the same
round trip); otherwise (an append whose listener failed, a rewind or an import that did not go
through the command runner, a game from before standings existed) the reader folds the state
once and writes the standing again, so a stale standing costs one fold, never a wrong answer.
"""

from __future__ import annotations

import json

from projections import views


def of(state: dict) -> dict:
    """The standing of a game state (public facts only)."""
    turn = state.get("turn") or {}
    return {"version": state["v"], "status": state.get("status"), "ruleset": state.get("ruleset"),
            "turn": turn.get("number"), "offense": turn.get("offense"), "pending": views.pending(state),
            "bots": sorted(color for color, seat in (state.get("players") or {}).items() if seat.get("bot")),
            "winners": list(state.get("winners") or [])}


class Standings:
    """The standings of one store's games: written after each append, read many at once."""

    def __init__(self, store, repository):
        self.store, self.repository = store, repository
        self.redis = store.redis

    def key(self, game_id: str) -> str:
        return self.store.game_key(game_id, "standing")

    def update(self, game_id: str, state: dict) -> dict:
        """Record ``state``'s standing; returns it."""
        standing = of(state)
        self.redis.set(self.key(game_id), json.dumps(standing, separators=(",", ":")))
        return standing

    def listener(self, game_id: str, before: dict, after: dict, events: list) -> None:
        """A command listener: the standing follows every append."""
        self.update(game_id, after)

    def read(self, game_ids: list[str]) -> dict[str, dict | None]:
        """``{game: standing}`` (None for a game with no events), one round trip for all; a missing or stale
        standing is folded from the game's state and written again (see the module docstring)."""
        if not game_ids:
            return {}
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(self.store.head_key(game_id), "version")
            pipe.get(self.key(game_id))
        replies = pipe.execute()
        found = {}
        for k, game_id in enumerate(game_ids):
            head, raw = replies[2 * k], replies[2 * k + 1]
            if head is None:
                found[game_id] = None
                continue
            standing = json.loads(raw) if raw is not None else None
            if standing is None or standing.get("version") != int(head):
                standing = self.update(game_id, self.repository.current(game_id))
            found[game_id] = standing
        return found
