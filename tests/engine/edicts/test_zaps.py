"""Cosmic Zap and Card Zap cancel what they target, in timing order (RULES.md 5, 6)."""

from tests.engine.scenarios import red_attacks_blue

OFFENSE = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
DEFENSE = ["A1", "A11", "C", "C", "C", "C", "C"]


def zap_game(yellow_hand, red_hand=None, red_power="Mind", blue_hand=None, options=None, **kw):
    hands = {"red": red_hand or OFFENSE, "blue": blue_hand or DEFENSE, "yellow": yellow_hand}
    return red_attacks_blue(red_power, "Filch", "Mutant", hands, options={"edicts": True, **(options or {})},
                            **kw)


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


def test_cosmic_zap_answering_a_sorcerers_switch_keeps_the_cards_where_they_were():
    g = zap_game(["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"], red_power="Sorcerer",
                 red_hand=["A4", "A5", "A6", "A7", "A8", "A9", "C"], blue_hand=["A12", "C", "C", "C", "C", "C", "C"])
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A12")
    g.use("red", "power:Sorcerer")
    g.use("yellow", "card:CosmicZap")
    g.pass_windows()
    # switched, red would have revealed the 12: 15 against 8; zapped, 4 + 3 = 7 against 12 + 4 = 16
    assert g.outcome["totals"] == {"offense": 7, "defense": 16}
    assert g.outcome["winner"] == "defense"
    assert g.warp("red") == 3 and g.tokens("blue-2") == {"blue": 4}


def test_card_zap_cancels_emotion_control_and_the_attack_still_wins():
    g = zap_game(["EmotionControl", "A4", "A5", "A6", "A7", "A8", "A9"],
                 blue_hand=["A1", "CardZap", "C", "C", "C", "C", "C"])
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A1")
    g.use("yellow", "card:EmotionControl")
    # blue answers before the edict takes effect: the Emotion Control is cancelled and discarded
    g.use("blue", "card:CardZap")
    g.pass_windows()
    cancelled = [e["payload"]["target"]["ability"] for e in g.log if e["type"] == "UseCancelled"]
    assert cancelled == ["card:EmotionControl.1"]
    assert {"EmotionControl.1", "CardZap.1"} <= set(g.state["discard"])
    # without the zap both cards would have been Compromises (a deal); now 10 + 3 beats 1 + 4
    assert g.outcome["kind"] == "attack"
    assert g.outcome["totals"] == {"offense": 13, "defense": 5}
    assert g.tokens("blue-2") == {"red": 3} and g.warp("blue") == 4


def test_card_zap_cancels_a_flare_as_it_is_played():
    g = zap_game(["CardZap", "A4", "A5", "A6", "A7", "A8", "A9"],
                 red_hand=["A11", "Flare:Macron", "A5", "A6", "A7", "A9", "A10"],
                 blue_hand=["A12", "C", "C", "C", "C", "C", "C"], options={"flares": True})
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A11")
    g.play("blue", "A12")
    g.use("red", "card:Flare:Macron")  # Wild: one of red's tokens would count 4, 17 against 16
    g.use("yellow", "card:CardZap")
    g.pass_windows()
    assert "Flare:Macron" in g.state["discard"]
    assert not [e for e in g.log if e["type"] == "EffectAdded"]
    # cancelled: 11 + 3 = 14 against 12 + 4 = 16
    assert g.outcome["totals"] == {"offense": 14, "defense": 16}
    assert g.outcome["winner"] == "defense"
