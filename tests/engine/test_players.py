"""The random legal player answers every prompt the engine can ask, even the unusual ones."""

from __future__ import annotations

import random

from engine.players import random_option
from engine.simulate import play_game


def test_a_regroup_offering_only_something_instead_of_a_retrieve_is_still_answered():
    """Machine's Super adds "draw a card" to a regroup even with no token in the warp, so a regroup
    prompt may offer no retrieve at all; the random player once assumed it always did (2000-game
    ffg run, seed 1:56, 5 players)."""
    prompt = {"kind": "regroup", "options": [{"action": "draw", "args": {}}]}
    for seed in range(40):
        assert random_option(prompt, random.Random(seed))["action"] == "draw"


def test_the_ffg_game_that_met_such_a_regroup_now_plays_to_its_end():
    result = play_game("1:56", 5, {}, ruleset="ffg")
    assert result.error is None and result.violations == [] and result.finished
