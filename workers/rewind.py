"""Rewinding a game to an earlier version without losing its history.

`rewind` appends one ``GameRewound`` marker (see `engine/rewind.py` for what it means to a
fold). Its cost does not grow with the game's length: the state at the target version comes
from the repository (nearest checkpoint plus at most ``checkpoint_every`` events), the
state after the marker is built once from it, cached, and written as a snapshot *and* a
checkpoint at the marker's version, so no later read folds across the marker again.

Who may rewind: the admin at once; or every seated player, by consent. A player's request
(`request_consent`) is kept outside the event stream, in the game's hash
``{prefix}:{<game_id>}:rewind`` (field = colour, value = JSON ``{"to_version", "at"}``,
expiring `CONSENT_TTL` seconds after the last request): a request is a wish, not a fact of
the game. When every seated human player (bot seats do not vote) wants the same version,
the rewind happens and the requests are cleared; a new request replaces a player's older
one; any rewind clears them all. Two last consents arriving at once append one marker: the
append carries an idempotency key made of the target and the version it was made at.

A rewind is refused (`RewindRefused`) unless the target is a version before the current
one at which the game was being played and waited for a decision (`engine.rewind.at_rest`:
not between two events of one command; every version an action answered with qualifies).
Rewinding into the lobby would hand the seats of players who joined later (and their
tokens) to newcomers, and a finished state cannot be played on. Deadlines owed at the target move by the time since then (``clock_shift``).
"""

from __future__ import annotations

import json

from engine.rewind import REWOUND, at_rest, rewound
from events.exceptions import ConcurrencyConflict
from projections import views
from projections.errors import VersionConflict
from workers.clock import now_ms
from workers.errors import RewindRefused

CONSENT_TTL = 3600
RETRIES = 3


def check_target(repository, game_id: str, to_version, current: dict) -> dict:
    """The state at ``to_version`` if the game (now at ``current``) may be rewound to it; else `RewindRefused`."""
    if type(to_version) is not int:
        raise RewindRefused(f"to_version must be a whole number, not {to_version!r}")
    if not 1 <= to_version < current["v"]:
        raise RewindRefused(f"the game is at version {current['v']}: rewind to a version from 1 to "
                            f"{current['v'] - 1}, not {to_version}")
    target = repository.state_at(game_id, to_version)
    if target["status"] != "playing":
        reason = "had not started (it was in the lobby)" if target["status"] == "lobby" else \
            f"was {target['status']}"
        raise RewindRefused(f"at version {to_version} the game {reason}: rewind to a version at which it "
                            f"was being played")
    if not at_rest(target):
        raise RewindRefused(f"at version {to_version} a command was still being applied (no decision was owed "
                            "yet): rewind to a version at which the game waited for a decision, such as one "
                            "an action answered with")
    return target


def has_deadlines(state: dict) -> bool:
    """Whether any decision owed in this state has a deadline."""
    deal = (state.get("ch") or {}).get("deal") or {}
    return any(d is not None for d in (state.get("clock") or {}).values()) or deal.get("deadline") is not None


def marker(target: dict, to_version: int, *, by: str, players: list[str] | None, at: int) -> dict:
    """The ``GameRewound`` event: deadlines owed at the target move by the time since then."""
    shift = max(0, at - int(target.get("time") or 0)) if has_deadlines(target) else None
    actor = by if by in ("admin", "players") else "system"  # a fork's marker is the service's own
    return {"type": REWOUND, "actor": actor, "time": at, "end": True,
            "payload": {"to_version": to_version, "by": by, "players": players, "clock_shift": shift}}


