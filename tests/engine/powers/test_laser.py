"""Laser: before cards are chosen, the opponent's card is picked at random from its challenge cards."""

from engine import cards
from tests.engine.scenarios import offered, red_attacks_blue

RED = ["A12", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A40", "A1", "A4", "Flare:Mind", "Flare:Filch"]  # two Attacks worth little, one worth everything


def laser_game(red_power="Laser", red_hand=None, options=None, **kw):
    """Red attacks blue-2 with 4 tokens; blue would play its Attack 40 if it could choose."""
    yellow_power = "Laser" if red_power != "Laser" else "Mind"
    g = red_attacks_blue(red_power, "Filch", yellow_power, {"red": red_hand or RED, "blue": BLUE},
                         options={"flares": True, **(options or {})}, exact_hands=True, **kw)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    return g


def kinds(card_ids):
    return sorted(c.split(".")[0] for c in card_ids)


def test_laser_power_picks_the_opponents_card_blindly():
    g = laser_game()
    g.use("red", "power:Laser")
    picked = g.state["committed"]["defense"]
    assert len(picked) == 1 and kinds(picked)[0] in ("A40", "A1", "A4")
    # blue is not asked to choose: its card is already committed
    g.pass_windows()
    assert [p["player"] for p in g.prompts() if p["kind"] == "challenge_card"] == ["red"]
    g.play("red", "A12")
    g.pass_windows()
    value = cards.attack_value(picked[0])
    assert g.outcome["totals"] == {"offense": 16, "defense": value + 4}
    assert g.outcome["winner"] == ("offense" if 16 > value + 4 else "defense")


def test_laser_off_after_power_loss_the_opponent_chooses_freely():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = red_attacks_blue("Laser", "Filch", "Mind", {"red": RED, "blue": BLUE}, tokens=lost,
                         options={"flares": True}, exact_hands=True)
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    assert "power:Laser" not in g.abilities("red")
    g.play("red", "A12")
    g.play("blue", "A40")
    assert g.outcome["winner"] == "defense"
    assert g.outcome["totals"] == {"offense": 16, "defense": 44}


def test_laser_off_when_a_cosmic_zap_switches_it_off():
    g = red_attacks_blue("Laser", "Filch", "Mind", {"red": RED, "blue": BLUE, "yellow": ["CosmicZap", "C"]},
                         options={"flares": True, "edicts": True}, exact_hands=True)
    g.launch({"red-0": 4}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Laser"})
    g.invite_none()
    g.pass_windows()
    g.play("red", "A12")
    g.play("blue", "A40")
    assert g.outcome["winner"] == "defense"


def test_laser_wild_blasts_once_for_another_main_player():
    g = laser_game(red_power="Mind", red_hand=["Flare:Laser", "A12", "A4", "A5"])
    offered(g, "red", "card:Flare:Laser")
    g.use("red", "card:Flare:Laser")
    picked = g.state["committed"]["defense"]
    assert len(picked) == 1 and kinds(picked)[0] in ("A40", "A1", "A4")
    g.pass_windows()
    assert [p["player"] for p in g.prompts() if p["kind"] == "challenge_card"] == ["red"]
    assert "Flare:Laser" in g.state["discard"]


def test_laser_super_chooses_the_opponents_weakest_card():
    g = laser_game(red_hand=["Flare:Laser", "A12", "A4", "A5"])
    g.use("red", "card:Flare:Laser", {"card": "A1"})
    assert g.state["committed"]["defense"] == ["A1"]
    seen = [e for e in g.log if e["type"] == "HandRevealed"][-1]["payload"]
    assert seen["to"] == ["red"] and kinds(seen["cards"]) == ["A1", "A4", "A40"]
    g.play("red", "A12")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 16, "defense": 5}
    assert g.outcome["winner"] == "offense"
