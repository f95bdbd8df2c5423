"""Dictator (Fantasy Flight): chooses, from the destiny deck, the card the offense draws.

Red is the offense; the destiny deck's top card is blue's. Yellow is the Dictator.
"""

from engine.scenario import Scenario
from projections import views

RED = ["A20", "N", "N", "N", "A4", "A4", "A6", "A6"]
BLUE = ["A15", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]


def game(yellow="Dictator", red="Mind", hands=None, first="red", **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Spiff"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first=first, ruleset="ffg", **kw)


def drawn(g: Scenario) -> list[str]:
    return [e["payload"]["card"] for e in g.log if e["type"] == "DestinyDrawn"]


def test_dictator_power_chooses_the_destiny_card_the_offense_draws():
    g = game()
    deck = sorted(set(g.state["destiny"]))
    owed = g.owe("yellow", "choose_destiny")
    assert owed["options"][0]["args"]["card"]["values"] == deck  # the deck's cards, sorted: never its order
    g.answer("yellow", "choose_destiny", "choose", {"card": "yellow.2"})
    assert drawn(g) == ["yellow.2"] and g.state["ch"]["defense"] == "yellow"
    assert g.state["destiny_discard"] == ["yellow.2"] and g.state["destiny"][-1] == "blue.1"
    assert "destiny_chosen" not in g.state["ch"]["notes"] or not g.state["ch"]["notes"]["destiny_chosen"]
    g.launch({"red-0": 2}, "yellow-3")
    assert g.state["ch"]["planet"] == "yellow-3"


def test_dictator_power_the_destiny_deck_stays_secret_from_the_others():
    g = game()
    g.owe("yellow", "choose_destiny")
    assert views.own_prompts(g.state, "red") == [] and views.own_prompts(g.state, "blue") == []
    board = views.board(g.state)
    assert [p["kind"] for p in board["pending"]] == ["choose_destiny"]
    assert "blue.1" not in str(board)  # the deck's cards are in yellow's prompt only


def test_dictator_power_chooses_again_when_the_offense_draws_again():
    g = game()
    g.answer("yellow", "choose_destiny", "choose", {"card": "red.1"})  # red's own colour: nothing but draw again
    g.answer("yellow", "choose_destiny", "choose", {"card": "blue.3"})
    assert drawn(g) == ["red.1", "blue.3"] and g.state["ch"]["defense"] == "blue"


def test_dictator_off_when_a_cosmic_zap_cancels_it_the_offense_draws_the_top_card():
    g = game(hands={"blue": ["A15", "CosmicZap", "N", "N", "A6", "A6", "A8", "A8"]})
    g.pass_windows("blue", "response")
    g.use("blue", "card:CosmicZap")  # answering the announced use
    g.owe("red", "launch")
    assert drawn(g) == ["blue.1"] and g.state["ch"]["defense"] == "blue"


def test_dictator_off_on_its_own_turn_without_the_super():
    g = game(first="yellow")
    g.owe("yellow", "launch")
    assert not [p for p in g.asked if p["kind"] == "choose_destiny"]
    assert drawn(g) == ["blue.1"] and g.state["ch"]["defense"] == "blue"


def test_dictator_wild_lets_another_player_choose_the_destiny_card():
    g = game(yellow="Mind", hands={"blue": ["A15", "Flare:Dictator", "N", "N", "A6", "A6", "A8", "A8"]},
             options={"flares": True})
    g.use("blue", "card:Flare:Dictator")
    g.answer("blue", "choose_destiny", "choose", {"card": "yellow.1"})
    assert drawn(g) == ["yellow.1"] and g.state["ch"]["defense"] == "yellow"


def test_dictator_wild_off_when_a_card_zap_cancels_it():
    hands = {"blue": ["A15", "Flare:Dictator", "N", "N", "A6", "A6", "A8", "A8"],
             "yellow": ["A10", "CardZap", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(yellow="Mind", hands=hands, options={"flares": True})
    g.use("blue", "card:Flare:Dictator")
    g.use("yellow", "card:CardZap")
    g.owe("red", "launch")
    assert drawn(g) == ["blue.1"] and not [p for p in g.asked if p["kind"] == "choose_destiny"]


def test_dictator_super_lets_the_dictator_choose_on_its_own_turn():
    hands = {"yellow": ["A10", "Flare:Dictator", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(first="yellow", hands=hands, options={"flares": True})
    g.use("yellow", "card:Flare:Dictator")
    g.answer("yellow", "choose_destiny", "choose", {"card": "red.2"})
    assert drawn(g) == ["red.2"] and g.state["ch"]["defense"] == "red"


def test_dictator_super_off_while_the_power_is_zapped():
    hands = {"yellow": ["A10", "Flare:Dictator", "N", "N", "A8", "A8", "A8", "A6"],
             "red": ["A20", "CosmicZap", "N", "N", "A4", "A4", "A6", "A6"]}
    g = game(first="yellow", hands=hands, options={"flares": True})
    g.use("red", "card:CosmicZap", {"target": "yellow:Dictator"})
    assert "card:Flare:Dictator" not in g.abilities("yellow")  # the Wild is for others' turns: nothing to play
    g.owe("yellow", "launch")
    assert drawn(g) == ["blue.1"] and not [p for p in g.asked if p["kind"] == "choose_destiny"]
