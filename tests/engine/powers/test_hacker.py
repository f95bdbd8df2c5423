"""Hacker (Fantasy Flight): chooses compensation — whom it is taken from, and which cards.

Red attacks blue-2 (4 blue ships) with two ships. Red plays a Negotiate against blue's Attack 15: red loses
its two ships and is owed two cards of compensation.
"""

from collections import Counter

from engine.scenario import Scenario, kinds
from projections import views

RED = ["N", "A4", "A4", "A6", "A6", "A8", "A8", "A10"]
BLUE = ["A15", "N", "A5", "A6", "A7", "A8", "A9", "A11"]
YELLOW = ["A40", "A30", "CardZap", "N", "A8", "A8", "A8", "A6"]


def game(red="Hacker", blue="Spiff", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": [blue], "yellow": ["Mind"]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg", **kw)


def encounter(g: Scenario, red_card="N", blue_card="A15", before_reveal=None) -> dict:
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)
    if before_reveal:
        before_reveal(g)
    return g.outcome


def test_hacker_power_takes_compensation_from_a_third_player_and_picks_the_cards():
    g = game()
    encounter(g)
    offered = g.owe("red", "reaction")
    assert offered["info"]["context"] == {"role": "collect", "from": "blue"}
    g.answer("red", "reaction", "use", {"from": "yellow"}, ability="power:Hacker")
    pick = g.owe("red", "pick_compensation")
    assert pick["info"] == {"giver": "yellow", "receiver": "red", "count": 2}
    assert sorted(pick["options"][0]["args"]["cards"]["values"]) == sorted(g.hand("yellow"))
    assert g.state["ch"]["notes"]["compensation"] == {"from": "yellow", "picker": "red"}
    g.answer("red", "pick_compensation", "take", {"cards": ["A40", "A30"]})
    assert kinds(g.hand("red")) == kinds(["A4", "A4", "A6", "A6", "A8", "A8", "A10", "A40", "A30"])
    assert kinds(g.hand("yellow")) == kinds(["CardZap", "N", "A8", "A8", "A8", "A6"])
    assert kinds(g.hand("blue")) == kinds(["N", "A5", "A6", "A7", "A8", "A9", "A11"])  # blue gives nothing
    assert g.warp("red") == 2


def test_hacker_power_the_choice_of_cards_is_seen_by_the_picker_only():
    g = game()
    encounter(g)
    g.answer("red", "reaction", "use", {"from": "yellow"}, ability="power:Hacker")
    assert views.own_prompts(g.state, "red")[0]["kind"] == "pick_compensation"
    assert views.own_prompts(g.state, "yellow") == [] and views.own_prompts(g.state, "blue") == []
    board = views.board(g.state)
    assert [p["kind"] for p in board["pending"]] == ["pick_compensation"]
    assert "A40" not in str(board) and "A30" not in str(board)
    g.answer("red", "pick_compensation", "take", {"cards": ["A40", "A30"]})
    moved = next(e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation")
    assert moved["seen_by"] == ["red", "yellow"] and moved["src"] == "hand:yellow"


def test_hacker_power_picks_the_cards_its_opponent_takes_from_it():
    g = game(red="Mind", blue="Hacker")
    encounter(g)
    assert g.owe("blue", "reaction")["info"]["context"] == {"role": "give", "to": "red"}
    g.answer("blue", "reaction", "use", {}, ability="power:Hacker")
    g.answer("blue", "pick_compensation", "take", {"cards": ["A5", "A6.3"]})
    assert kinds(g.hand("red")) == kinds(RED[1:] + ["A5", "A6"])
    assert kinds(g.hand("blue")) == kinds(["N", "A7", "A8", "A9", "A11"])


def test_hacker_off_when_a_cosmic_zap_cancels_its_use_compensation_is_random_from_the_opponent():
    g = game(hands={"yellow": ["A40", "A30", "CosmicZap", "N", "A8", "A8", "A8", "A6"]})
    encounter(g)
    g.answer("red", "reaction", "use", {"from": "yellow"}, ability="power:Hacker")
    g.use("yellow", "card:CosmicZap")  # answering the announced hack
    g.pass_windows()
    assert not [p for p in g.prompts() if p["kind"] == "pick_compensation"]
    assert "compensation" not in g.state["ch"]["notes"]
    taken = next(e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation")
    assert taken["src"] == "hand:blue" and len(taken["cards"]) == 2
    assert len(g.hand("red")) == 9 and len(g.hand("blue")) == 5
    assert kinds(g.hand("yellow")) == kinds(["A40", "A30", "N", "A8", "A8", "A8", "A6"])


def test_hacker_off_after_power_loss_no_hack_is_offered():
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})  # two home colonies left: the power is lost
    g.regroup("red", None)
    encounter(g)
    assert not [p for p in g.prompts("red") if p["kind"] in ("reaction", "pick_compensation")]
    assert len(g.hand("red")) == 7 + 2 and len(g.hand("blue")) == 7 - 2
    assert len(g.hand("yellow")) == 8


