"""Mirror: a reversal called before the reveal swaps the digits of the revealed Attacks (RULES.md 6)."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED_HAND = ["A8", "A12", "C", "A4", "A5", "A6", "Flare:Mirror"]
BLUE_HAND = ["A20", "A30", "A10", "C", "C", "C", "C"]


def scenario(red_power="Mirror", yellow_power="Mind", **kw):
    """Red is the offense against blue-2 (4 blue tokens unless ``tokens`` says otherwise)."""
    return red_attacks_blue(red_power, "Filch", yellow_power, {"red": RED_HAND, "blue": BLUE_HAND},
                            options={"flares": True}, **kw)


def test_mirror_power_reversal_swaps_the_digits_of_both_attacks():
    g = scenario()
    challenge(g, "A8", "A20", red_tokens=4)
    assert g.abilities("red") == ["power:Mirror", "card:Flare:Mirror"]
    g.use("red", "power:Mirror")
    outcome = g.resolved()
    # 08 counts 80 and 20 counts 02: 84 against 6 (normally 12 against 24)
    assert outcome["totals"] == {"offense": 84, "defense": 6}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4


def test_mirror_off_by_power_loss():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    challenge(g, "A8", "A20", red_tokens=4)
    assert "power:Mirror" not in g.abilities("red")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 12, "defense": 24}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 12 + 4


def test_mirror_wild_copies_the_opponents_card():
    g = scenario(red_power="Chronos", yellow_power="Mirror", tokens={"blue-2": {"blue": 2}})
    challenge(g, "C", "A10", red_tokens=4)
    g.use("red", "card:Flare:Mirror")
    outcome = g.resolved()
    # red's Compromise becomes an Attack 10: 10 + 4 against 10 + 2
    assert outcome["cards"] == {"offense": "attack", "defense": "attack"}
    assert outcome["totals"] == {"offense": 14, "defense": 12}
    assert outcome["winner"] == "offense"
    assert outcome["consolation"] is None
    assert g.tokens("blue-2") == {"red": 4}


def test_mirror_super_reverses_only_the_opponents_card():
    g = scenario()
    challenge(g, "A12", "A30", red_tokens=4)
    g.use("red", "card:Flare:Mirror", {"card": "opponent"})
    outcome = g.resolved()
    # only blue's 30 reads 03; red's 12 stays 12 (a full reversal would make it 21)
    assert outcome["totals"] == {"offense": 16, "defense": 7}
    assert outcome["winner"] == "offense"
    assert "Flare:Mirror" in g.state["discard"]
