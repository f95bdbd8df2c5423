"""Macron and its flares change the totals and the launch exactly as their descriptions say."""

from tests.engine.scenarios import red_attacks_blue

RED_HAND = ["A8", "A4", "A5", "A6", "A7", "A9", "Flare:Macron"]
BLUE_HAND = ["A10", "A11", "C", "C", "C", "C", "C"]


def scenario(red_power):
    return red_attacks_blue(red_power, "Filch", "Mind", {"red": RED_HAND, "blue": BLUE_HAND},
                            options={"flares": True})


def test_macron_wild_makes_one_token_count_four_and_turns_a_loss_into_a_win():
    g = scenario("Mutant")  # not Macron: the flare is Wild
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A9")
    g.play("blue", "A10")
    # without the flare: 9 + 3 = 12 against 10 + 4 = 14; with it one red token counts 4: 15
    g.use("red", "card:Flare:Macron")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 15, "defense": 14}
    assert g.outcome["winner"] == "offense"
    assert "Flare:Macron" in g.state["discard"]


def test_macron_super_lets_macron_commit_four_tokens_each_worth_four():
    g = scenario("Macron")
    g.use("red", "card:Flare:Macron")  # in the destiny window
    prompt = g.owe("red", "launch")
    assert prompt["options"][0]["args"]["tokens"]["max"] == 4
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    assert g.outcome["totals"] == {"offense": 4 + 16, "defense": 14}


def test_macron_power_commits_exactly_one_token():
    g = scenario("Macron")
    prompt = g.owe("red", "launch")
    shape = prompt["options"][0]["args"]["tokens"]
    assert (shape["min"], shape["max"]) == (1, 1)


PLAIN = ["A11", "A9", "A4", "A5", "A6", "A7", "A8"]


def test_macron_off_after_power_loss_tokens_count_one_and_up_to_four_may_be_sent():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}  # red keeps two home bases: fewer than three
    g = red_attacks_blue("Macron", "Filch", "Mind", {"red": PLAIN, "blue": BLUE_HAND}, tokens=lost)
    g.regroup("red", None)
    shape = g.owe("red", "launch")["options"][0]["args"]["tokens"]
    assert (shape["min"], shape["max"]) == (1, 4)
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A9")
    g.play("blue", "A10")
    # the normal way: 9 + 3 = 12 against 10 + 4 = 14
    assert g.outcome["totals"] == {"offense": 12, "defense": 14}
    assert g.outcome["winner"] == "defense"


def test_macron_off_when_a_cosmic_zap_switches_it_off_its_token_counts_one():
    yellow = ["CosmicZap", "A12", "A13", "A14", "C", "C", "C"]
    g = red_attacks_blue("Macron", "Filch", "Mind", {"red": PLAIN, "blue": BLUE_HAND, "yellow": yellow},
                         options={"edicts": True})
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A11")
    g.play("blue", "A10")
    g.use("yellow", "card:CosmicZap", {"target": "red:Macron"})  # once the cards are committed
    g.pass_windows()
    # Macron's token would count 4 (11 + 4 = 15 beats 14); zapped it counts 1: 12 loses to 14
    assert g.outcome["totals"] == {"offense": 12, "defense": 14}
    assert g.outcome["winner"] == "defense"
