"""Trader swaps hands with its opponent before cards are chosen; its flares swap hands too."""

from engine.cards import card_kind_name
from tests.engine.scenarios import last_outcome, red_attacks_blue

WEAK = ["A4", "A5", "A6", "A7", "C", "C", "C"]
STRONG = ["A40", "A30", "A20", "C", "C", "C", "C"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}


def game(red_power="Trader", red_hand=WEAK, yellow_hand=None, blue_hand=STRONG, **kw):
    yellow = "Trader" if red_power != "Trader" else "Clone"
    hands = {"red": red_hand, "blue": blue_hand}
    return red_attacks_blue(red_power, "Filch", yellow, hands, yellow_hand, **kw)


def kinds(card_ids):
    return sorted(card_kind_name(c) for c in card_ids)


def swap_moves(g, reason):
    return [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == reason]


def test_trader_power_swaps_hands_and_wins_with_the_opponents_attack_40():
    g = game()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    red_before, blue_before = g.hand("red"), g.hand("blue")
    g.use("red", "power:Trader")
    assert (g.hand("red"), g.hand("blue")) == (blue_before, red_before)
    moves = swap_moves(g, "Trader")
    assert [(m["src"], m["dst"], m["seen_by"]) for m in moves] == [
        ("hand:red", "hand:blue", ["blue", "red"]), ("hand:blue", "hand:red", ["blue", "red"])]
    g.play("red", "A40")
    g.play("blue", "A7")
    assert g.outcome["totals"] == {"offense": 44, "defense": 11}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}


def test_trader_off_after_power_loss_hands_stay_and_the_defense_wins():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    red_before = g.hand("red")
    g.pass_windows()
    assert g.hand("red") == red_before
    g.play("red", "A7")
    g.play("blue", "A40")
    assert last_outcome(g)["totals"] == {"offense": 11, "defense": 44}
    assert last_outcome(g)["winner"] == "defense"
    assert not any(e["type"] == "PowerUsed" for e in g.log)


def test_trader_wild_lets_any_main_player_swap_hands_with_its_opponent():
    g = game(red_power="Filch", red_hand=["Flare:Trader"] + WEAK[:6], options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    blue_before = g.hand("blue")
    g.use("red", "card:Flare:Trader")
    assert g.hand("red") == blue_before
    assert kinds(g.hand("blue")) == kinds(WEAK[:6])
    assert "Flare:Trader" in g.state["discard"]
    g.play("red", "A30")
    g.play("blue", "A6")
    assert g.outcome["totals"] == {"offense": 34, "defense": 10}


def test_trader_super_swaps_hands_with_a_bystander():
    bystander = ["A40", "A12", "A13", "A14", "A15", "A16", "A17"]
    g = game(red_hand=["Flare:Trader"] + WEAK[:6], yellow_hand=bystander, blue_hand=["A20"] + ["C"] * 6,
             options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.use("red", "card:Flare:Trader", {"player": "yellow"})
    assert kinds(g.hand("red")) == kinds(bystander)
    assert kinds(g.hand("yellow")) == kinds(WEAK[:6])
    assert kinds(g.hand("blue")) == ["A20"] + ["C"] * 6  # the opponent's hand is untouched
    moves = swap_moves(g, "Trader Super Flare")
    assert all(m["seen_by"] == ["red", "yellow"] for m in moves)
    g.play("red", "A40")
    g.play("blue", "A20")
    # with its own hand red's best was 7 + 4 = 11 against 20 + 4 = 24
    assert g.outcome["totals"] == {"offense": 44, "defense": 24}
    assert g.outcome["winner"] == "offense"
