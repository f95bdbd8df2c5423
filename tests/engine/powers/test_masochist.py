"""Masochist (Fantasy Flight): wins the game once all its ships are lost.

Yellow is the Masochist with one ship left, on yellow-0 (the other 19 in the warp: no home colony to
keep a power with, but Masochist keeps its own). Red attacks blue-2 (4 blue ships) with two ships.
"""

from engine import fold
from engine.invariants import violations
from engine.powers.masochist import REASON
from engine.scenario import Scenario
from projections import views

RED = ["A20", "N", "N", "A6", "A4", "A6", "A6", "A8"]
BLUE = ["A8", "N", "N", "N", "A20", "A12", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
LAST_SHIP = {f"yellow-{i}": ({"yellow": 1} if i == 0 else {}) for i in range(5)}


def game(yellow="Masochist", red="Mind", blue="Sorcerer", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": [blue], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1", "blue.3"], first="red", ruleset="ffg", **kw)


def game_ended(g: Scenario):
    return next((e["payload"] for e in g.log if e["type"] == "GameEnded"), None)


def lose_the_last_ship(g: Scenario) -> dict:
    """Yellow joins the defense with its last ship, and the offense wins: the ship goes to the warp."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 1})
    g.play("red", "A20")
    g.play("blue", "A8")
    return g.resolved()


def test_masochist_power_wins_at_the_next_challenge_once_its_last_ship_is_lost():
    g = game(tokens=LAST_SHIP)
    assert g.state["home_bases"]["yellow"] == 1
    assert lose_the_last_ship(g)["winner"] == "offense"
    assert g.warp("yellow") == 20 and game_ended(g) is None
    g.challenge_again()  # the second challenge begins: before its regroup, the Masochist has won
    assert game_ended(g) == {"winners": ["yellow"], "reason": "Masochist lost all its ships"}
    assert g.state["status"] == "finished" and views.board(g.state)["winners"] == ["yellow"]
    assert violations(g.state) == []


def test_masochist_power_wins_once_what_the_challenge_s_beginning_set_off_is_carried_out():
    """Blue's turn begins with yellow's ships all lost: Masochist's win and Hate's discard are both set off by the
    beginning of the challenge, Masochist's first (yellow comes before blue, the offense, in timing order). The
    win is claimed at once but declared at the next boundary, once Hate is carried out: blue discards its A20,
    nobody can match it, and red loses three ships of blue's choice (the FFG Hate chooses them), the two that
    took blue-2 among them. The final board shows all of it."""
    g = game(blue="Hate", tokens=LAST_SHIP)
    lose_the_last_ship(g)
    assert g.tokens("blue-2") == {"red": 2}
    g.end_turn()
    assert g.state["turn"]["offense"] == "blue" and g.state["ch"]["number"] == 1
    assert g.state["notes"]["yellow"] == {"won": REASON}
    assert game_ended(g) is None and g.state["status"] == "playing"
    g.answer("blue", "hate_discard", "discard", {"card": "A20.2"})
    red_warp = g.warp("red")
    g.lose("blue", {"blue-2": 2, "red-3": 1})  # red's three ships, of the hater's choice
    assert game_ended(g) == {"winners": ["yellow"], "reason": REASON}
    assert g.state["status"] == "finished" and g.state["winners"] == ["yellow"]
    assert "A20.2" in g.state["discard"] and "A20.2" not in g.hand("blue")
    assert g.tokens("blue-2") == {} and g.tokens("red-3") == {"red": 3} and g.warp("red") == red_warp + 3
    assert g.state["external_bases"]["red"] == 0 and g.warp("yellow") == 20
    assert violations(g.state) == [] and fold(g.log) == g.state


def test_masochist_power_without_it_the_lost_ships_win_nothing():
    g = game(yellow="Mind", tokens=LAST_SHIP)
    lose_the_last_ship(g)
    g.challenge_again()
    assert game_ended(g) is None and g.state["status"] == "playing" and g.warp("yellow") == 20


def test_masochist_off_when_a_cosmic_zap_cancels_the_announced_win():
    g = game(tokens=LAST_SHIP, hands={"red": ["A20", "CosmicZap", "N", "A6", "A4", "A6", "A6", "A8"]})
    lose_the_last_ship(g)
    g.challenge_again()
    g.use("red", "card:CosmicZap")  # answering the announced win
    assert game_ended(g) is None and g.state["status"] == "playing"
    cancelled = [e["payload"]["target"] for e in g.log if e["type"] == "UseCancelled"]
    assert [(t["player"], t["ability"]) for t in cancelled] == [("yellow", "power:Masochist")]
    assert g.state["ch"]["number"] == 2 and g.warp("yellow") == 20


def test_masochist_wild_names_another_player_to_retrieve_at_the_regroup():
    hands = {"yellow": ["A10", "Flare:Masochist", "N", "N", "A8", "A8", "A8", "A6"]}
    tokens = {"red-4": {"red": 3}, "blue-4": {"blue": 2}}  # red has 1 ship in the warp, blue 2
    g = game(yellow="Mind", hands=hands, tokens=tokens, options={"flares": True})
    g.use("yellow", "card:Flare:Masochist", {"player": "blue"})
    regroup = g.owe("blue", "regroup")
    assert not [p for p in g.prompts() if p["player"] == "red" and p["kind"] == "regroup"]
    assert regroup["options"][0]["args"]["to"]["values"] == [f"blue-{i}" for i in range(5)]
    g.regroup("blue", "blue-4")
    assert g.tokens("blue-4") == {"blue": 3} and g.warp("blue") == 1 and g.warp("red") == 1


def test_masochist_wild_off_when_a_card_zap_cancels_it():
    hands = {"yellow": ["A10", "Flare:Masochist", "N", "N", "A8", "A8", "A8", "A6"],
             "red": ["A20", "CardZap", "N", "A6", "A4", "A6", "A6", "A8"]}
    g = game(yellow="Mind", hands=hands, tokens={"red-4": {"red": 3}, "blue-4": {"blue": 2}},
             options={"flares": True})
    g.use("yellow", "card:Flare:Masochist", {"player": "blue"})
    g.use("red", "card:CardZap")
    g.regroup("red", "red-4")
    assert g.tokens("red-4") == {"red": 4} and g.warp("blue") == 2


def test_masochist_super_removes_a_ship_from_the_game_instead_of_retrieving_it():
    hands = {"red": ["A20", "Flare:Masochist", "N", "A6", "A4", "A6", "A6", "A8"]}
    g = game(red="Masochist", yellow="Mind", hands=hands, tokens={"red-4": {"red": 2}}, options={"flares": True})
    g.use("red", "card:Flare:Masochist")
    assert [o["action"] for o in g.owe("red", "regroup")["options"]] == ["retrieve", "instead", "decline"]
    g.answer("red", "regroup", "instead", ability="flare:Masochist:super")
    assert g.warp("red") == 1 and g.state["removed"]["red"] == 1 and g.tokens("red-4") == {"red": 2}
    assert views.board(g.state)["removed"]["red"] == 1 and violations(g.state) == []
