"""Machine (Fantasy Flight): its turn is not limited to two challenges.

Red is the offense; it sends one ship at a time against blue's planets (4 blue ships each) with low
Attacks, so it loses every challenge: without Machine its turn ends after the first one.
"""

from engine.scenario import Scenario, kinds

RED = ["A4", "A6", "A1", "A8", "A4", "A6", "A6", "A8"]
BLUE = ["A15", "A14", "A14", "N", "A20", "A20", "A12", "A12"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}  # two home colonies left


def game(red="Machine", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Sorcerer"], "yellow": ["Mind"]}, hands=stacked,
                    destiny=["blue.1", "blue.2", "blue.3"], first="red", ruleset="ffg", **kw)


def lose_a_challenge(g: Scenario, planet: str, red: str, blue: str, source: str = "red-0") -> dict:
    g.launch({source: 1}, planet)
    g.invite_none()
    g.play("red", red)
    g.play("blue", blue)
    return g.resolved()


def began(g: Scenario) -> list:
    return [(e["type"], e["payload"].get("number") or e["payload"].get("player")) for e in g.log
            if e["type"] in ("TurnBegan", "ChallengeBegan")]


def test_machine_power_challenges_again_after_losing_and_a_third_time():
    g = game()
    assert lose_a_challenge(g, "blue-2", "A4", "A15")["winner"] == "defense"
    assert [o["action"] for o in g.owe("red", "second_challenge")["options"]] == ["challenge_again", "end_turn"]
    g.challenge_again()
    g.regroup("red", None)
    assert lose_a_challenge(g, "blue-3", "A6", "A14")["winner"] == "defense"
    g.challenge_again()
    g.regroup("red", None)
    assert g.ch["number"] == 3 and g.state["turn"] == {"offense": "red", "number": 1, "challenge": 3,
                                                        "succeeded": False}
    assert lose_a_challenge(g, "blue-4", "A1", "A14")["winner"] == "defense"
    assert g.warp("red") == 3 and g.tokens("red-0") == {"red": 1}
    g.end_turn()
    assert began(g) == [("TurnBegan", "red"), ("ChallengeBegan", 1), ("ChallengeBegan", 2), ("ChallengeBegan", 3),
                        ("TurnBegan", "blue"), ("ChallengeBegan", 1)]


def test_machine_power_stops_when_no_challenge_card_is_left():
    g = game(hands={"red": ["A4", "CardZap"]}, exact_hands=True)
    lose_a_challenge(g, "blue-2", "A4", "A15")
    assert not [p for p in g.prompts() if p["kind"] == "second_challenge"]
    assert began(g)[-2:] == [("TurnBegan", "blue"), ("ChallengeBegan", 1)]


def test_machine_off_when_a_cosmic_zap_switches_it_off_the_turn_ends_after_a_lost_challenge():
    g = game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]})
    g.launch({"red-0": 1}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Machine"})
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A15")
    assert g.resolved()["winner"] == "defense"
    assert not [p for p in g.prompts() if p["kind"] == "second_challenge"]
    assert began(g)[-2:] == [("TurnBegan", "blue"), ("ChallengeBegan", 1)]


def test_machine_off_by_power_loss():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    lose_a_challenge(g, "blue-2", "A4", "A15")
    assert began(g)[-2:] == [("TurnBegan", "blue"), ("ChallengeBegan", 1)]


def test_machine_wild_gives_a_second_challenge_after_a_loss_with_a_new_hand():
    deck = ["A30", "A10", "N", "A13", "A7", "A5", "A9", "A11"]
    g = game(red="Mind", hands={"red": ["A4", "Flare:Machine", "CardZap"]}, exact_hands=True, deck=deck,
             options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "card:Flare:Machine")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A15")
    assert g.resolved()["winner"] == "defense"
    assert kinds(g.hand("red")) == ["CardZap", "Flare:Machine"]  # no challenge card left
    g.challenge_again()
    assert kinds(g.hand("red")) == kinds(deck)  # the old hand discarded, a new one drawn
    assert "CardZap" in kinds(g.state["discard"])
    assert g.ch["number"] == 2


def test_machine_wild_off_when_a_card_zap_cancels_it():
    g = game(red="Mind", hands={"red": ["A4", "Flare:Machine", "A6", "A8"],
                                "yellow": ["A10", "CardZap", "N", "N", "A8", "A8", "A8", "A6"]},
             exact_hands=True, options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "card:Flare:Machine")
    g.use("yellow", "card:CardZap")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A15")
    assert g.resolved()["winner"] == "defense"
    assert not [p for p in g.prompts() if p["kind"] == "second_challenge"]
    assert began(g)[-2:] == [("TurnBegan", "blue"), ("ChallengeBegan", 1)]


def test_machine_super_draws_a_card_instead_of_retrieving_a_ship():
    g = game(hands={"red": ["A4", "Flare:Machine", "A6", "A8", "A4", "A6", "A6", "A8"]},
             tokens={"red-4": {"red": 2}}, deck=["A30"], options={"flares": True})
    g.use("red", "card:Flare:Machine")
    regroup = g.owe("red", "regroup")
    assert [o["action"] for o in regroup["options"]] == ["retrieve", "instead", "decline"]
    g.answer("red", "regroup", "instead", ability="flare:Machine:super")
    assert "A30" in g.hand("red") and g.warp("red") == 2 and g.tokens("red-4") == {"red": 2}
