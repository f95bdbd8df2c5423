"""Pacifist: a Compromise played against an Attack wins the challenge (RULES.md 6)."""

from tests.engine.scenarios import challenge, flare_scenario

RED_HAND = ["C", "A4", "A5", "A6", "A7", "A8", "Flare:Pacifist"]
BLUE_HAND = ["A10", "C", "A9", "A11", "A12", "A13", "A14"]
ZAPPER = ["CosmicZap", "A6", "A7", "A8", "A9", "C", "C"]


def scenario(red_power="Pacifist", yellow_power="Mind", yellow_hand=None, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    return flare_scenario(red_power, RED_HAND, BLUE_HAND, yellow_power, yellow_hand, **kw)


def compromise_against(g, blue_card="A10"):
    challenge(g, "C", blue_card, red_tokens=4)


def test_pacifist_power_compromise_beats_attack():
    g = scenario()
    compromise_against(g)
    outcome = g.resolved()
    assert outcome["winner"] == "offense"
    assert outcome["consolation"] is None
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4
    assert len(g.hand("red")) == 6 and len(g.hand("blue")) == 6  # no card changed hands


def test_pacifist_off_when_cosmic_zapped_the_compromise_loses_with_consolation():
    g = scenario(yellow_hand=ZAPPER)
    g.use("yellow", "card:CosmicZap", {"target": "red:Pacifist"})
    compromise_against(g)
    outcome = g.resolved()
    assert outcome["winner"] == "defense"
    assert outcome["consolation"] == {"player": "red", "from": "blue", "count": 4, "lost_tokens": True}
    assert g.warp("red") == 4
    assert len(g.hand("red")) == 6 + 4 and len(g.hand("blue")) == 6 - 4


def test_pacifist_off_by_power_loss():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    compromise_against(g)
    outcome = g.resolved()
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}


def test_pacifist_wild_turns_the_compromise_into_attack_15():
    g = scenario(red_power="Chronos", yellow_power="Pacifist")
    compromise_against(g)
    g.use("red", "card:Flare:Pacifist")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 19, "defense": 14}
    assert outcome["winner"] == "offense"
    assert outcome["consolation"] is None
    assert g.tokens("blue-2") == {"red": 4}


def test_pacifist_super_a_failed_deal_costs_two_fewer_and_the_opponent_two_more():
    g = scenario()
    compromise_against(g, blue_card="C")
    g.use("red", "card:Flare:Pacifist")
    g.pass_windows()
    g.give_up("red")
    g.give_up("blue")
    g.lose("red", {"cone:offense": 1})  # 3 - 2 = 1 token
    g.lose("blue", {"blue-0": 4, "blue-1": 1})  # 3 + 2 = 5 tokens
    assert g.warp("red") == 1
    assert g.warp("blue") == 5
