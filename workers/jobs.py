"""The jobs of the service. Each is a module-level function with small arguments.

Every job gets what it needs from ``workers.process.current()``; none keeps state of its own
between runs (``cosmic worker`` runs them one after the other in its own process, so what the
runtime caches, game states above all, is shared by the jobs that follow).
"""

from __future__ import annotations

import os

from workers.process import current


def noop(value=None) -> dict:
    """Do nothing and say who did it: proves a worker is serving our queues."""
    runtime = current()
    return {"ok": True, "value": value, "pid": os.getpid(), "prefix": runtime.settings.prefix}


def refresh_snapshot(game_id: str, version: int) -> int:
    """Bring a game's Redis snapshot up to at least ``version``; a no-op when it already is.

    Enqueued when a game ends (so a finished game loads without folding) and usable after
    snapshots were deleted. Returns the snapshot's version.
    """
    repository = current().repository
    latest = repository.snapshots.latest(game_id)
    if latest is not None and latest.version >= version:
        return latest.version
    return repository.refresh_snapshot(game_id)


def rebuild_index() -> int:
    """Recreate the games list from the streams (after a restore or a lost index); returns its size."""
    runtime = current()
    return runtime.index.rebuild(runtime.repository)


def index_game(game_id: str) -> None:
    """Bring one game's entry in the games list up to its current state.

    Enqueued, with retries, when the listener after an append could not write the list (its keys are
    shared by every game, so on a cluster their master may be down while the game's own is up):
    raises while the list still cannot be written, and RQ tries again later.
    """
    runtime = current()
    runtime.index.update(game_id, runtime.repository.require(game_id))


def audit_game(game_id: str) -> dict:
    """Audit one game (queue ``low``): chain, sequence, schemas, refold against what is served (workers.audit)."""
    from workers.audit import audit_game as audit
    runtime = current()
    return audit(runtime.store, runtime.repository, game_id).as_dict()


def replay_game(game_id: str) -> dict:
    """Rebuild one game's snapshot, checkpoints and list entry from its stream (queue ``low``; workers.replay)."""
    from workers.replay import replay_game as replay
    return replay(current(), game_id)


def replay_all() -> dict:
    """Rebuild the snapshots and list entries of every game (queue ``low``); returns the totals."""
    from workers.replay import replay_all as replay
    return replay(current())
