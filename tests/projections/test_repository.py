"""The repository: state at any version equals the fold; caches and snapshots change nothing but speed."""

from __future__ import annotations

import pytest

import engine
from engine.state import empty
from projections.errors import GameNotFound, VersionNotFound

GAME = "g-repo"


def fold_all(store, game_id: str, until: int | None = None) -> dict:
    """The state folded from event 1 straight off the stream (the definition every cache must meet)."""
    return engine.fold(store.read(game_id, until=until))


def test_execute_state_equals_the_fold_after_every_command(make_runner, play):
    runner = make_runner(snapshot_every=50, checkpoint_every=200)
    game = play(runner, GAME, "fold-1", players=4, commands=0)
    folded = {"state": fold_all(runner.store, GAME)}
    assert game.outcomes[-1].state == folded["state"]

    def check(outcome):
        for event in outcome.events:
            engine.evolve(folded["state"], event)
        assert outcome.state == folded["state"]

    game.moves(None, on_outcome=check)
    assert runner.repository.current(GAME) == fold_all(runner.store, GAME)
    assert runner.repository.current(GAME)["status"] == "finished"


def test_state_at_any_version_equals_the_fold(make_runner, play):
    runner = make_runner(snapshot_every=40, checkpoint_every=150)
    play(runner, GAME, "fold-2", players=3, commands=150)
    head = runner.store.version(GAME)
    reader = make_runner(snapshot_every=40, checkpoint_every=150).repository
    versions = sorted({1, 2, head, head - 1, 149, 150, 151, 300} | set(range(3, head, 37)))
    for version in versions:
        if 1 <= version <= head:
            assert reader.state_at(GAME, version) == fold_all(runner.store, GAME, version), version


def test_past_versions_fold_from_the_nearest_checkpoint(make_runner, play):
    runner = make_runner(snapshot_every=50, checkpoint_every=100)
    play(runner, GAME, "fold-3", players=3, commands=120)
    head = runner.store.version(GAME)
    assert runner.repository.snapshots.checkpoint_versions(GAME)  # some were written on the way
    reader = make_runner(snapshot_every=50, checkpoint_every=100).repository
    reader.state_at(GAME, head - 1)
    assert reader.folded <= 100 + 50  # at most a checkpoint interval (plus one command's events)


def test_deleting_snapshots_changes_nothing_but_speed(make_runner, play):
    runner = make_runner(snapshot_every=25, checkpoint_every=100)
    play(runner, GAME, "fold-4", players=4, commands=100)
    head = runner.store.version(GAME)
    warm = make_runner(snapshot_every=25, checkpoint_every=100).repository
    before_now, before_past = warm.current(GAME), warm.state_at(GAME, head // 2)
    assert warm.snapshots.delete_all() >= 2
    cold = make_runner(snapshot_every=25, checkpoint_every=100).repository
    assert cold.current(GAME) == before_now == fold_all(runner.store, GAME)
    assert cold.state_at(GAME, head // 2) == before_past
    assert cold.folded > warm.folded  # only slower
    assert cold.current(GAME)["v"] == head


def test_a_fresh_process_folds_only_the_events_after_the_snapshot(make_runner, play):
    runner = make_runner(snapshot_every=30)
    play(runner, GAME, "fold-5", players=3, commands=80)
    head = runner.store.version(GAME)
    fresh = make_runner(snapshot_every=30).repository
    assert fresh.current(GAME) == fold_all(runner.store, GAME)
    assert fresh.folded < 30 + 60  # the tail after the last snapshot, not the whole game
    assert fresh.snapshots.latest(GAME).version > head - 60


def test_the_hot_path_never_refolds(make_runner, play):
    runner = make_runner(snapshot_every=20)
    play(runner, GAME, "fold-6", players=4, commands=200)
    assert runner.repository.folded == 0  # every state came from engine.execute


def test_the_cache_is_refreshed_when_another_process_appended(make_runner, play):
    first = make_runner(snapshot_every=1000)
    second = make_runner(new_connection=True, snapshot_every=1000)
    game = play(first, GAME, "two-1", players=3, commands=20)
    assert second.repository.current(GAME) == first.repository.current(GAME)
    folded = second.repository.folded
    game.moves(5)  # the first process goes on
    head = first.store.version(GAME)
    assert second.repository.current(GAME) == first.repository.current(GAME) == fold_all(first.store, GAME)
    assert second.repository.folded - folded < head  # only the new events were folded
    game.moves(5, runner=second)  # now the second process plays; the first catches up
    assert first.repository.current(GAME) == second.repository.current(GAME) == fold_all(first.store, GAME)


def test_a_conflicting_append_is_retried_on_the_fresh_state(make_runner, play):
    first = make_runner()
    second = make_runner(new_connection=True)
    game = play(first, GAME, "two-2", players=3, commands=5)
    second.repository.current(GAME)  # the second process caches this version
    game.moves(3)  # ... and falls behind
    stale = second.repository._cached(GAME).version
    assert stale < first.store.version(GAME)
    game.moves(2, runner=second)
    assert second.repository.current(GAME) == fold_all(first.store, GAME)


def test_a_rewritten_stream_is_never_served_from_a_stale_cache(make_runner, play):
    runner = make_runner(snapshot_every=10)
    play(runner, GAME, "rewrite-1", players=3, commands=30)
    runner.store.delete(GAME)  # e.g. a rewind: the same game id, other events
    play(make_runner(new_connection=True, snapshot_every=10), GAME, "rewrite-2", players=3, commands=40)
    assert runner.repository.current(GAME) == fold_all(runner.store, GAME)
    assert runner.repository.state_at(GAME, 20) == fold_all(runner.store, GAME, 20)


def test_no_game_is_version_zero(make_runner):
    repository = make_runner().repository
    assert repository.current("nobody") == empty()
    with pytest.raises(GameNotFound):
        repository.require("nobody")
    with pytest.raises(GameNotFound):
        repository.state_at("nobody", 1)


def test_versions_outside_the_stream_are_refused(make_runner, play):
    runner = make_runner()
    play(runner, GAME, "range-1", players=3, commands=2)
    head = runner.store.version(GAME)
    for version in (0, -1, head + 1):
        with pytest.raises(VersionNotFound):
            runner.repository.state_at(GAME, version)


def test_rebuild_and_refresh_snapshot(make_runner, play):
    runner = make_runner(snapshot_every=1000)
    play(runner, GAME, "rebuild-1", players=3, commands=30)
    head = runner.store.version(GAME)
    assert runner.repository.snapshots.latest(GAME) is None
    assert runner.repository.refresh_snapshot(GAME) == head
    assert runner.repository.snapshots.latest(GAME).version == head
    assert runner.repository.rebuild(GAME) == fold_all(runner.store, GAME)


def test_an_old_snapshot_never_replaces_a_newer_one(make_runner, play):
    runner = make_runner(snapshot_every=1000)
    play(runner, GAME, "newest-1", players=3, commands=10)
    snapshots = runner.repository.snapshots
    state = runner.repository.current(GAME)
    snapshots.write(GAME, state, "h" * 64)
    older = runner.repository.state_at(GAME, 5)
    snapshots.write(GAME, older, "x" * 64)
    assert snapshots.latest(GAME).version == state["v"]
