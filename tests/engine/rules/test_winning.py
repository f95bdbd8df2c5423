"""RULES.md 4, winning: five external bases win, once the rule that moved the tokens is carried out.

000/002: players who reach their fifth external base at the same time share the win. The
engine declares winners only at a boundary of the turn sequence, so a deal's two base grants,
or a won challenge's landing and the loser's trip to the warp, all happen before anyone wins.
"""

from engine.scenario import Scenario, kinds, terms
from engine.winning import winners

# Red and blue each hold a base on four of yellow's planets: their fifth external base wins.
FOUR_EACH = {f"yellow-{i}": {"yellow": 2, "red": 1, "blue": 1} for i in range(4)}
THIN_HOMES = {f"{c}-{i}": {c: 1} for c in ("red", "blue") for i in range(1, 5)}


def game_ended(g: Scenario) -> dict | None:
    found = [e["payload"] for e in g.log if e["type"] == "GameEnded"]
    assert len(found) <= 1
    return found[0] if found else None


def test_a_deal_that_gives_both_main_players_their_fifth_base_is_a_joint_win():
    g = Scenario(players=3, first="red", destiny=["blue.1"], tokens={**FOUR_EACH, **THIN_HOMES},
                 hands={"red": ["C"], "blue": ["C"]})
    assert winners(g.state) == []
    g.regroup("red", "red-0")
    g.launch({"red-0": 3}, "blue-0")
    g.invite_none()
    g.play("red", "C")
    g.play("blue", "C")
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-2", defense_base="red-2"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 3})
    # the offense has its fifth base now, but the deal is not carried out yet: no one has won
    assert game_ended(g) is None
    assert g.state["status"] == "playing"
    g.take_base("blue", {"blue-0": 2})
    assert game_ended(g) == {"winners": ["red", "blue"], "reason": "five external bases"}
    assert g.state["status"] == "finished"
    assert g.tokens("blue-2") == {"blue": 1, "red": 3}
    assert g.tokens("red-2") == {"red": 1, "blue": 2}


def test_a_won_challenge_is_carried_out_before_the_offense_and_its_ally_win():
    # red has a base on four of blue's planets, blue on four of red's: both are one base short
    crossed = {f"{home}-{i}": {home: 1, guest: 1} for home, guest in (("red", "blue"), ("blue", "red"))
               for i in range(1, 5)}
    g = Scenario(players=3, first="red", destiny=["yellow.1"], tokens=crossed,
                 hands={"red": ["A20"], "yellow": ["A4"]})
    warp_before = g.warp("yellow")
    g.regroup("red", "red-0")
    g.launch({"red-0": 2}, "yellow-0")
    g.invite("red", ["blue"])
    g.invite("yellow", [])
    g.join("blue", "offense", {"blue-0": 1})
    g.play("red", "A20")
    g.play("yellow", "A4")
    g.resolved()
    g.pass_windows()
    assert game_ended(g) == {"winners": ["red", "blue"], "reason": "five external bases"}
    # the whole outcome is on the final board: the winners landed, the beaten defense is in the warp
    assert g.tokens("yellow-0") == {"red": 2, "blue": 1}
    assert g.warp("yellow") == warp_before + 4
    # and the challenge cards were discarded as at stage 9
    assert g.state["committed"] == {"offense": [], "defense": []}
    assert {"A20", "A4"} <= set(kinds(g.state["discard"]))
