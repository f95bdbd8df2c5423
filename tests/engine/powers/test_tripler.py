"""Tripler: an Attack of 10 or less counts triple, above 10 a third rounded up (RULES.md 6)."""

from tests.engine.scenarios import challenge, red_attacks_blue

ZAPPER = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]


def scenario(red_power="Mind", blue_power="Filch", yellow_power="Mind", red_hand=None, blue_hand=None,
             yellow_hand=None, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    hands = {"red": red_hand or ["A8", "A12", "A4", "A5", "A6", "A7", "Flare:Tripler"],
             "blue": blue_hand or ["A20", "A10", "C", "C", "C", "C", "C"]}
    return red_attacks_blue(red_power, blue_power, yellow_power, hands, yellow_hand,
                            options={"flares": True, "edicts": bool(yellow_hand)}, **kw)


def test_tripler_power_triples_a_small_attack():
    g = scenario(red_power="Tripler")
    challenge(g, "A8", "A20", red_tokens=2)
    outcome = g.resolved()
    # 8 counts 24: 24 + 2 against 20 + 4 (without the power 10 against 24)
    assert outcome["totals"] == {"offense": 26, "defense": 24}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2}


def test_tripler_power_cuts_a_big_attack_to_a_third_rounded_up():
    g = scenario(blue_power="Tripler", red_hand=["A12", "A4", "A5", "A6", "A7", "A8", "A9"])
    challenge(g, "A12", "A20", red_tokens=4)
    outcome = g.resolved()
    # blue's 20 counts 7: 7 + 4 = 11 against 12 + 4 = 16 (without the power blue would win 24 to 16)
    assert outcome["totals"] == {"offense": 16, "defense": 11}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4


def test_tripler_off_by_power_loss():
    g = scenario(red_power="Tripler", tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    challenge(g, "A8", "A20", red_tokens=2)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 10, "defense": 24}
    assert outcome["winner"] == "defense"


def test_tripler_off_when_cosmic_zapped():
    g = scenario(blue_power="Tripler", yellow_hand=ZAPPER, red_hand=["A12", "A4", "A5", "A6", "A7", "A8", "A9"])
    g.use("yellow", "card:CosmicZap", {"target": "blue:Tripler"})
    challenge(g, "A12", "A20", red_tokens=4)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 24}
    assert outcome["winner"] == "defense"


def test_tripler_wild_divides_the_opponents_big_attack():
    g = scenario(yellow_power="Tripler", red_hand=["A12", "A4", "A5", "A6", "A7", "A8", "Flare:Tripler"])
    challenge(g, "A12", "A20", red_tokens=4)
    g.use("red", "card:Flare:Tripler", {"side": "defense"})
    outcome = g.resolved()
    # blue's 20 follows the Tripler's rule: 7 + 4 = 11 against 16
    assert outcome["totals"] == {"offense": 16, "defense": 11}
    assert outcome["winner"] == "offense"
    assert "Flare:Tripler" in g.state["discard"]


def test_tripler_super_triples_an_attack_above_ten():
    g = scenario(red_power="Tripler", blue_hand=["A10", "C", "C", "C", "C", "C", "C"])
    challenge(g, "A12", "A10", red_tokens=4)
    g.use("red", "card:Flare:Tripler")
    outcome = g.resolved()
    # the power alone would make 12 count 4 (8 against 14); the Super makes it 36
    assert outcome["totals"] == {"offense": 40, "defense": 14}
    assert outcome["winner"] == "offense"
