"""Answers remembered between facts (engine/memo.py) are given again only while they still hold.

The rules ask what is in force and what each player could use at every step; the engine remembers
those answers until a fact that may change them. These tests change the state only through
`evolve`, as the engine does, and check that each answer follows the facts that matter, ignores
those that do not, and never crosses from one state object to another.
"""

from __future__ import annotations

import random

import pytest

from engine import evolve, prompts
from engine.hooks import in_force
from engine.scenario import Scenario
from engine.simulate import legal_answer, new_game
from engine.state import active_powers, clone, timing_order
from engine.usable import InReach, in_reach, window_options

POWERS = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"]}


def fact(event_type: str, **payload) -> dict:
    return {"type": event_type, "payload": payload, "actor": "system", "time": 0}


def started() -> dict:
    return Scenario(players=3, powers=POWERS, first="red").state


def empty_home_planets(state: dict, color: str, count: int) -> None:
    """``color`` sends the four tokens of ``count`` of its home planets to the warp, one fact each."""
    for index in range(count):
        evolve(state, fact("TokensMoved", moves=[[color, f"{color}-{index}", "warp", 4]], reason="test"))


def test_a_power_lost_for_want_of_home_bases_leaves_what_is_in_force_at_once():
    state = started()
    assert ("blue", "Clone") in active_powers(state)
    empty_home_planets(state, "blue", 2)  # three home bases left: the power holds
    assert ("blue", "Clone") in active_powers(state)
    assert any(owner == "blue" for _, owner, _ in in_force(state).entries)
    empty_home_planets(state, "blue", 3)  # two left: lost
    assert ("blue", "Clone") not in active_powers(state)
    assert not any(owner == "blue" for _, owner, _ in in_force(state).entries)


def test_tokens_moved_between_bases_leave_the_answer_as_it_was():
    state = started()
    before = active_powers(state)
    evolve(state, fact("TokensMoved", moves=[["red", "red-0", "red-1", 1]], reason="test"))
    assert active_powers(state) is before  # remembered: no home base was made or given up


def test_a_fact_that_may_change_what_is_in_force_makes_it_be_worked_out_again():
    state = started()
    order = timing_order(state)
    forces = in_force(state)
    evolve(state, fact("PowersChanged", player="yellow", powers=[], lost=["Laser"]))
    assert ("yellow", "Laser") not in active_powers(state)
    assert in_force(state) is not forces
    assert not any(owner == "yellow" for _, owner, _ in in_force(state).entries)
    assert timing_order(state) == order  # (the same seats, worked out again all the same)


def test_an_answer_for_one_state_is_never_given_for_another():
    state = started()
    active_powers(state)
    other = clone(state)
    empty_home_planets(other, "red", 3)
    assert ("red", "Filch") not in active_powers(other)
    assert ("red", "Filch") in active_powers(state)


def test_facts_applied_to_another_state_in_between_do_not_hide_a_change():
    """One slot notes the last change for every state: a change to this state, then one to another
    (an older copy, so at an earlier ply), must still make this state's answer be worked out again."""
    state = started()
    other = clone(state)
    for _ in range(3):  # facts that change nothing in force: this state's ply moves ahead of the copy's
        evolve(state, fact("PlayerNoted", player="red", key="test", value=1))
    active_powers(state)
    empty_home_planets(state, "red", 3)
    empty_home_planets(other, "blue", 1)
    assert ("red", "Filch") not in active_powers(state)


def red_holds_a_cosmic_zap() -> tuple[dict, str]:
    """Three players with edicts: red holds a Cosmic Zap (usable in any window), blue nothing to use."""
    g = Scenario(players=3, powers=POWERS, first="red", options={"edicts": True},
                 hands={"red": ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"],
                        "blue": ["A10", "A11", "A12", "A13", "A14", "A15", "C"]})
    zap = next(card for card in g.state["players"]["red"]["hand"] if card.startswith("CosmicZap"))
    return g.state, zap


def test_what_a_player_could_use_follows_the_cards_it_is_given():
    state, zap = red_holds_a_cosmic_zap()
    assert window_options(state, "blue", "regroup") == []
    assert window_options(state, "red", "regroup") != []
    evolve(state, fact("CardsMoved", cards=[zap], src="hand:red", dst="hand:blue", seen_by=["red", "blue"],
                       reason="test"))
    assert window_options(state, "red", "regroup") == []
    assert [o["ability"] for o in window_options(state, "blue", "regroup")] == [f"card:{zap}"]


def test_who_a_window_could_concern_holds_across_facts_that_move_no_card_and_follows_a_card_moved():
    state, zap = red_holds_a_cosmic_zap()
    reachable = in_reach(state)
    assert "red" in reachable.players_for("regroup") and "blue" not in reachable.players_for("regroup")
    evolve(state, fact("TokensMoved", moves=[["red", "red-0", "red-1", 1]], reason="test"))
    evolve(state, fact("DecisionTaken", player="red", kind="test", action="pass"))
    assert in_reach(state) is reachable  # remembered: no card moved, no power changed
    evolve(state, fact("CardsMoved", cards=[zap], src="hand:red", dst="hand:blue", seen_by=["red", "blue"],
                       reason="test"))
    assert in_reach(state) is not reachable
    assert "blue" in in_reach(state).players_for("regroup") and "red" not in in_reach(state).players_for("regroup")


@pytest.mark.parametrize(("ruleset", "options"), [("mayfair", {"edicts": True, "flares": True}), ("ffg", {})])
def test_what_every_player_could_use_at_all_is_never_remembered_past_a_change(ruleset, options):
    """Random games, in place as the simulator plays them: after every command the remembered `in_reach` answer
    is the one worked out afresh (a fact wrongly listed as moving no card would leave an old hand in it)."""
    for game in range(3):
        state, _ = new_game(f"held:{game}", 5, options, ruleset)
        rng, at = random.Random(f"held:{game}"), 0
        for _ in range(400):
            if state["status"] != "playing":
                break
            at += 1000
            _, state = legal_answer(state, rng.choice(prompts(state)), rng, at, in_place=True)
            remembered, fresh = in_reach(state), InReach(state)
            for player in state["order"]:
                assert (player in remembered.of) == (player in fresh.of)
                if player in fresh.of:
                    assert remembered.of[player].playable == fresh.of[player].playable
                    assert remembered.of[player].powers == fresh.of[player].powers
