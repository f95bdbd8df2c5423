"""Cosmic Zap and Card Zap cancel what they target, in timing order (RULES.md 5, 6)."""

from engine.scenario import Scenario

OFFENSE = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
DEFENSE = ["A1", "A11", "C", "C", "C", "C", "C"]


def zap_game(yellow_hand, red_hand=None, red_power="Mind", blue_hand=None, **kw):
    hands = {"red": red_hand or OFFENSE, "blue": blue_hand or DEFENSE, "yellow": yellow_hand}
    return Scenario(players=3, powers={"red": [red_power], "blue": ["Filch"], "yellow": ["Mutant"]},
                    hands=hands, destiny=["blue.1"], first="red", options={"edicts": True}, **kw)


def test_cosmic_zap_cancels_a_power_use_as_it_is_used():
    g = zap_game(["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"])
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "power:Mind", {"player": "blue"})
    # yellow is asked whether to respond before the look happens
    owed = g.prompts("yellow")
    assert owed and owed[0]["kind"] == "response"
    g.use("yellow", "card:CosmicZap")
    types = [e["type"] for e in g.log]
    assert "UseCancelled" in types and "HandRevealed" not in types
    assert "CosmicZap.1" in g.state["discard"]


def test_card_zap_cancels_the_cosmic_zap_and_the_power_use_goes_ahead():
    g = zap_game(["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"],
                 blue_hand=["CardZap", "A1", "A11", "C", "C", "C", "C"])
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "power:Mind", {"player": "blue"})
    g.use("yellow", "card:CosmicZap")
    g.use("blue", "card:CardZap")
    g.pass_windows()
    revealed = [e for e in g.log if e["type"] == "HandRevealed"]
    assert len(revealed) == 1 and revealed[0]["payload"]["to"] == ["red"]
    cancelled = [e["payload"]["target"]["ability"] for e in g.log if e["type"] == "UseCancelled"]
    assert cancelled == ["card:CosmicZap.1"]


def test_cosmic_zap_switches_macron_off_for_the_rest_of_the_challenge():
    g = zap_game(["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"], red_power="Macron")
    g.launch({"red-0": 1}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Macron"})
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A11")
    # Macron's token would count 4 (10 + 4 = 14 > 15? no): zapped it counts 1: 11 against 15
    assert g.outcome["totals"] == {"offense": 11, "defense": 15}
    assert g.outcome["winner"] == "defense"


def test_power_loss_switches_a_power_off_automatic_parts_included():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}  # red keeps two home bases: fewer than three
    g = zap_game(["A4", "A5", "A6", "A7", "A8", "A9", "A12"], red_power="Macron", tokens=lost)
    assert g.warp("red") == 12
    g.regroup("red", None)
    shape = g.owe("red", "launch")["options"][0]["args"]["tokens"]
    assert shape["max"] == 4  # Macron's one-token rule is off too
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A11")
    assert g.outcome["totals"]["offense"] == 11
