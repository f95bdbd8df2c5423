"""Anti-Matter: the lower total wins and the Anti-Matter's allies subtract (RULES.md 6)."""

from tests.engine.scenarios import flare_scenario

RED_HAND = ["A10", "A4", "A5", "A6", "A7", "A8", "Flare:Anti-Matter"]
BLUE_HAND = ["A15", "A10", "A5", "C", "C", "C", "C"]
ZAPPER = ["CosmicZap", "A6", "A7", "A8", "A9", "C", "C"]


def scenario(red_power="Anti-Matter", yellow_power="Mind", yellow_hand=None, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    return flare_scenario(red_power, RED_HAND, BLUE_HAND, yellow_power, yellow_hand, **kw)


def allied_attack_10_against_15(g):
    """Red sends 2 tokens and yellow joins it with 4; red plays Attack 10, blue Attack 15."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 4})
    g.play("red", "A10")
    g.play("blue", "A15")


def test_anti_matter_power_allies_subtract_and_the_lower_total_wins():
    g = scenario()
    allied_attack_10_against_15(g)
    outcome = g.resolved()
    # 10 + 2 - 4 = 8 against 15 + 4 = 19: the lower wins (normally 16 would lose to 19)
    assert outcome["totals"] == {"offense": 8, "defense": 19}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2, "yellow": 4}
    assert g.warp("blue") == 4


def test_anti_matter_off_when_cosmic_zapped():
    g = scenario(yellow_hand=ZAPPER)
    g.use("yellow", "card:CosmicZap", {"target": "red:Anti-Matter"})
    allied_attack_10_against_15(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 19}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 2 and g.warp("yellow") == 4


def test_anti_matter_off_by_power_loss():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    allied_attack_10_against_15(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 19}
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}


def test_anti_matter_wild_makes_the_lower_total_win():
    g = scenario(red_power="Mind", yellow_power="Anti-Matter")
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    g.use("red", "card:Flare:Anti-Matter")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}


def test_anti_matter_super_subtracts_the_anti_matters_own_tokens():
    g = scenario()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A5")
    g.use("red", "card:Flare:Anti-Matter")
    outcome = g.resolved()
    # 10 - 4 = 6 against 5 + 4 = 9: lower wins (with the power alone 14 against 9 would lose)
    assert outcome["totals"] == {"offense": 6, "defense": 9}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_allied_on_both_sides():
    """An ffg game: red (Anti-Matter) with 2 ships and yellow's 1 against blue's 4 on blue-2 and green's 2."""
    from engine.scenario import Scenario

    g = Scenario(players=4, powers={"red": ["Anti-Matter"], "blue": ["Filch"], "yellow": ["Clone"],
                                    "green": ["Mind"]},
                 hands={"red": ["A10", "A4", "A5", "A6"], "blue": ["A15", "A1", "N", "N"]},
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", ["green"])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.join("green", "defense", {"green-0": 2})
    g.play("red", "A10")
    g.play("blue", "A15")
    return g


def test_anti_matter_ffg_own_and_every_allied_ship_subtracts_and_the_lower_total_wins():
    g = ffg_allied_on_both_sides()
    outcome = g.resolved()
    # offense: 10 - 2 (red's own) - 1 (yellow) = 7; defense: 15 + 4 (blue's own) - 2 (green, an ally) = 17
    assert outcome["totals"] == {"offense": 7, "defense": 17}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2, "yellow": 1}
    assert g.warp("blue") == 4 and g.warp("green") == 2 and g.warp("red") == 0
