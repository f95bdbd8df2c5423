"""Will chooses its defense whatever destiny says; its flares give the choice or leave the defense alone."""

from tests.engine.scenarios import red_attacks_blue

RED_HAND = ["A10", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A8", "A1", "C", "C", "C", "C", "C"]
YELLOW_HAND = ["A8", "A4", "C", "C", "C", "C", "C"]


def game(red_power="Will", red_hand=RED_HAND, **kw):
    blue = "Will" if red_power != "Will" else "Clone"
    return red_attacks_blue(red_power, blue, "Filch",
                            {"red": red_hand, "blue": BLUE_HAND, "yellow": YELLOW_HAND}, **kw)


def test_will_power_ignores_the_blue_destiny_card_and_challenges_yellow():
    g = game()
    choice = g.owe("red", "choose_defense")
    assert choice["info"]["card"] == "blue.1"
    assert choice["options"][0]["args"]["player"]["values"] == ["blue", "yellow"]
    g.answer("red", "choose_defense", "choose_defense", {"player": "yellow"})
    assert g.ch["defense"] == "yellow" and g.state["destiny_discard"][-1] == "blue.1"
    g.launch({"red-0": 4}, "yellow-3")
    g.invite_none()
    g.play("red", "A10")
    g.play("yellow", "A8")
    assert g.outcome["totals"] == {"offense": 14, "defense": 12}
    assert g.tokens("yellow-3") == {"red": 4} and g.warp("yellow") == 4 and g.warp("blue") == 0


def test_will_off_after_power_loss_destiny_decides_the_defense():
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    g.owe("red", "launch")
    assert g.ch["defense"] == "blue"
    assert not any(p["kind"] == "choose_defense" for p in g.prompts())


def test_will_wild_lets_the_offense_choose_its_defense_this_challenge():
    g = game(red_power="Filch", red_hand=["Flare:Will"] + RED_HAND[:6], options={"flares": True})
    g.use("red", "card:Flare:Will")  # in the start window, before destiny
    g.answer("red", "choose_defense", "choose_defense", {"player": "yellow"})
    assert g.ch["defense"] == "yellow"
    g.launch({"red-0": 4}, "yellow-1")
    g.invite_none()
    g.play("red", "A10")
    g.play("yellow", "A4")
    assert g.outcome["totals"] == {"offense": 14, "defense": 8}
    assert g.tokens("yellow-1") == {"red": 4}


def test_will_super_leaves_the_defense_without_allies():
    g = game(red_hand=["Flare:Will"] + RED_HAND[:6], options={"flares": True})
    g.answer("red", "choose_defense", "choose_defense", {"player": "blue"})
    g.use("red", "card:Flare:Will")  # in the destiny window
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.play("red", "A10")
    # yellow, invited by the defense only, was never asked: it could have added four tokens (16 > 14)
    assert not any(e["type"] == "AllianceAnswered" for e in g.log)
    g.play("blue", "A8")
    assert g.outcome["totals"] == {"offense": 14, "defense": 12}
    assert g.outcome["winner"] == "offense"


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_will_ffg_aims_at_the_chosen_players_foreign_colony_in_another_system():
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Will"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A20", "A4"], "yellow": ["A1", "N"]}, exact_hands=True,
                 tokens={"blue-3": {"blue": 4, "yellow": 2}, "yellow-4": {"yellow": 2}}, destiny=["blue.1"],
                 first="red", ruleset="ffg")
    g.answer("red", "choose_defense", "choose_defense", {"player": "yellow"})
    targets = g.owe("red", "launch")["options"][0]["args"]["planet"]["values"]
    assert targets == ["yellow-0", "yellow-1", "yellow-2", "yellow-3", "yellow-4", "blue-3"]  # Mayfair: yellow's only
    g.launch({"red-0": 4}, "blue-3")
    g.invite_none()
    g.play("red", "A20")
    g.play("yellow", "A1")
    outcome = g.resolved()
    assert outcome["winner"] == "offense" and outcome["totals"] == {"offense": 24, "defense": 3}
    # yellow's 2 ships there are beaten; blue, no party to the encounter, stays beside red
    assert g.tokens("blue-3") == {"blue": 4, "red": 4} and g.warp("yellow") == 2
