"""Hawk (004): an Attack above 10 it plays counts as a War card; its flares spread War."""

from engine.scenario import Scenario
from tests.engine.scenarios import last_outcome

RED = ["A12", "A10", "A15", "A4", "A5", "A6", "A7"]
BLUE = ["A20", "A9", "C", "A11", "A13", "A14", "A16"]
YELLOW = ["A17", "A18", "A19", "A30", "A40", "C", "C"]


def hawk_game(powers, hands=None, tokens=None, flares=False, edicts=False, players=3):
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=players, powers=powers, hands=stacked, destiny=["blue.1"], first="red",
                    tokens=tokens, options={"war_cards": True, "flares": flares, "edicts": edicts})


def challenge(g, red_card, blue_card, red_tokens=3, yellow_joins=None):
    g.launch({"red-0": red_tokens}, "blue-2")
    if yellow_joins:
        g.invite("red", ["yellow"])
        g.invite("blue", [])
        g.join("yellow", "offense", {"yellow-0": yellow_joins})
    else:
        g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)


RED_HAWK = {"red": ["Hawk"], "blue": ["Mutant"], "yellow": ["Filch"]}


def test_hawk_power_turns_an_attack_above_ten_into_a_war_card_that_beats_a_higher_attack():
    g = hawk_game(RED_HAWK)
    blue_before = g.hand("blue")
    challenge(g, "A12", "A20")
    g.pass_windows()
    outcome = last_outcome(g)
    assert outcome["cards"] == {"offense": "war", "defense": "attack"}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3} and g.warp("blue") == 4
    # blue is consoled from red's hand for its 4 lost tokens
    assert len([c for c in g.hand("blue") if c not in blue_before]) == 4
    assert len(g.hand("red")) == 6 - 4


def test_hawk_power_leaves_an_attack_of_ten_as_an_attack():
    g = hawk_game(RED_HAWK)
    challenge(g, "A10", "A20")
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "attack", "defense": "attack"}
    assert last_outcome(g)["totals"] == {"offense": 13, "defense": 24}
    assert g.warp("red") == 3


def test_hawk_power_war_loses_to_a_compromise():
    g = hawk_game(RED_HAWK)
    challenge(g, "A15", "C")
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "war", "defense": "compromise"}
    assert last_outcome(g)["winner"] == "defense"
    assert g.warp("red") == 3 and g.tokens("blue-2") == {"blue": 4}
    assert len(g.hand("red")) == 6 - 4  # blue's consolation for the 4 tokens it had


def test_hawk_power_works_only_on_the_hawks_own_card_as_main_player():
    # yellow is the Hawk, allied with red: red's Attack 15 stays an Attack
    g = hawk_game({"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Hawk"]})
    challenge(g, "A15", "A20", yellow_joins=2)
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "attack", "defense": "attack"}
    assert last_outcome(g)["totals"] == {"offense": 15 + 3 + 2, "defense": 24}


def test_hawk_off_when_it_holds_fewer_than_three_home_bases():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = hawk_game(RED_HAWK, tokens=lost)
    g.regroup("red", None)
    challenge(g, "A12", "A20")
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "attack", "defense": "attack"}
    assert last_outcome(g)["winner"] == "defense"


def test_hawk_off_when_cosmic_zapped():
    g = hawk_game(RED_HAWK, hands={"yellow": ["CosmicZap", "A17", "A18", "A19", "A30", "A40", "C"]}, edicts=True)
    g.use("yellow", "card:CosmicZap", {"target": "red:Hawk"})
    challenge(g, "A12", "A20")
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "attack", "defense": "attack"}
    assert g.warp("red") == 3 and g.tokens("blue-2") == {"blue": 4}


def test_hawk_wild_makes_every_card_a_war_card_once_a_war_card_is_revealed():
    # blue is the Hawk but plays a 9: an Attack; yellow holds the Hawk flare (Wild for it)
    g = hawk_game({"red": ["Filch"], "blue": ["Hawk"], "yellow": ["Mutant"]},
                  hands={"red": ["War", "A10", "A15", "A4", "A5", "A6", "A7"],
                         "yellow": ["Flare:Hawk", "A18", "A19", "A30", "A40", "C", "C"]}, flares=True)
    challenge(g, "War", "A9")
    g.use("yellow", "card:Flare:Hawk")
    g.pass_windows()
    # War against War: both lose, every token in the challenge to the warp
    outcome = last_outcome(g)
    assert outcome["cards"] == {"offense": "war", "defense": "war"} and outcome["both_lose"] is True
    assert g.warp("red") == 3 and g.warp("blue") == 4
    assert "Flare:Hawk" in g.state["discard"]


def test_hawk_wild_is_not_offered_without_a_war_card():
    g = hawk_game({"red": ["Filch"], "blue": ["Hawk"], "yellow": ["Mutant"]},
                  hands={"yellow": ["Flare:Hawk", "A18", "A19", "A30", "A40", "C", "C"]}, flares=True)
    challenge(g, "A10", "A9")
    assert g.abilities("yellow") == []
    g.pass_windows()
    assert "Flare:Hawk" in g.hand("yellow")


def test_hawk_super_lets_the_hawk_as_ally_make_its_main_players_attack_a_war_card():
    g = hawk_game({"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Hawk"]},
                  hands={"yellow": ["Flare:Hawk", "A18", "A19", "A30", "A40", "C", "C"]}, flares=True)
    challenge(g, "A15", "A20", yellow_joins=2)
    # 15 + 3 + 2 = 20 would lose to 20 + 4; as a War card red's 15 wins outright
    g.use("yellow", "card:Flare:Hawk")
    g.pass_windows()
    assert last_outcome(g)["cards"] == {"offense": "war", "defense": "attack"}
    assert last_outcome(g)["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3, "yellow": 2}
    assert g.warp("blue") == 4


def test_hawk_super_needs_an_attack_above_ten():
    g = hawk_game({"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Hawk"]},
                  hands={"yellow": ["Flare:Hawk", "A18", "A19", "A30", "A40", "C", "C"]}, flares=True)
    challenge(g, "A10", "A20", yellow_joins=2)
    assert g.abilities("yellow") == []
