"""Amoeba oozes tokens into or out of the challenge once cards are chosen; its flares ooze early or as an ally."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A10", "A4", "A5", "A6", "A7", "A9", "A20"]
BLUE = ["A12", "A1", "C", "C", "C", "C", "C"]


def game(red_power="Amoeba", blue_power="Filch", yellow_power="Mutant", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, **(hands or {})}
    return red_attacks_blue(red_power, blue_power, yellow_power, stacked, **kw)


def test_amoeba_power_oozes_in_beyond_four_tokens_and_wins():
    g = game()
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A12")
    g.use("red", "power:Amoeba", {"direction": "in", "tokens": {"red-1": 4, "red-2": 2}}, ooze="in")
    result = g.resolved()
    assert result["totals"] == {"offense": 17, "defense": 16}
    assert result["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 7}
    assert g.warp("blue") == 4


def test_amoeba_power_oozes_the_defense_out_of_a_lost_cause():
    g = game(red_power="Mind", blue_power="Amoeba")
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.use("blue", "power:Amoeba", {"direction": "out", "tokens": {"blue-0": 3, "blue-1": 1}}, ooze="out")
    result = g.resolved()
    assert result["totals"] == {"offense": 24, "defense": 1}
    assert result["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 0  # nothing of blue's was left to lose
    assert g.tokens("blue-0") == {"blue": 7} and g.tokens("blue-1") == {"blue": 5}


def test_amoeba_off_after_power_loss_no_ooze_and_the_attack_fails():
    g = game(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps two home bases
    g.regroup("red", None)
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A12")
    assert "power:Amoeba" not in g.abilities("red")
    result = g.resolved()
    assert result["totals"] == {"offense": 11, "defense": 16}
    assert result["winner"] == "defense"
    assert g.warp("red") == 12 + 1


def test_amoeba_wild_oozes_in_before_the_cards_are_chosen():
    """Mayfair's Wild: a main player oozes, before the cards are chosen, beyond four tokens."""
    g = game(red_power="Chronos", hands={"red": ["A10", "Flare:Amoeba", "A5", "A6", "A7", "A9", "A4"]},
             options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.use("red", "card:Flare:Amoeba", {"direction": "in", "tokens": {"red-1": 4, "red-2": 2}}, ooze="in")
    assert g.tokens("cone:offense") == {"red": 7}
    g.play("red", "A10")
    g.play("blue", "A12")
    result = g.resolved()
    assert result["totals"] == {"offense": 17, "defense": 16}
    assert g.tokens("blue-2") == {"red": 7}


def test_amoeba_super_lets_amoeba_ooze_in_as_an_ally():
    """Mayfair's Super: the power as an ally, at the power's own time (cards chosen, not yet revealed)."""
    g = game(red_power="Mind", yellow_power="Amoeba", options={"flares": True},
             hands={"yellow": ["Flare:Amoeba", "A5", "A6", "A7", "A8", "A9", "A4"]})
    g.launch({"red-0": 1}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})
    offered_before_the_cards = []
    while not any(p["kind"] == "challenge_card" for p in g.prompts()):
        owed = g.prompts()[0]
        offered_before_the_cards += [o.get("ability") for o in owed["options"] if owed["player"] == "yellow"]
        g.command(owed["player"], "pass", prompt=owed["id"])
    assert "card:Flare:Amoeba" not in offered_before_the_cards
    g.play("red", "A10")
    g.play("blue", "A12")
    g.use("yellow", "card:Flare:Amoeba", {"direction": "in", "tokens": {"yellow-1": 4, "yellow-2": 1}}, ooze="in")
    result = g.resolved()
    assert result["totals"] == {"offense": 17, "defense": 16}
    assert result["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1, "yellow": 6}
