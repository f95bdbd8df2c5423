"""Clone keeps the challenge card it played; its flares keep a card or double an Attack."""

from tests.engine.scenarios import red_attacks_blue

RED_HAND = ["A20", "A10", "A4", "A5", "A6", "A7", "A8"]
BLUE_HAND = ["A1", "A15", "C", "C", "C", "C", "C"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}  # red keeps two home bases: fewer than three


def game(red_power="Clone", red_hand=RED_HAND, **kw):
    return red_attacks_blue(red_power, "Filch", "Clone" if red_power != "Clone" else "Mind",
                            {"red": red_hand, "blue": BLUE_HAND}, **kw)


def won_with_attack_20(g):
    """Red launches four tokens at blue-2 and beats blue's Attack 1 with its Attack 20."""
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    assert g.outcome["winner"] == "offense"
    return g.ch["revealed"]["offense"][0], g.ch["revealed"]["defense"][0]


def test_clone_power_takes_the_played_attack_back_into_hand():
    g = game()
    mine, theirs = won_with_attack_20(g)
    g.use("red", "power:Clone")
    g.pass_windows()
    assert mine in g.hand("red") and len(g.hand("red")) == 7
    assert theirs in g.state["discard"] and mine not in g.state["discard"]
    assert g.state["committed"] == {"offense": [], "defense": []}


def test_clone_off_after_power_loss_the_card_is_discarded():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows()
    assert not any(e["type"] == "PowerUsed" for e in g.log)
    assert "A20.1" in g.state["discard"] and "A20.1" not in g.hand("red")
    assert len(g.hand("red")) == 6


def test_clone_off_when_cosmic_zapped_the_card_is_discarded():
    blue_hand = ["A1", "CosmicZap", "C", "C", "C", "C", "C"]
    g = red_attacks_blue("Clone", "Filch", "Mind", {"red": RED_HAND, "blue": blue_hand},
                         options={"edicts": True})
    g.use("blue", "card:CosmicZap", {"target": "red:Clone"})
    won_with_attack_20(g)
    g.pass_windows()
    assert "power:Clone" not in g.abilities("red")
    assert "A20.1" in g.state["discard"] and "A20.1" not in g.hand("red")


def test_clone_wild_lets_another_main_player_keep_its_card():
    g = game(red_power="Mind", red_hand=["Flare:Clone"] + RED_HAND[:6], options={"flares": True})
    mine, theirs = won_with_attack_20(g)
    g.use("red", "card:Flare:Clone")
    g.pass_windows()
    assert mine in g.hand("red")
    assert "Flare:Clone" in g.state["discard"] and theirs in g.state["discard"]


def test_clone_super_doubles_the_revealed_attack_and_turns_a_loss_into_a_win():
    g = game(red_hand=["Flare:Clone"] + RED_HAND[:6], options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A15")
    # without the flare: 10 + 4 = 14 against 15 + 4 = 19; the cloned Attack counts 20: 24
    g.use("red", "card:Flare:Clone")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 24, "defense": 19}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert "Flare:Clone" in g.state["discard"]