def rewind(runtime, game_id: str, to_version: int, *, by: str = "admin", players: list[str] | None = None,
           at: int | None = None, expected_version: int | None = None, idempotency_key: str | None = None) -> dict:
    """Append a rewind marker and make its state current everywhere; returns what happened.

    ``by`` says who decided (``admin`` or ``players``; ``players`` lists who consented).
    ``expected_version`` pins the version the caller saw (`VersionConflict` otherwise);
    without it a concurrent append makes the rewind try again on the newer state.
    """
    repository, store = runtime.repository, runtime.store
    if idempotency_key is not None:
        record = store.idempotency_record(game_id, idempotency_key)
        if record is not None:  # this very rewind was already made (e.g. by a concurrent last consent)
            return record.get("response")
    at = now_ms() if at is None else at
    current = None
    for _ in range(RETRIES + 1):
        before = repository.require(game_id)
        if expected_version is not None and before["v"] != expected_version:
            raise VersionConflict(before["v"], expected_version)
        target = check_target(repository, game_id, to_version, before)
        event = marker(target, to_version, by=by, players=players, at=at)
        after = rewound(target, before, event)
        response = _answer(game_id, after, to_version, by, players)
        try:
            result = store.append(game_id, [event], before["v"], idempotency_key=idempotency_key, response=response)
        except ConcurrencyConflict as conflict:
            current = conflict.current_version
            if expected_version is not None:
                raise VersionConflict(current, expected_version) from None
            continue
        if result.replayed:
            return result.response
        last_hash = result.events[-1]["hash"]
        repository.record(game_id, after, last_hash, before["v"])
        repository.snapshots.write(game_id, after, last_hash, snapshot=True, checkpoint=True)
        Consents(store).clear(game_id)
        runtime.commands.notify(game_id, before, after, result.events)
        return response
    raise VersionConflict(current if current is not None else -1, None)


def _answer(game_id: str, after: dict, to_version: int, by: str, players) -> dict:
    return {"game_id": game_id, "status": "rewound", "version": after["v"], "to_version": to_version, "by": by,
            "players": players, "game_status": after["status"], "pending": views.pending(after)}


class Consents:
    """Players' pending rewind requests of each game (outside the stream; see the module docstring)."""

    def __init__(self, store):
        self.store = store
        self.redis = store.redis

    def key(self, game_id: str) -> str:
        """The hash of a game's rewind requests."""
        return self.store.game_key(game_id, "rewind")

    def record(self, game_id: str, color: str, to_version: int, at: int) -> dict[str, dict]:
        """Record a player's request (replacing its older one); returns every request now pending."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.key(game_id), color, json.dumps({"to_version": to_version, "at": at}))
        pipe.expire(self.key(game_id), CONSENT_TTL)
        pipe.hgetall(self.key(game_id))
        return _decode(pipe.execute()[-1])

    def pending(self, game_id: str) -> dict[str, dict]:
        """Every pending request: ``{colour: {"to_version", "at"}}``."""
        return _decode(self.redis.hgetall(self.key(game_id)))

    def clear(self, game_id: str) -> None:
        """Forget every request (after a rewind)."""
        self.redis.delete(self.key(game_id))


def _decode(raw: dict) -> dict[str, dict]:
    out = {}
    for color, value in (raw or {}).items():
        color = color.decode("utf-8") if isinstance(color, bytes) else color
        try:
            out[color] = json.loads(value)
        except (TypeError, ValueError):
            continue
    return out


def voters(state: dict) -> list[str]:
    """The seats whose consent a rewind needs: every seated player but the bots, in seat order."""
    return [c for c in state.get("order") or [] if not state["players"][c].get("bot")]


def consent_status(state: dict, requests: dict[str, dict]) -> dict:
    """Who wants which version, and who the rewind still waits for."""
    needed = voters(state)
    wanted = {c: r.get("to_version") for c, r in requests.items() if c in needed}
    return {"requests": wanted, "voters": needed}


def request_consent(runtime, game_id: str, color: str, to_version: int, at: int | None = None) -> dict:
    """A seated player asks to rewind to ``to_version``; rewinds when every voter asks for the same version.

    Returns ``{"status": "pending", ...}`` (who has asked for what, who is still awaited) or
    the rewind's answer (``{"status": "rewound", ...}``).
    """
    repository = runtime.repository
    at = now_ms() if at is None else at
    before = repository.require(game_id)
    if color not in voters(before):
        raise RewindRefused(f"{color} has no vote: only seated players who are not bots consent to a rewind")
    check_target(repository, game_id, to_version, before)
    consents = Consents(runtime.store)
    requests = consents.record(game_id, color, to_version, at)
    status = consent_status(before, requests)
    waiting = [c for c in status["voters"] if status["requests"].get(c) != to_version]
    if waiting:
        return {"game_id": game_id, "status": "pending", "to_version": to_version, "version": before["v"],
                "consented": [c for c in status["voters"] if c not in waiting], "waiting_for": waiting,
                "requests": status["requests"]}
    return rewind(runtime, game_id, to_version, by="players", players=list(status["voters"]), at=at,
                  expected_version=before["v"], idempotency_key=f"rewind:{to_version}@{before['v']}")
