"""Virus: the Attack card is multiplied by the Virus's own tokens; allies still add (RULES.md 6)."""

from tests.engine.scenarios import flare_scenario

RED_HAND = ["A8", "A4", "A5", "A6", "A7", "A9", "Flare:Virus"]
BLUE_HAND = ["A10", "C", "C", "C", "C", "C", "C"]
ZAPPER = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]


def scenario(red_power="Virus", yellow_power="Mind", yellow_hand=None, **kw):
    """Red is the offense against blue's planet blue-2 (4 blue tokens); blue holds an Attack 10."""
    return flare_scenario(red_power, RED_HAND, BLUE_HAND, yellow_power, yellow_hand, **kw)


def attack_8_against_10(g, ally_tokens=0):
    """Red sends 3 tokens (yellow joins with ``ally_tokens``), red plays Attack 8, blue Attack 10."""
    g.launch({"red-0": 3}, "blue-2")
    if ally_tokens:
        g.invite("red", ["yellow"])
        g.invite("blue", [])
        g.join("yellow", "offense", {"yellow-0": ally_tokens})
    else:
        g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A10")


def test_virus_power_multiplies_the_attack_by_its_tokens_and_wins():
    g = scenario()
    attack_8_against_10(g)
    outcome = g.resolved()
    # without the power 8 + 3 = 11 would lose to 10 + 4 = 14; infected, 8 x 3 = 24
    assert outcome["totals"] == {"offense": 24, "defense": 14}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3}
    assert g.warp("blue") == 4


def test_virus_power_allies_tokens_add_and_do_not_multiply():
    g = scenario()
    attack_8_against_10(g, ally_tokens=2)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8 * 3 + 2, "defense": 14}
    assert g.tokens("blue-2") == {"red": 3, "yellow": 2}


def test_virus_off_by_power_loss_the_tokens_just_add():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})  # two home bases left: power lost
    g.regroup("red", None)
    attack_8_against_10(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 11, "defense": 14}
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}
    assert g.warp("red") == 12 + 3


def test_virus_off_when_cosmic_zapped():
    g = scenario(yellow_hand=ZAPPER)
    g.use("yellow", "card:CosmicZap", {"target": "red:Virus"})
    attack_8_against_10(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 11, "defense": 14}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 3


def test_virus_wild_infects_another_players_attack():
    g = scenario(red_power="Mind", yellow_power="Virus")  # yellow's Virus is not in the challenge
    attack_8_against_10(g)
    assert g.abilities("red") == ["card:Flare:Virus"]
    g.use("red", "card:Flare:Virus")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 24, "defense": 14}
    assert outcome["winner"] == "offense"
    assert "Flare:Virus" in g.state["discard"]


def test_virus_super_lets_the_allies_tokens_multiply_too():
    g = scenario()
    attack_8_against_10(g, ally_tokens=2)
    g.use("red", "card:Flare:Virus")
    outcome = g.resolved()
    # every token on the offense side multiplies: 8 x (3 + 2), none of them adds
    assert outcome["totals"] == {"offense": 40, "defense": 14}
    assert g.tokens("blue-2") == {"red": 3, "yellow": 2}
