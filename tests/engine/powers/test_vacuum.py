"""Vacuum drags other players' tokens into the warp along with its own; its flares lend or double the pull."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]
YELLOW = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def game(blue_power="Vacuum", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return red_attacks_blue("Mind", blue_power, "Mutant", stacked, **kw)


def blue_loses_blue_2(g, before_cards=None):
    """Red attacks blue-2 (4 blue tokens) with two tokens and an Attack 20 against an Attack 1."""
    challenge(g, "A20", "A1", red_tokens=2, after_launch=before_cards)
    return g.resolved()


def test_vacuum_power_pulls_as_many_tokens_of_its_choice_into_the_warp():
    g = game()
    assert blue_loses_blue_2(g)["winner"] == "offense"
    assert g.warp("blue") == 4
    prompt = g.owe("blue", "vacuum")
    assert prompt["info"]["count"] == 4
    g.answer("blue", "vacuum", "pull", {"tokens": {"red-1/red": 3, "yellow-0/yellow": 1}})
    assert g.warp("red") == 3 and g.warp("yellow") == 1
    assert g.tokens("red-1") == {"red": 1}
    assert g.tokens("yellow-0") == {"yellow": 3}
    assert g.tokens("blue-2") == {"red": 2}


def test_vacuum_power_pull_does_not_set_off_another_pull():
    # both blue and yellow hold Vacuum's effect: yellow's pulled tokens must not pull again
    g = game(hands={"yellow": ["Flare:Vacuum", "A5", "A6", "A7", "A8", "A9", "A10"]}, options={"flares": True})
    blue_loses_blue_2(g, lambda g: g.use("yellow", "card:Flare:Vacuum"))
    g.answer("blue", "vacuum", "pull", {"tokens": {"yellow-1/yellow": 4}})
    assert g.warp("yellow") == 4
    assert not g.prompts("yellow") or g.prompts("yellow")[0]["kind"] != "vacuum"
    assert g.warp("red") == 0


def test_vacuum_off_when_cosmic_zapped_nobody_follows_it_into_the_warp():
    g = game(hands={"yellow": ["CosmicZap", "A5", "A6", "A7", "A8", "A9", "A10"]}, options={"edicts": True})
    blue_loses_blue_2(g, lambda g: g.use("yellow", "card:CosmicZap", {"target": "blue:Vacuum"}))
    assert g.warp("blue") == 4
    assert not [p for p in g.prompts() if p["kind"] == "vacuum"]
    assert g.warp("red") == 0 and g.warp("yellow") == 0


def test_vacuum_off_after_power_loss():
    g = game(tokens={"blue-0": {}, "blue-1": {}})  # blue-2, blue-3, blue-4 left: three home bases
    blue_loses_blue_2(g)  # losing blue-2 leaves two: the power is lost before the pull
    assert g.warp("blue") == 12
    assert not [p for p in g.prompts() if p["kind"] == "vacuum"]
    assert g.warp("red") == 0 and g.warp("yellow") == 0


def test_vacuum_wild_lets_a_losing_ally_pull_tokens_along():
    g = game(blue_power="Filch", hands={"red": ["A1", "A4", "A5", "A6", "A7", "A9", "A10"],
                                        "blue": ["A20", "C", "C", "C", "C", "C", "C"],
                                        "yellow": ["Flare:Vacuum", "A5", "A6", "A7", "A8", "A9", "A10"]},
             options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 2})
    g.use("yellow", "card:Flare:Vacuum")
    g.play("red", "A1")
    g.play("blue", "A20")
    assert g.resolved()["winner"] == "defense"
    g.answer("yellow", "vacuum", "pull", {"tokens": {"blue-0/blue": 2}})
    assert g.warp("yellow") == 2 and g.warp("red") == 2
    assert g.warp("blue") == 2
    assert g.tokens("blue-0") == {"blue": 2}


def test_vacuum_super_pulls_two_tokens_for_each_lost():
    g = game(hands={"blue": ["A1", "Flare:Vacuum", "A8", "A11", "A12", "A13", "A14"]}, options={"flares": True})
    blue_loses_blue_2(g, lambda g: g.use("blue", "card:Flare:Vacuum"))
    assert g.owe("blue", "vacuum")["info"]["count"] == 8
    g.answer("blue", "vacuum", "pull", {"tokens": {"red-1/red": 4, "yellow-0/yellow": 4}})
    assert g.warp("red") == 4 and g.warp("yellow") == 4
    assert g.warp("blue") == 4
    assert "red" not in g.tokens("red-1") and "yellow" not in g.tokens("yellow-0")


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_game():
    from engine.scenario import Scenario

    return Scenario(players=3, powers={"red": ["Mind"], "blue": ["Vacuum"], "yellow": ["Mutant"]},
                    hands={"red": ["A20", "A4"], "blue": ["A1", "N"]}, exact_hands=True,
                    destiny=["blue.1"], first="red", ruleset="ffg")


def test_vacuum_ffg_names_players_up_to_its_loss_and_each_chooses_its_colonies():
    g = ffg_game()
    assert blue_loses_blue_2(g)["winner"] == "offense"
    prompt = g.owe("blue", "vacuum")
    assert prompt["info"]["count"] == 4
    shape = prompt["options"][0]["args"]["tokens"]
    # players (red counts its 2 ships just landed on blue-2), up to 4 in all
    assert shape["sources"] == {"red": 20, "yellow": 20} and shape["min"] == 0
    g.answer("blue", "vacuum", "pull", {"tokens": {"red": 2, "yellow": 1}})  # fewer than 4: allowed
    g.lose("red", {"red-3": 2})  # red chooses its colonies
    g.lose("yellow", {"yellow-4": 1})
    assert g.warp("red") == 2 and g.warp("yellow") == 1 and g.warp("blue") == 4
    assert g.tokens("red-3") == {"red": 2} and g.tokens("yellow-4") == {"yellow": 3}


def test_vacuum_ffg_may_take_nobody_along():
    g = ffg_game()
    blue_loses_blue_2(g)
    g.answer("blue", "vacuum", "pull", {"tokens": {}})
    g.pass_windows()
    assert g.warp("red") == 0 and g.warp("yellow") == 0 and g.warp("blue") == 4
