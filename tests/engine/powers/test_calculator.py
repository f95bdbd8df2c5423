"""Calculator: an equalizer declared before the reveal cuts the higher Attack by the lower (RULES.md 6)."""

from tests.engine.scenarios import red_attacks_blue

RED_HAND = ["A12", "A4", "A5", "A6", "A7", "A8", "Flare:Calculator"]
BLUE_HAND = ["A20", "C", "C", "C", "C", "C", "C"]


def scenario(red_power="Calculator", yellow_power="Mind", red_hand=RED_HAND, yellow_hand=None, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    hands = {"red": red_hand, "blue": BLUE_HAND}
    return red_attacks_blue(red_power, "Filch", yellow_power, hands, yellow_hand, options={"flares": True}, **kw)


def attack_12_against_20(g, ally=False):
    g.launch({"red-0": 4}, "blue-2")
    if ally:
        g.invite("red", ["yellow"])
        g.invite("blue", [])
        g.join("yellow", "offense", {"yellow-0": 1})
    else:
        g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A20")


def test_calculator_power_equalizer_cuts_the_higher_attack():
    g = scenario()
    attack_12_against_20(g)
    assert g.abilities("red") == ["power:Calculator"]
    g.use("red", "power:Calculator")
    outcome = g.resolved()
    # blue's 20 becomes 20 - 12 = 8: 12 + 4 = 16 against 8 + 4 = 12 (normally 16 against 24)
    assert outcome["totals"] == {"offense": 16, "defense": 12}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4


def test_calculator_off_by_power_loss():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    attack_12_against_20(g)
    assert "power:Calculator" not in g.abilities("red")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 24}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 12 + 4


def test_calculator_wild_called_right_cuts_the_opponents_attack():
    g = scenario(red_power="Chronos", yellow_power="Calculator")
    attack_12_against_20(g)
    g.use("red", "card:Flare:Calculator", {"call": "even"})  # 12 + 20 = 32: even
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 12}
    assert outcome["winner"] == "offense"


def test_calculator_wild_called_wrong_cuts_the_players_own_attack():
    g = scenario(red_power="Chronos", yellow_power="Calculator")
    attack_12_against_20(g)
    g.use("red", "card:Flare:Calculator", {"call": "odd"})
    outcome = g.resolved()
    # red's 12 is reduced by blue's 20, never below 0: 0 + 4 against 24
    assert outcome["totals"] == {"offense": 4, "defense": 24}
    assert outcome["winner"] == "defense"


def test_calculator_super_declares_the_equalizer_as_an_ally():
    g = scenario(red_power="Mind", yellow_power="Calculator", red_hand=RED_HAND[:-1] + ["A9"],
                 yellow_hand=["Flare:Calculator", "A6", "A7", "A8", "A9", "C", "C"])
    attack_12_against_20(g, ally=True)
    assert g.abilities("yellow") == ["card:Flare:Calculator"]
    g.use("yellow", "card:Flare:Calculator")
    outcome = g.resolved()
    # 12 + 4 + yellow's 1 = 17 against 8 + 4 = 12
    assert outcome["totals"] == {"offense": 17, "defense": 12}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4, "yellow": 1}
