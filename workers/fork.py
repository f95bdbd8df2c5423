"""Forking a game: a new game whose stream starts with a copy of another's first N events.

The copy is re-sealed for the new game (its own game id in every envelope, its own hash
chain); types, payloads, actors and times are the original's, so the fork's state at N is
the original's state at N with only ``game_id`` changed (the engine takes the game id from
the first event's envelope). Copied rewind markers keep their meaning: versions up to N are
the same stream positions in both games. The seed is copied inside ``GameCreated`` (a
private field: only the admin ever sees it), so the fork plays on with the same random
draws as the original would.

Decisions owed at N keep their deadlines in the copied state; when there are any, a
``GameRewound`` marker to N (``by: fork``) follows the copy and moves them by the time since
N, so the fork's first decisions do not time out the moment it exists (see engine/rewind.py).

The fork's state is built from the original's (`Repository.state_at`: nearest checkpoint
plus a bounded fold), cached and snapshotted at once; only the copy of the events grows with
N. The copy is written in batches, the first at version 0 (so a taken id is a conflict and
nothing is written); if a later batch fails the partial fork is deleted.

Where the fork came from is kept in its hash ``{prefix}:{<fork_id>}:origin`` (``game``,
``version``, and ``claimed:<colour>`` for seats whose token was handed out); the HTTP layer
uses it to let the original's players claim their seats in the fork (see app/routes/history.py).
"""

from __future__ import annotations

import secrets

from engine.rewind import at_rest, rewound
from engine.state import clone, empty
from events.exceptions import ConcurrencyConflict
from projections.errors import GameNotFound, VersionNotFound
from workers.clock import now_ms
from workers.errors import ForkRefused
from workers.rewind import has_deadlines, marker

COPY_BATCH = 500
ATTEMPTS = 5


def new_game_id() -> str:
    """A short, URL-safe, random game id (the same shape the API makes)."""
    return secrets.token_urlsafe(8)


def emitted(event: dict) -> dict:
    """A stored event as the engine emitted it (what a new seal needs): a command's last one says ``end``."""
    made = {"type": event["type"], "payload": event["payload"], "actor": event["actor"], "time": event["time"]}
    if event.get("end"):
        made["end"] = True
    return made


def copy_events(store, source_id: str, target_id: str, version: int) -> list[dict]:
    """Append re-sealed copies of the source's first ``version`` events to a new game; returns them sealed.

    `ConcurrencyConflict` (nothing written) when ``target_id`` already has events.
    """
    sealed: list[dict] = []
    after, link = 0, ""
    while after < version:
        batch = store.read(source_id, after=after, until=min(version, after + COPY_BATCH))
        if not batch:
            raise GameNotFound(source_id)
        try:
            result = store.append(target_id, [emitted(e) for e in batch], after, prev_hash=link)
        except Exception:
            if after:
                store.delete(target_id)  # nothing half-written: take the partial copy away
            raise
        sealed += result.events
        after, link = result.version, result.events[-1]["hash"]
    return sealed


def fork(runtime, game_id: str, version: int | None = None, *, new_id: str | None = None,
         at: int | None = None) -> dict:
    """Make a new game from the first ``version`` events of ``game_id`` (default: all of them).

    ``new_id`` names the fork (`ForkRefused` when taken); without it a free random id is
    drawn. When decisions with deadlines are owed at N, a ``GameRewound`` marker to N
    (``by: fork``) follows the copy and moves those deadlines by the time since N (``at``,
    default now), so they do not expire the moment the fork exists; the fork is then at N + 1. Returns ``{"id", "version", "status", "forked_from": {"game", "version"},
    "players"}`` (the colours seated in the fork).
    """
    store, repository = runtime.store, runtime.repository
    head = store.version(game_id)
    if head == 0:
        raise GameNotFound(game_id)
    version = head if version is None else version
    if type(version) is not int or not 1 <= version <= head:
        raise VersionNotFound(game_id, version, head)
    source = repository.state_at(game_id, version)
    if not at_rest(source):
        raise ForkRefused(f"at version {version} a command was still being applied (no decision was owed yet): "
                          "fork at a version at which the game waited for a decision, such as one an action "
                          "answered with")
    for _ in range(ATTEMPTS):
        fork_id = new_id or new_game_id()
        try:
            sealed = copy_events(store, game_id, fork_id, version)
            break
        except ConcurrencyConflict:
            if new_id is not None:
                raise ForkRefused(f"there is already a game {new_id!r}") from None
    else:
        raise ForkRefused("could not find a free game id; try again")
    state = clone(source)
    state["game_id"] = fork_id
    if has_deadlines(state):  # give the decisions owed at N their time back, as a rewind does
        event = marker(state, version, by="fork", players=None, at=now_ms() if at is None else at)
        sealed += store.append(fork_id, [event], version, prev_hash=sealed[-1]["hash"]).events
        state = rewound(state, state, event)
    last_hash = sealed[-1]["hash"]
    repository.record(fork_id, state, last_hash, 0)
    repository.snapshots.write(fork_id, state, last_hash)
    Origins(store).record(fork_id, game_id, version)
    unsealed = runtime.provenance.unsealed_until(game_id)  # a fork of an unsealed import stays marked
    runtime.provenance.mark(fork_id, min(unsealed, version) if unsealed else None)
    runtime.commands.notify(fork_id, empty(), state, sealed)
    return {"id": fork_id, "version": state["v"], "status": state["status"],
            "forked_from": {"game": game_id, "version": version}, "players": list(state.get("order") or [])}


def hand_out(store, tokens, fork_id: str, colours) -> dict[str, str]:
    """A bearer token for each of ``colours`` whose seat in the fork was not handed out yet.

    ``tokens`` is the service's token table (`app.auth.Tokens`); each seat of a fork is handed
    out once (`Origins.claim`), to the admin's or a player's fork request or a later claim.
    """
    origins = Origins(store)
    return {color: tokens.issue(fork_id, color) for color in colours if origins.claim(fork_id, color)}


class Origins:
    """Where each fork came from, and which of its seats were handed out."""

    def __init__(self, store):
        self.store = store
        self.redis = store.redis

    def key(self, fork_id: str) -> str:
        """The hash recording a fork's origin."""
        return self.store.game_key(fork_id, "origin")

    def record(self, fork_id: str, game_id: str, version: int) -> None:
        """Note that ``fork_id`` was forked from ``game_id`` at ``version``."""
        self.redis.hset(self.key(fork_id), mapping={"game": game_id, "version": version})

    def of(self, fork_id: str) -> dict | None:
        """``{"game", "version", "claimed": [colours]}`` of a fork, or None for a game that is not one."""
        raw = {_text(k): _text(v) for k, v in self.redis.hgetall(self.key(fork_id)).items()}
        if "game" not in raw:
            return None
        claimed = sorted(k.split(":", 1)[1] for k in raw if k.startswith("claimed:"))
        return {"game": raw["game"], "version": int(raw["version"]), "claimed": claimed}

    def claim(self, fork_id: str, color: str) -> bool:
        """Mark a seat's token as handed out; False if it already was (each seat is handed out once)."""
        return bool(self.redis.hsetnx(self.key(fork_id), f"claimed:{color}", "1"))


def _text(value) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value
