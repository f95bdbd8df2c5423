"""Filch: at stage 9, take the opponent's played challenge card instead of discarding it."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A15", "C", "C", "C", "C", "C", "C"]


def filch_game(red_power="Filch", red_hand=None, options=None, **kw):
    """Red attacks blue-2 with 2 tokens and wins 22 to 19; yellow holds Filch when red does not."""
    yellow_power = "Filch" if red_power != "Filch" else "Mind"
    g = red_attacks_blue(red_power, "Mutant", yellow_power, {"red": red_hand or RED, "blue": BLUE},
                         options=options, **kw)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A15")
    return g


def test_filch_power_takes_the_opponents_attack_15_into_hand():
    g = filch_game()
    assert g.outcome["winner"] == "offense"
    g.use("red", "power:Filch")
    g.pass_windows()
    assert "A15.1" in g.hand("red")
    assert "A15.1" not in g.state["discard"]
    assert "A20.1" in g.state["discard"]


def test_filch_off_after_power_loss_both_cards_are_discarded():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = red_attacks_blue("Filch", "Mutant", "Mind", {"red": RED, "blue": BLUE}, tokens=lost)
    g.regroup("red", None)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A15")
    assert g.abilities("red") == []
    g.pass_windows()
    assert {"A15.1", "A20.1"} <= set(g.state["discard"])
    assert "A15.1" not in g.hand("red")


def test_filch_off_when_a_cosmic_zap_cancels_the_theft():
    yellow = ["CosmicZap", "A6", "A7", "A8", "A9", "A10", "A11"]
    g = red_attacks_blue("Filch", "Mutant", "Mind", {"red": RED, "blue": BLUE, "yellow": yellow},
                         options={"edicts": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A15")
    g.use("red", "power:Filch")
    g.use("yellow", "card:CosmicZap")
    g.pass_windows()
    assert "A15.1" in g.state["discard"] and "A15.1" not in g.hand("red")


def test_filch_wild_lets_another_main_player_take_the_opponents_card():
    g = filch_game(red_power="Mind", red_hand=["Flare:Filch", "A20", "A4", "A5", "A6", "A7", "A8"],
                   options={"flares": True})
    g.use("red", "card:Flare:Filch")
    g.pass_windows()
    assert "A15.1" in g.hand("red")
    assert "Flare:Filch" in g.state["discard"]


def test_filch_super_keeps_its_own_card_as_well():
    g = filch_game(red_hand=["Flare:Filch", "A20", "A4", "A5", "A6", "A7", "A8"], options={"flares": True})
    g.use("red", "power:Filch")
    g.use("red", "card:Flare:Filch")
    g.pass_windows()
    assert {"A15.1", "A20.1"} <= set(g.hand("red"))
    assert not {"A15.1", "A20.1"} & set(g.state["discard"])
