"""Macron and its flares change the totals and the launch exactly as their descriptions say."""

from engine.scenario import kinds
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


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_game(powers, red_hand, blue_hand):
    from engine.scenario import Scenario

    return Scenario(players=3, powers=powers, hands={"red": red_hand, "blue": blue_hand}, exact_hands=True,
                    deck=["A7", "A9", "A11", "A12"], destiny=["blue.1"], first="red", ruleset="ffg")


def test_macron_ffg_collects_two_compensation_cards_for_its_one_ship():
    g = ffg_game({"red": ["Macron"], "blue": ["Filch"], "yellow": ["Mind"]},
                 ["N", "A4", "A5"], ["A10", "A20", "A30", "A40"])
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "A10")
    g.pass_windows()
    assert g.outcome["winner"] == "defense" and g.warp("red") == 1
    taken = [e["payload"]["cards"] for e in g.log if e["type"] == "CardsMoved"
             and e["payload"]["reason"] == "consolation"]
    assert len(taken) == 1 and len(taken[0]) == 2  # Mayfair reading: 1 card for the 1 token
    assert len(g.hand("red")) == 4 and len(g.hand("blue")) == 1
    assert kinds(g.hand("red") + g.hand("blue")) == ["A20", "A30", "A4", "A40", "A5"]


def test_macron_ffg_as_a_winning_defensive_ally_takes_two_rewards_for_its_one_ship():
    g = ffg_game({"red": ["Filch"], "blue": ["Mind"], "yellow": ["Macron"]},
                 ["A4", "A5", "N"], ["A20", "N", "N", "N"])
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 1})
    g.play("red", "A4")
    g.play("blue", "A20")
    held = len(g.hand("yellow"))
    g.place("yellow", {"yellow-0": 1})  # its ship goes home; nothing of its in the warp: rewards are cards
    g.pass_windows()
    drawn = [e["payload"]["cards"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["dst"] == "hand:yellow"]
    assert [len(cards) for cards in drawn] == [8, 2]  # the deal, then 2 rewards (Mayfair reading: 1)
    assert len(g.hand("yellow")) == held + 2 and g.tokens("yellow-0") == {"yellow": 4}
