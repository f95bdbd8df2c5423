"""Warpish: +1 to the Warpish's total for every token in the warp, any colour (RULES.md 6)."""

from tests.engine.scenarios import challenge, flare_scenario

WARP_8 = {"yellow-0": {}, "yellow-1": {}}  # yellow's 8 tokens from these planets start in the warp
ZAPPER = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]


def scenario(red_power="Warpish", yellow_power="Mind", yellow_hand=None, tokens=None):
    """Red is the offense against blue-2 (4 blue tokens); 8 yellow tokens are in the warp."""
    return flare_scenario(red_power, ["A8", "A4", "A5", "A6", "A7", "A9", "Flare:Warpish"],
                          ["A15", "C", "C", "C", "C", "C", "C"], yellow_power, yellow_hand,
                          tokens={**WARP_8, **(tokens or {})})


def attack_8_against_15(g):
    challenge(g, "A8", "A15", red_tokens=4)


def test_warpish_power_adds_every_token_in_the_warp():
    g = scenario()
    assert g.warp("yellow") == 8
    attack_8_against_15(g)
    outcome = g.resolved()
    # 8 + 4 + 8 in the warp = 20 against 15 + 4 = 19 (without the power 12 against 19)
    assert outcome["totals"] == {"offense": 20, "defense": 19}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4


def test_warpish_off_by_power_loss():
    # red keeps two home bases; its 12 other tokens join yellow's 8 in the warp: 20 in all
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    attack_8_against_15(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 12, "defense": 19}
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}


def test_warpish_off_when_cosmic_zapped():
    g = scenario(yellow_hand=ZAPPER)
    g.use("yellow", "card:CosmicZap", {"target": "red:Warpish"})
    attack_8_against_15(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 12, "defense": 19}
    assert outcome["winner"] == "defense"


def test_warpish_wild_draws_strength_from_the_warp():
    g = scenario(red_power="Mind", yellow_power="Warpish")
    attack_8_against_15(g)
    g.use("red", "card:Flare:Warpish")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 20, "defense": 19}
    assert outcome["winner"] == "offense"
    assert "Flare:Warpish" in g.state["discard"]


def test_warpish_super_counts_each_warp_token_twice():
    g = scenario()
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A15")
    g.use("red", "card:Flare:Warpish")
    outcome = g.resolved()
    # 4 + 1 + 2 x 8 = 21 against 19; the power alone gives 13
    assert outcome["totals"] == {"offense": 21, "defense": 19}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}
