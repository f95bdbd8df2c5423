"""Spiff crash-lands after losing by 10 or more; its flares keep a beaten defense on its planet, or lower the bar."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A1", "A10", "A4", "A5", "A6", "A7", "A9"]
BLUE = ["A20", "A14", "C", "C", "C", "C", "C"]


def game(red_power="Spiff", blue_power="Filch", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, **(hands or {})}
    return red_attacks_blue(red_power, blue_power, "Mutant", stacked, **kw)


def red_attacks(g, red_card, blue_card, before_cards=None):
    challenge(g, red_card, blue_card, red_tokens=2, after_launch=before_cards)
    return g.resolved()


def test_spiff_power_crash_lands_after_losing_by_ten_or_more():
    g = game()
    result = red_attacks(g, "A1", "A20")
    assert result["totals"] == {"offense": 3, "defense": 24}
    assert result["winner"] == "defense"
    assert g.warp("red") == 2
    g.use("red", "power:Spiff", {"from": "warp"})
    assert g.tokens("blue-2") == {"blue": 4, "red": 1}
    assert g.warp("red") == 1


def test_spiff_power_is_not_offered_after_a_narrow_loss():
    g = game()
    red_attacks(g, "A10", "A14")  # 12 against 18: lost by 6
    assert "power:Spiff" not in g.abilities("red")
    assert g.tokens("blue-2") == {"blue": 4}
    assert g.warp("red") == 2


def test_spiff_off_when_cosmic_zapped_the_tokens_stay_in_the_warp():
    g = game(hands={"yellow": ["CosmicZap", "A5", "A6", "A7", "A8", "A9", "A10"]}, options={"edicts": True})
    red_attacks(g, "A1", "A20", lambda g: g.use("yellow", "card:CosmicZap", {"target": "red:Spiff"}))
    assert "power:Spiff" not in g.abilities("red")
    assert g.tokens("blue-2") == {"blue": 4}
    assert g.warp("red") == 2


def test_spiff_wild_keeps_one_defending_token_on_the_planet():
    g = game(red_power="Mind", hands={"red": ["A20", "A4", "A5", "A6", "A7", "A9", "A10"],
                                      "blue": ["A1", "Flare:Spiff", "C", "C", "C", "C", "C"]},
             options={"flares": True})
    result = red_attacks(g, "A20", "A1")
    assert result["winner"] == "offense"
    assert g.warp("blue") == 4
    g.use("blue", "card:Flare:Spiff")
    assert g.tokens("blue-2") == {"red": 2, "blue": 1}
    assert g.warp("blue") == 3


def test_spiff_super_crash_lands_after_losing_by_five():
    g = game(hands={"red": ["A10", "Flare:Spiff", "A4", "A5", "A6", "A7", "A9"]}, options={"flares": True})
    result = red_attacks(g, "A10", "A14")
    assert result["totals"] == {"offense": 12, "defense": 18}
    # lost by 6: the power is not offered until the Super Flare lowers the bar to 5
    assert g.abilities("red") == ["card:Flare:Spiff"]
    g.use("red", "card:Flare:Spiff")
    g.use("red", "power:Spiff", {"from": "warp"})
    assert g.tokens("blue-2") == {"blue": 4, "red": 1}
    assert g.warp("red") == 1
