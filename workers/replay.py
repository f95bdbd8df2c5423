"""Replaying games: rebuild a game's snapshot, checkpoints and games-list entry from its stream.

Snapshots and checkpoints are caches of the fold (projections/snapshots.py); this throws
them away and writes them again from a fold of the whole stream from event 1, rewinds
included (`engine.rewind.Replay`, which never reads a checkpoint). The stream is checked as
it is read (`workers.audit.ChainCheck`: sequence, hash chain, schemas, fold); if anything is
wrong nothing is written and the finding is returned, so a replay never turns a damaged
stream into trusted caches. Checkpoints are written every ``checkpoint_every`` events and at
every rewind marker (so reads after a marker never fold across it), the latest snapshot at
the head.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.rewind import REWOUND
from projections.errors import GameNotFound
from workers.audit import ChainCheck, Progress, stream_entries


def replay_game(runtime, game_id: str, progress: Progress | None = None) -> dict:
    """Rebuild one game's snapshot, checkpoints and index entry; returns figures (or the problem found)."""
    store, repository = runtime.store, runtime.repository
    began = time.perf_counter()
    head, _ = store.head(game_id)
    if head == 0:
        raise GameNotFound(game_id)
    every = repository.checkpoint_every
    check = ChainCheck(game_id, every=every).feed_all(stream_entries(store, game_id), progress, head)
    figures = {"game_id": game_id, "events": check.count, "ok": check.problem is None}
    if check.problem is not None:
        figures["problem"] = vars(check.problem)
        return _timed(figures, began)
    events = check.replay.events
    versions = sorted(set(range(every, check.count + 1, every)) |
                      {e["seq"] for e in events if e["type"] == REWOUND})
    snapshots = repository.snapshots
    snapshots.delete(game_id)
    for version in versions:
        snapshots.write(game_id, check.replay.state_at(version), events[version - 1]["hash"], snapshot=False,
                        checkpoint=True)
    state = check.replay.state
    snapshots.write(game_id, state, check.last_hash)
    repository.forget(game_id)
    runtime.index.update(game_id, state)
    figures.update(version=state["v"], status=state["status"], checkpoints=len(versions))
    if progress:
        progress(check.count, head)
    return _timed(figures, began)


def replay_all(runtime, progress: Callable[[str, dict], None] | None = None) -> dict:
    """Replay every game under the prefix; returns the totals and the games that could not be replayed."""
    began = time.perf_counter()
    totals = {"games": 0, "events": 0, "failed": {}}
    for game_id in runtime.store.game_ids():
        figures = replay_game(runtime, game_id)
        totals["games"] += 1
        totals["events"] += figures["events"]
        if not figures["ok"]:
            totals["failed"][game_id] = figures["problem"]
        if progress:
            progress(game_id, figures)
    return _timed(totals, began)


def _timed(figures: dict, began: float) -> dict:
    seconds = time.perf_counter() - began
    figures["seconds"] = round(seconds, 4)
    figures["events_per_second"] = round(figures["events"] / seconds) if seconds > 0 else None
    return figures
