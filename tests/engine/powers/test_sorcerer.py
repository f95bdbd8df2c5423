"""Sorcerer switches the two face-down challenge cards; its flares trade powers or switch as an ally."""

from engine.scenario import Scenario
from tests.engine.scenarios import last_outcome, red_attacks_blue

RED_HAND = ["A4", "A5", "A6", "A7", "A10", "C", "C"]
BLUE_HAND = ["A20", "A10", "C", "C", "C", "C", "C"]


def game(**kw):
    return red_attacks_blue("Sorcerer", "Filch", "Clone", {"red": RED_HAND, "blue": BLUE_HAND}, **kw)


def test_sorcerer_power_switches_the_face_down_cards_and_the_offense_reveals_the_20():
    g = game()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A20")
    g.use("red", "power:Sorcerer")
    assert g.state["committed"] == {"offense": ["A20.1"], "defense": ["A4.1"]}
    moves = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Sorcerer"]
    # each face-down card is shown only to the player who chose it, as before the switch
    assert [(m["cards"], m["seen_by"]) for m in moves] == [(["A4.1"], ["red"]), (["A20.1"], ["blue"])]
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 24, "defense": 8}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4} and g.warp("blue") == 4


def test_sorcerer_off_after_power_loss_the_cards_stay_and_the_defense_wins():
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A20")
    assert last_outcome(g)["totals"] == {"offense": 8, "defense": 24}
    assert last_outcome(g)["winner"] == "defense"
    g.pass_windows()
    assert "A4.1" in g.state["discard"] and "A20.1" in g.state["discard"]


def test_sorcerer_wild_makes_the_main_players_trade_powers_for_good():
    # blue is Macron: each of its tokens counts 4; the flare hands Macron to red
    g = Scenario(players=4, powers={"red": ["Filch"], "blue": ["Macron"], "yellow": ["Clone"], "purple": ["Sorcerer"]},
                 hands={"red": RED_HAND, "blue": BLUE_HAND, "yellow": ["Flare:Sorcerer"] + ["C"] * 6},
                 destiny=["blue.1"], first="red", options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.use("yellow", "card:Flare:Sorcerer")
    assert g.state["players"]["red"]["powers"] == ["Macron"]
    assert g.state["players"]["blue"]["powers"] == ["Filch"]
    g.play("red", "A10")
    g.play("blue", "A10")
    # before the trade: 10 + 4 against 10 + 4 x 4 = 26; now red's four tokens count 16
    assert g.outcome["totals"] == {"offense": 26, "defense": 14}
    assert g.outcome["winner"] == "offense"


def test_sorcerer_super_lets_the_sorcerer_switch_the_cards_as_an_ally():
    g = red_attacks_blue("Filch", "Clone", "Sorcerer",
                         {"red": RED_HAND, "blue": BLUE_HAND, "yellow": ["Flare:Sorcerer"] + ["C"] * 6},
                         options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.play("red", "A4")
    g.play("blue", "A20")
    g.use("yellow", "card:Flare:Sorcerer")
    assert g.state["committed"] == {"offense": ["A20.1"], "defense": ["A4.1"]}
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 25, "defense": 8}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4, "yellow": 1}
