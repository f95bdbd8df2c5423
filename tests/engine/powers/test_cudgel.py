"""Cudgel makes a beaten opponent lose one more token per Cudgel token; its flares clear a planet or hit allies."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]


def game(red_power="Cudgel", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, **(hands or {})}
    return red_attacks_blue(red_power, "Filch", "Mutant", stacked, **kw)


def red_wins_with_three(g, blue_card="A1", before_cards=None, allies=None):
    """Red attacks blue-2 with three tokens and an Attack 20."""
    g.launch({"red-0": 3}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"] if allies else [])
    if allies:
        g.join("yellow", "defense", allies)
    if before_cards:
        before_cards(g)
    g.play("red", "A20")
    g.play("blue", blue_card)
    return g.resolved()


def test_cudgel_power_makes_the_loser_lose_three_more_of_its_choice():
    g = game()
    result = red_wins_with_three(g)
    assert result["winner"] == "offense"
    prompt = g.owe("blue", "choose_losses")
    assert prompt["info"]["count"] == 3
    g.lose("blue", {"blue-0": 2, "blue-4": 1})
    assert g.warp("blue") == 4 + 3
    assert g.tokens("blue-0") == {"blue": 2} and g.tokens("blue-4") == {"blue": 3}
    assert g.tokens("blue-2") == {"red": 3}


def test_cudgel_power_also_works_against_a_compromise():
    g = game()
    red_wins_with_three(g, blue_card="C")
    g.lose("blue", {"blue-1": 3})
    assert g.warp("blue") == 7


def test_cudgel_off_after_power_loss_the_loser_loses_only_its_defenders():
    g = game(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps two home bases
    g.regroup("red", None)
    result = red_wins_with_three(g)
    assert result["winner"] == "offense"
    assert not [p for p in g.prompts() if p["kind"] == "choose_losses"]
    assert g.warp("blue") == 4
    assert g.tokens("blue-0") == {"blue": 4}


def test_cudgel_wild_sends_everyone_else_on_the_taken_planet_to_the_warp():
    # yellow has two tokens on blue-2 that take no part in the challenge
    g = game(red_power="Mind", hands={"red": ["A20", "Flare:Cudgel", "A5", "A6", "A7", "A9", "A10"]},
             tokens={"blue-2": {"blue": 4, "yellow": 2}, "yellow-4": {"yellow": 2}}, options={"flares": True})
    result = red_wins_with_three(g)
    assert result["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3, "yellow": 2}
    g.use("red", "card:Flare:Cudgel")
    assert g.tokens("blue-2") == {"red": 3}
    assert g.warp("yellow") == 2


def test_cudgel_super_smashes_the_defensive_ally_too():
    g = game(hands={"red": ["A20", "Flare:Cudgel", "A5", "A6", "A7", "A9", "A10"]}, options={"flares": True})
    red_wins_with_three(g, allies={"yellow-0": 2}, before_cards=lambda g: g.use("red", "card:Flare:Cudgel"))
    g.lose("blue", {"blue-0": 3})
    g.lose("yellow", {"yellow-1": 3})
    assert g.warp("blue") == 4 + 3
    assert g.warp("yellow") == 2 + 3
    assert g.tokens("yellow-1") == {"yellow": 1}
