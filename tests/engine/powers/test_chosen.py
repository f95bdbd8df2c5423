"""Chosen calls for divine help after the reveal; its flares draw two or five cards instead of three."""

from engine.cards import card_kind_name
from tests.engine.scenarios import challenge, last_outcome, red_attacks_blue

RED_HAND = ["A10", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A15", "A1", "C", "C", "C", "C", "C"]


def game(red_power="Chosen", red_hand=RED_HAND, deck=("A12", "C", "A30"), options=None, **kw):
    yellow = "Chosen" if red_power != "Chosen" else "Clone"
    return red_attacks_blue(red_power, "Filch", yellow, {"red": red_hand, "blue": BLUE_HAND}, deck=list(deck),
                            options=options, **kw)


def reveal_10_against_15(g):
    """Red's Attack 10 and four tokens (14) against blue's Attack 15 and four tokens (19)."""
    challenge(g, "A10", "A15", red_tokens=4)


def kinds(card_ids):
    return [card_kind_name(c) for c in card_ids]


def test_chosen_power_adds_a_drawn_attack_30_and_wins():
    g = game()
    reveal_10_against_15(g)
    g.use("red", "power:Chosen")
    assert kinds(g.state["aside"]) == ["A12", "C", "A30"]  # face up for everyone, top card first
    moved = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["dst"] == "aside"]
    assert moved[-1]["seen_by"] is None
    pick = g.owe("red", "chosen_pick")
    assert [o["action"] for o in pick["options"]] == ["swap", "add", "keep"]
    g.answer("red", "chosen_pick", "add", {"card": "A30"})
    assert g.state["aside"] == [] and g.state["table"] == ["A30"]
    assert kinds(g.state["discard"]) == ["A12", "C"]
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 44, "defense": 19}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert {"A30", "A10.1", "A15.1"} <= set(g.state["discard"])  # stage 9 discards the added card too


def test_chosen_power_swaps_its_revealed_card_for_a_drawn_one():
    g = game()
    reveal_10_against_15(g)
    g.use("red", "power:Chosen")
    g.answer("red", "chosen_pick", "swap", {"card": "A30"})
    assert g.state["committed"]["offense"] == ["A30"]
    assert g.ch["revealed"]["offense"] == ["A30"]
    assert "A10.1" in g.state["discard"]
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 34, "defense": 19}


def test_chosen_power_with_war_cards_must_fight_with_a_drawn_war_card():
    g = game(deck=("A12", "War", "A30"), options={"war_cards": True})
    reveal_10_against_15(g)
    g.use("red", "power:Chosen")
    # 004: the drawn War card replaces the Chosen's card; no choice is asked
    assert not g.prompts("red") or g.prompts("red")[0]["kind"] != "chosen_pick"
    assert g.state["committed"]["offense"] == ["War.1"]
    assert g.state["aside"] == [] and {"A12.1", "A30", "A10.1"} <= set(g.state["discard"])
    g.pass_windows()
    assert last_outcome(g)["kind"] == "war" and last_outcome(g)["winner"] == "offense"


def test_chosen_off_after_power_loss_the_defense_wins():
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    reveal_10_against_15(g)
    g.pass_windows()
    assert last_outcome(g)["totals"] == {"offense": 14, "defense": 19}
    assert last_outcome(g)["winner"] == "defense"
    assert g.state["aside"] == []
    assert not any(e["type"] == "PowerUsed" for e in g.log)


def test_chosen_wild_draws_two_and_adds_an_attack_12():
    g = game(red_power="Filch", red_hand=["Flare:Chosen"] + RED_HAND[:6], options={"flares": True})
    reveal_10_against_15(g)
    g.use("red", "card:Flare:Chosen")
    assert kinds(g.state["aside"]) == ["A12", "C"]
    pick = g.owe("red", "chosen_pick")
    assert [o["action"] for o in pick["options"]] == ["add", "keep"]  # the Wild never swaps
    g.answer("red", "chosen_pick", "add", {"card": "A12.1"})
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 26, "defense": 19}
    assert g.outcome["winner"] == "offense"
    assert "A30" in g.state["deck"]  # the third card was never drawn


def test_chosen_super_reaches_five_cards_deep_for_the_attack_20():
    g = game(red_hand=["Flare:Chosen"] + RED_HAND[:6], deck=("C", "C", "C", "C", "A20"), options={"flares": True})
    reveal_10_against_15(g)
    g.use("red", "card:Flare:Chosen")
    assert len(g.state["aside"]) == 5
    g.answer("red", "chosen_pick", "add", {"card": "A20.1"})
    assert g.state["aside"] == []
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 34, "defense": 19}
    assert g.outcome["winner"] == "offense"
