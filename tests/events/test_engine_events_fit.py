"""Every event the engine emits in play fits its stored schema, so the store takes it (issue 11: a
Dictator's cleared note once carried a null the schema refuses, and a game over HTTP stopped at it)."""

from __future__ import annotations

import pytest

from engine.catalog import POWERS
from engine.simulate import play_game
from events.schemas import validate_emitted

FFG_ONLY = sorted(name for name, power in POWERS.items() if power.editions == ("ffg",))


def misfits(log: list[dict]) -> list[str]:
    found = []
    for event in log:
        try:
            validate_emitted({k: event[k] for k in ("type", "payload", "actor", "time", "end") if k in event})
        except Exception as exc:  # noqa: BLE001 - every refusal is a finding, named with its event
            found.append(f"{event['type']}: {exc}")
    return found


def test_the_thirteen_fantasy_flight_aliens_are_all_in_play_here():
    assert len(FFG_ONLY) == 13


@pytest.mark.parametrize("seed", range(4))
def test_games_among_the_fantasy_flight_aliens_emit_only_storable_events(seed):
    result = play_game(f"fit-ffg:{seed}", 5, {"power_pool": FFG_ONLY}, ruleset="ffg", keep_log=True)
    assert result.error is None and result.violations == []
    assert misfits(result.log) == []


@pytest.mark.parametrize("seed", range(2))
def test_mayfair_games_emit_only_storable_events(seed):
    result = play_game(f"fit-mayfair:{seed}", 5, {}, keep_log=True)
    assert result.error is None and result.violations == []
    assert misfits(result.log) == []
