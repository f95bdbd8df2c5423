"""The invariants the simulator checks after every command catch what they are meant to catch."""

from __future__ import annotations

from engine.invariants import card_places, violations
from engine.simulate import new_game


def started(players: int = 4) -> tuple[dict, list[str], list[str]]:
    state, _ = new_game("invariants", players)
    return state, sorted(card_places(state)), sorted(state["destiny"] + state["destiny_discard"])


def test_a_game_as_dealt_breaks_no_invariant():
    state, deck, destiny = started()
    assert violations(state, deck, destiny) == []


def test_a_token_gone_missing_is_reported_for_its_owner():
    state, deck, destiny = started()
    color = state["order"][0]
    state["planets"][f"{color}-0"][color] -= 1
    assert f"{color} has 19 tokens, not 20" in violations(state, deck, destiny)


def test_a_negative_count_is_reported_with_its_place():
    state, deck, destiny = started()
    color = state["order"][1]
    state["warp"][color] = -1
    state["planets"][f"{color}-0"][color] += 1
    found = violations(state, deck, destiny)
    assert f"warp holds a negative count of {color} tokens" in found
    assert not any("tokens, not 20" in problem for problem in found)  # the total is still 20


def test_base_counts_that_the_planets_do_not_show_are_reported():
    state, deck, destiny = started()
    color = state["order"][2]
    state["external_bases"][color] = 1
    assert f"{color}'s base counts are (5, 1) (home, external), but the planets show (5, 0)" in \
        violations(state, deck, destiny)


def test_a_card_in_two_places_and_a_card_gone_are_reported():
    state, deck, destiny = started()
    first, second = state["order"][:2]
    card = state["players"][first]["hand"][0]
    state["players"][second]["hand"].append(card)
    found = violations(state, deck, destiny)
    assert f"cards in two places at once: {[card]}" in found
    assert any(problem.startswith("cards not conserved") for problem in found)
    state["players"][second]["hand"].pop()
    gone = state["deck"].pop()
    assert f"cards not conserved: missing {[gone]}, extra []" in violations(state, deck, destiny)
