"""Human: +4 to its side; if a Cosmic Zap cancels the power, the Human's side wins (RULES.md 6)."""

from tests.engine.scenarios import challenge, flare_scenario

RED_HAND = ["A10", "A1", "C", "A4", "A5", "A6", "Flare:Human"]
BLUE_HAND = ["A12", "A20", "A10", "A15", "A8", "C", "C"]
ZAPPER = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]


def scenario(red_power="Human", yellow_power="Mind", yellow_hand=None, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    return flare_scenario(red_power, RED_HAND, BLUE_HAND, yellow_power, yellow_hand, **kw)


def test_human_power_adds_four_to_its_side():
    g = scenario()
    challenge(g, "A10", "A12")
    outcome = g.resolved()
    # 10 + 3 + 4 = 17 against 12 + 4 = 16 (without the power 13 would lose)
    assert outcome["totals"] == {"offense": 17, "defense": 16}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3}


def test_human_power_adds_four_as_an_ally():
    g = scenario(red_power="Mind", yellow_power="Human")
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 1})
    g.play("red", "A10")
    g.play("blue", "A8")
    outcome = g.resolved()
    # 8 + 4 + yellow's token 1 + 4 = 17 against 10 + 4 = 14 (without the power 13 would lose to 14)
    assert outcome["totals"] == {"offense": 14, "defense": 17}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 4
    assert g.tokens("blue-2") == {"blue": 4}


def test_human_power_zapped_its_side_wins():
    g = scenario(yellow_hand=ZAPPER)
    g.use("yellow", "card:CosmicZap", {"target": "red:Human"})
    challenge(g, "A1", "A20", red_tokens=1)
    outcome = g.resolved()
    # the totals say 2 against 24, but a zapped Human's side wins
    assert outcome["totals"] == {"offense": 2, "defense": 24}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}
    assert g.warp("blue") == 4


def test_human_off_by_power_loss():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    challenge(g, "A10", "A12")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 13, "defense": 16}
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}


def test_human_wild_turns_a_compromise_into_attack_42_and_goes_to_the_human():
    g = scenario(red_power="Mind", yellow_power="Human")
    challenge(g, "C", "A10")
    g.use("red", "card:Flare:Human")
    outcome = g.resolved()
    assert outcome["cards"] == {"offense": "attack", "defense": "attack"}
    assert outcome["totals"] == {"offense": 45, "defense": 14}
    assert outcome["winner"] == "offense"
    assert outcome["consolation"] is None
    assert "Flare:Human" in g.hand("yellow")


def test_human_super_adds_eight_instead_of_four():
    g = scenario()
    challenge(g, "A10", "A15")
    g.use("red", "card:Flare:Human", {"effect": "add_8"})
    outcome = g.resolved()
    # 10 + 3 + 8 = 21 against 19 (17 with the power alone)
    assert outcome["totals"] == {"offense": 21, "defense": 19}
    assert outcome["winner"] == "offense"


def test_human_super_zaps_its_own_power_and_its_side_wins():
    g = scenario()
    challenge(g, "A1", "A20", red_tokens=1)
    g.use("red", "card:Flare:Human", {"effect": "zap_self"})
    outcome = g.resolved()
    zapped = [e["payload"] for e in g.log if e["type"] == "PowerZapped"]
    assert zapped == [{"player": "red", "target": "red", "power": "Human"}]
    assert outcome["totals"] == {"offense": 2, "defense": 24}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}
