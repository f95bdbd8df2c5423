"""Random playthroughs (DESIGN.md): complete games between random legal players break no invariant.

Smaller runs of what `cosmic simulate` does (see bench/ and the report for the 2000-game runs):
no crash, no broken invariant (20 tokens each, cards conserved, a decision always owed), and
every game ends with a winner or a stated reason.
"""

import pytest

from engine.errors import RulesError
from engine.simulate import simulate

GAMES_PER_COUNT = 30
GAMES_PER_OPTION = 10
OPTIONS = [{"reverse_cone": False}, {"special_destiny": True}, {"punt": True}, {"powers_per_player": 2},
           {"reverse_warp": True}, {"simplified": True}, {"reinforcements": False}, {"edicts": False},
           {"flares": False}, {"kickers": True}, {"war_cards": True}]


def check(summary: dict) -> None:
    """No errors, no violations, and every game accounted for."""
    assert summary["errors"] == 0, summary["examples"]
    assert summary["invariant_violations"] == 0, summary["examples"]
    assert summary["finished"] + sum(summary["unfinished"].values()) == summary["games"]
    assert summary["finished"] >= summary["games"] * 0.9, summary["unfinished"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_finish_without_errors_or_broken_invariants(players):
    check(simulate(GAMES_PER_COUNT, players, seed=7))


@pytest.mark.slow
@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_random_games_with_each_option_finish_without_errors(option):
    check(simulate(GAMES_PER_OPTION, 5, seed=11, options=option))


def test_the_simulator_refuses_a_bad_option_before_playing():
    with pytest.raises(RulesError, match="unknown option 'colour'"):
        simulate(1, 4, seed=1, options={"colour": "red"})
    with pytest.raises(RulesError, match="option punt must be true or false"):
        simulate(1, 4, seed=1, options={"punt": "sometimes"})


@pytest.mark.parametrize("option, message", [
    ("colour=red", "unknown option 'colour'; known options: deal_seconds"),
    ("reverse_cone=maybe", "option reverse_cone must be true or false, not 'maybe'"),
    ("powers_per_player=3", "option powers_per_player must be between 1 and 2, not 3"),
])
def test_cosmic_simulate_names_a_bad_option_and_exits_with_status_2(option, message, capsys):
    from app.cli import main

    assert main(["simulate", "--games", "1", "--players", "4", "--option", option]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cosmic simulate: ") and message in err