def wild_game(**kw) -> Scenario:
    """Red (Mind, no Hacker in the game) holds Hacker's flare and plays a Negotiate against blue's Attack 15."""
    hands = {"red": ["N", "Flare:Hacker", "A4", "A6", "A6", "A8", "A8", "A10"], **kw.pop("hands", {})}
    return game(red="Mind", hands=hands, options={"flares": True}, **kw)


def test_hacker_wild_lets_the_compensated_player_choose_the_cards():
    g = wild_game()
    encounter(g, before_reveal=lambda g: g.use("red", "card:Flare:Hacker"))
    g.answer("red", "pick_compensation", "take", {"cards": ["A11", "A9"]})
    assert kinds(g.hand("red")) == kinds(["A4", "A6", "A6", "A8", "A8", "A10", "A11", "A9", "Flare:Hacker"])
    assert kinds(g.hand("blue")) == kinds(["N", "A5", "A6", "A7", "A8"])
    assert "Flare:Hacker" in g.hand("red")  # a flare played by someone else than the Hacker is kept (ffg)


def test_hacker_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"yellow": ["A40", "A30", "CardZap", "N", "A8", "A8", "A8", "A6"]})
    blue_before = Counter(kinds(g.hand("blue")))

    def zapped(g):
        g.use("red", "card:Flare:Hacker")
        g.use("yellow", "card:CardZap")
    encounter(g, before_reveal=zapped)
    g.pass_windows()
    assert not [p for p in g.prompts() if p["kind"] == "pick_compensation"]
    # two cards of blue's hand taken at random, not picked
    taken = Counter(kinds(g.hand("red"))) - Counter(kinds(["A4", "A6", "A6", "A8", "A8", "A10", "Flare:Hacker"]))
    assert sum(taken.values()) == 2 and not taken - blue_before
    assert len(g.hand("blue")) == 5


def super_game(**kw) -> Scenario:
    hands = {"red": ["N", "Flare:Hacker", "A4", "A6", "A6", "A8", "A8", "A10"], **kw.pop("hands", {})}
    return game(hands=hands, options={"flares": True}, **kw)


def test_hacker_super_takes_one_card_more_with_a_hacked_compensation():
    g = super_game()
    encounter(g, before_reveal=lambda g: g.use("red", "card:Flare:Hacker"))
    g.answer("red", "reaction", "use", {"from": "yellow"}, ability="power:Hacker")
    assert g.owe("red", "pick_compensation")["info"]["count"] == 3
    g.answer("red", "pick_compensation", "take", {"cards": ["A40", "A30", "CardZap.1"]})
    assert kinds(g.hand("red")) == kinds(["A4", "A6", "A6", "A8", "A8", "A10", "A40", "A30", "CardZap",
                                          "Flare:Hacker"])
    assert kinds(g.hand("yellow")) == kinds(["N", "A8", "A8", "A8", "A6"])


def test_hacker_super_off_while_the_power_is_zapped():
    g = super_game(hands={"yellow": ["A40", "A30", "CosmicZap", "N", "A8", "A8", "A8", "A6"]})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Hacker"})
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "A15")
    g.use("red", "card:Flare:Hacker")  # with its power zapped, the Hacker plays its flare as the Wild
    assert g.state["ch"]["effects"][-1]["source"] == "flare:Hacker:wild"
    pick = g.owe("red", "pick_compensation")
    assert pick["info"] == {"giver": "blue", "receiver": "red", "count": 2}  # not one card more, nor from yellow
    g.answer("red", "pick_compensation", "take", {"cards": ["A11", "A9"]})
    assert len(g.hand("red")) == 9 and kinds(g.hand("blue")) == kinds(["N", "A5", "A6", "A7", "A8"])
