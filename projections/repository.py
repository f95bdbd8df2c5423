"""The state of a game now and at any past version, folding as few events as possible.

Where a state comes from, cheapest first:

1. the in-process cache (per `Repository`): the last state this process saw or made,
   with the hash of its last event. One ``HMGET`` of the stream's head tells whether it is
   current; if another process appended since, only the new events are read and folded.
2. the game's snapshot in Redis (written every ``snapshot_every`` events), used when this
   process has no cached state or its cache is further behind than the snapshot.
3. a checkpoint (written every ``checkpoint_every`` events, kept forever), for past
   versions: ``state_at(game, N)`` folds at most ``checkpoint_every`` events.
4. the empty state: folding from event 1 (always correct, only slower).

A rewind marker (``GameRewound``, see engine/rewind.py) is folded with the state at its
target version, which `state_at` finds as above (a checkpoint plus a bounded fold); the
rewind itself writes a snapshot and a checkpoint at the marker (workers/rewind.py), so
reads after it do not fold across it. `rebuild` folds from event 1 in memory
(`engine.rewind.Replay`) and reads no checkpoint.

Every base is checked against the stream before folding on from it (the stream must
still hold the base's last event with the same hash), so a rewritten stream can make a
cache or snapshot useless but never wrong. Deleting every snapshot changes nothing but speed.

States handed out are shared, read-only values: callers must not change them
(`engine.execute` works on a clone; views copy what they return).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import engine
from engine.rewind import Replay
from engine.state import clone, empty
from projections.errors import GameNotFound, VersionNotFound
from projections.snapshots import Snapshot, SnapshotStore

READ_BATCH = 1000


class Repository:
    """Game states for one process: cached, snapshotted, checkpointed; see the module docstring."""

    def __init__(self, store, *, snapshot_every: int = 100, checkpoint_every: int = 500, cache_games: int = 1000):
        if snapshot_every < 1 or checkpoint_every < 1 or cache_games < 1:
            raise ValueError("snapshot_every, checkpoint_every and cache_games must be positive")
        self.store = store
        self.snapshots = SnapshotStore(store)
        self.snapshot_every = snapshot_every
        self.checkpoint_every = checkpoint_every
        self.cache_games = cache_games
        self._cache: OrderedDict[str, Snapshot] = OrderedDict()
        self._lock = threading.Lock()
        self.folded = 0  # events folded by this repository (tests and benchmarks read it)

    # --- the current state ------------------------------------------------------------------

    def current(self, game_id: str) -> dict:
        """The game's state at its latest version (``{"v": 0, "status": "none"}`` for no game).

        A game whose stream disagrees with its head record raises `GameDamaged` (checked at every
        read, so a state cached here is never served for it).
        """
        version, head_hash = self.store.checked_head(game_id)
        cached = self._cached(game_id)
        if cached is not None and cached.version == version and cached.hash == head_hash:
            return cached.state
        if cached is not None and cached.version > version:
            self.forget(game_id)  # the stream is shorter than what we saw: it was rewritten
            cached = None
        if version == 0:
            return empty()
        base = self._best_base(game_id, cached, version)
        state, last_hash = self._fold_from(game_id, base, until=None)
        self._remember(game_id, Snapshot(state["v"], last_hash, state))
        return state

    def require(self, game_id: str) -> dict:
        """`current`, raising `GameNotFound` when the game does not exist."""
        state = self.current(game_id)
        if state["v"] == 0:
            raise GameNotFound(game_id)
        return state

    def cached_hash(self, game_id: str, version: int) -> str | None:
        """The hash of event ``version`` if this process's cache is at that version."""
        cached = self._cached(game_id)
        return cached.hash if cached is not None and cached.version == version else None

    def _best_base(self, game_id: str, cached: Snapshot | None, head: int) -> Snapshot | None:
        """The cached state if it is close enough, else the newer of the Redis snapshot and the cache."""
        if cached is not None and head - cached.version <= self.snapshot_every:
            return cached
        snapshot = self.snapshots.latest(game_id)
        if snapshot is not None and snapshot.version <= head and (cached is None or snapshot.version > cached.version):
            return snapshot
        return cached

    # --- past versions ----------------------------------------------------------------------

    def state_at(self, game_id: str, version: int) -> dict:
        """The game's state after its first ``version`` events (read-only, shared)."""
        head, head_hash = self.store.head(game_id)
        if head == 0:
            raise GameNotFound(game_id)
        if not isinstance(version, int) or version < 1 or version > head:
            raise VersionNotFound(game_id, version, head)
        cached = self._cached(game_id)
        if cached is not None and cached.version == version == head and cached.hash == head_hash:
            return cached.state
        candidates = [self.snapshots.checkpoint_before(game_id, version)]
        if cached is not None and cached.version <= version:
            candidates.append(cached)
        base = max((c for c in candidates if c is not None), key=lambda c: c.version, default=None)
        state, _ = self._fold_from(game_id, base, until=version)
        return state

    # --- folding ----------------------------------------------------------------------------

    def _fold_from(self, game_id: str, base: Snapshot | None, until: int | None) -> tuple[dict, str]:
        """Fold the stream onto ``base`` (checked against the stream) up to ``until`` (or the end)."""
        if base is not None and base.version > 0:
            events = self.store.read(game_id, after=base.version - 1, until=base.version)
            if events and events[0]["hash"] == base.hash:
                return self._fold_events(game_id, clone(base.state), base.hash, until)
            self.forget(game_id)  # the stream was rewritten under this base: start over
        return self._fold_events(game_id, empty(), "", until)

    def _fold_events(self, game_id: str, state: dict, last_hash: str, until: int | None) -> tuple[dict, str]:
        after = state["v"]
        while until is None or after < until:
            batch = self.store.read(game_id, after=after, until=until, count=READ_BATCH)
            # a rewind marker takes the state at an earlier version: from the nearest checkpoint
            state = engine.fold(batch, state, state_at=lambda version: self.state_at(game_id, version))
            self.folded += len(batch)
            if batch:
                after, last_hash = batch[-1]["seq"], batch[-1]["hash"]
            if len(batch) < READ_BATCH:
                break
        return state, last_hash

    def rebuild(self, game_id: str, *, write: bool = True) -> dict:
        """Fold the whole stream from event 1, ignoring every cache; optionally store the result."""
        replay, last_hash = Replay(every=self.checkpoint_every), ""
        for event in self.store.iter_all(game_id, batch=READ_BATCH):
            replay.apply(event)  # rewinds find their earlier states in the replay, not in checkpoints
            last_hash = event["hash"]
        self.folded += len(replay.events)
        state = replay.state
        if state["v"] == 0:
            raise GameNotFound(game_id)
        self._remember(game_id, Snapshot(state["v"], last_hash, state))
        if write:
            self.snapshots.write(game_id, state, last_hash)
        return state

    # --- after an append --------------------------------------------------------------------

    def record(self, game_id: str, state: dict, last_hash: str, previous_version: int) -> None:
        """Take a state this process just appended the events of; snapshot/checkpoint when due."""
        self._remember(game_id, Snapshot(state["v"], last_hash, state))
        version = state["v"]
        snapshot = version // self.snapshot_every > previous_version // self.snapshot_every
        checkpoint = version // self.checkpoint_every > previous_version // self.checkpoint_every
        if snapshot or checkpoint:
            self.snapshots.write(game_id, state, last_hash, snapshot=snapshot, checkpoint=checkpoint)

    def refresh_snapshot(self, game_id: str) -> int:
        """Bring the Redis snapshot up to the game's head (a worker job); returns its version."""
        state = self.require(game_id)
        latest = self.snapshots.latest(game_id)
        if latest is None or latest.version < state["v"]:
            cached = self._cached(game_id)
            self.snapshots.write(game_id, state, cached.hash if cached else self._hash_of(game_id, state["v"]))
        return state["v"]

    def _hash_of(self, game_id: str, version: int) -> str:
        events = self.store.read(game_id, after=version - 1, until=version)
        return events[0]["hash"] if events else ""

    # --- the in-process cache ---------------------------------------------------------------

    def _cached(self, game_id: str) -> Snapshot | None:
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None:
                self._cache.move_to_end(game_id)
            return cached

    def _remember(self, game_id: str, entry: Snapshot) -> None:
        with self._lock:
            old = self._cache.get(game_id)
            # Threads may finish out of order: never replace a newer state of the same stream.
            if old is not None and old.version > entry.version:
                return
            self._cache[game_id] = entry
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_games:
                self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """Drop this process's cached states of a game."""
        with self._lock:
            self._cache.pop(game_id, None)

    def forget_all(self) -> None:
        """Drop every cached state of this process."""
        with self._lock:
            self._cache.clear()
