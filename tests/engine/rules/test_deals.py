"""RULES.md 4, stage 8, deals: Compromise against Compromise."""

import pytest

from engine.errors import NotOwed, RulesError
from engine.scenario import Scenario, kinds, terms

POWERS = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"]}
RED = ["C", "A15", "A14", "A13", "A12", "A11", "A10"]
BLUE = ["C", "A4", "A5", "A6", "A7", "A8", "A9"]


def compromises(with_allies: bool = False, **kw) -> Scenario:
    """Red (3 tokens on blue-0's cone) and blue both play Compromises; optionally with an ally each."""
    kw.setdefault("destiny", ["blue.1"])
    g = Scenario(players=4, powers=POWERS, first="red", hands={"red": RED, "blue": BLUE}, **kw)
    g.launch({"red-0": 3}, "blue-0")
    g.invite("red", ["yellow"] if with_allies else [])
    g.invite("blue", ["purple"] if with_allies else [])
    if with_allies:
        g.join("yellow", "offense", {"yellow-0": 2})
        g.join("purple", "defense", {"purple-0": 1})
    g.play("red", "C")
    g.play("blue", "C")
    g.pass_windows()
    return g


def test_two_compromises_send_the_allies_home_and_open_the_deal():
    g = compromises(with_allies=True)
    assert g.outcome["kind"] == "deal"
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("yellow", "place_tokens"), ("purple", "place_tokens")]
    g.place("yellow", {"yellow-0": 2})
    g.place("purple", {"purple-3": 1})
    assert g.tokens("cone:offense") == {"red": 3}
    assert g.tokens("cone:defense") == {}
    assert (g.tokens("yellow-0"), g.tokens("purple-3")) == ({"yellow": 4}, {"purple": 5})
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("red", "deal"), ("blue", "deal")]
    assert g.state["record"]["red"] == {"won": 0, "lost": 0}


def test_the_deal_window_lasts_deal_seconds_from_when_it_opens():
    g = compromises(with_allies=True, options={"deal_seconds": 90})
    g.place("yellow", {"yellow-0": 2})
    g.place("purple", {"purple-3": 1})
    opened_at = g.clock
    deadlines = {p["player"]: p["deadline"] for p in g.prompts()}
    assert deadlines == {"red": opened_at + 90_000, "blue": opened_at + 90_000}


def test_a_deal_can_give_a_base_and_cards():
    g = compromises()
    named = next(c for c in g.hand("red") if c.startswith("A15"))
    g.propose("red", terms(offense_gives={"named": [named], "count": 1}, offense_base="blue-2"))
    g.accept("blue", 1)
    g.pass_windows()
    # red picks the one card of its choice it owes
    owed = g.owe("red", "give_cards")
    assert owed["options"][0]["args"]["cards"]["min"] == 1
    chosen = next(c for c in g.hand("red") if c.startswith("A10"))
    g.give("red", [chosen])
    # red receives a base on blue-2: 1-4 tokens from the cone or its bases
    owed = g.owe("red", "take_base")
    assert owed["info"]["planet"] == "blue-2"
    assert owed["options"][0]["args"]["tokens"]["sources"]["cone:offense"] == 3
    g.take_base("red", {"cone:offense": 2})
    assert g.tokens("blue-2") == {"blue": 4, "red": 2}
    assert kinds(g.hand("blue")) == sorted(["A4", "A5", "A6", "A7", "A8", "A9", "A15", "A10"])
    # what is left on the cone goes home
    g.place("red", {"red-1": 1})
    assert g.tokens("cone:offense") == {}
    assert g.tokens("red-1") == {"red": 5}
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert [c["made"] for c in concluded] == [True]


def test_a_deal_made_is_a_successful_challenge():
    g = compromises()
    g.propose("blue", terms(defense_gives={"count": 1}))
    g.accept("red", 1)
    g.pass_windows()
    g.give("blue", [g.hand("blue")[0]])
    g.place("red", {"red-0": 3})
    assert g.owe("red", "second_challenge")


def test_either_main_player_may_propose_and_the_other_accepts_a_proposal_by_its_number():
    g = compromises()
    g.propose("red", terms(defense_gives={"count": 2}))
    g.propose("blue", terms(offense_gives={"count": 1}))
    owed = g.owe("red", "deal")
    accept = next(o for o in owed["options"] if o["action"] == "accept")
    assert accept["args"]["proposal"]["values"] == [2]  # only the other side's proposals
    with pytest.raises(RulesError):
        g.command("red", "accept", {"proposal": 1}, prompt=owed["id"])


def test_a_deal_must_give_somebody_a_card_or_a_base():
    g = compromises()
    with pytest.raises(RulesError, match="at least one player must receive"):
        g.propose("red", terms())


def test_a_base_in_a_deal_is_on_a_planet_where_the_giver_has_a_base_and_the_receiver_none():
    layout = {"blue-4": {}, "blue-0": {"blue": 8}, "yellow-2": {"yellow": 4, "red": 1},
              "blue-3": {"blue": 4, "red": 1}, "red-4": {"red": 2}}
    g = compromises(tokens=layout)
    with pytest.raises(RulesError, match="blue has no base on blue-4"):
        g.propose("red", terms(offense_base="blue-4"))
    with pytest.raises(RulesError, match="blue has no base on red-1"):
        g.propose("blue", terms(offense_base="red-1"))
    with pytest.raises(RulesError, match="blue has no base on yellow-2"):
        g.propose("red", terms(offense_base="yellow-2"))
    with pytest.raises(RulesError, match="red already has a base on blue-3"):
        g.propose("red", terms(offense_base="blue-3"))
    g.propose("blue", terms(defense_base="yellow-2", offense_gives={"count": 1}))  # red shares its base there


def test_a_player_cannot_promise_cards_it_does_not_hold():
    g = compromises()
    with pytest.raises(RulesError, match="you do not hold"):
        g.propose("red", terms(offense_gives={"named": ["A40"]}))
    with pytest.raises(RulesError, match="holds only"):
        g.propose("red", terms(offense_gives={"count": 7}))


def test_a_failed_deal_costs_each_main_player_three_tokens_of_its_choice():
    g = compromises()
    g.give_up("red")
    g.give_up("blue")
    owed = g.owe("red", "choose_losses")
    assert owed["info"]["count"] == 3
    g.lose("red", {"cone:offense": 1, "red-4": 2})
    g.lose("blue", {"blue-0": 3})
    g.place("red", {"red-1": 2})
    assert g.warp("red") == 3
    assert g.warp("blue") == 3
    assert g.tokens("red-4") == {"red": 2}
    assert g.tokens("blue-0") == {"blue": 1}
    assert g.tokens("cone:offense") == {}
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "no agreement"}]
    # a failed deal is a failed challenge: no second challenge
    g.pass_windows()
    assert g.state["turn"]["offense"] == "blue"


def test_a_deal_fails_when_its_time_runs_out():
    g = compromises(options={"deal_seconds": 30})
    owed = g.owe("red", "deal")
    with pytest.raises(RulesError, match="no deadline that has passed"):
        g.timeout(owed["id"], at=owed["deadline"] - 1)
    g.timeout(owed["id"], at=owed["deadline"])
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert {p["kind"] for p in g.prompts()} == {"choose_losses"}
    with pytest.raises(NotOwed):  # the deal is over: its timer is stale
        g.timeout(owed["id"])


def test_the_reverse_cone_does_not_change_a_deal():
    g = compromises(with_allies=True, destiny=["blue.rev"], options={"reverse_cone": True})
    assert g.ch["reverse"] is True
    g.place("yellow", {"yellow-0": 2})
    g.place("purple", {"purple-0": 1})
    assert g.ch["notes"].get("rewards") is None
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("red", "deal"), ("blue", "deal")]


def test_a_deal_accepted_after_its_deadline_is_not_made_even_before_the_timer_runs():
    """Deadlines are rules: a command carries its time; an answer after the deadline gets the default."""
    g = compromises(options={"deal_seconds": 5})
    g.propose("blue", terms(defense_gives={"count": 1}))
    owed = g.owe("red", "deal")
    g.clock = owed["deadline"] + 100 - 1000  # the next command is sent 0.1 s after the deadline
    events = g.accept("red", 1)
    assert [e["type"] for e in events][:2] == ["DecisionTimedOut", "DealConcluded"]
    assert events[0]["actor"] == "timer"
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert {p["kind"] for p in g.prompts()} == {"choose_losses"}
    with pytest.raises(NotOwed):  # the timer, when it runs, finds nothing left to do
        g.timeout(owed["id"])


def test_an_answer_just_before_the_deadline_is_taken():
    g = compromises(options={"deal_seconds": 5})
    g.propose("blue", terms(defense_gives={"count": 1}))
    owed = g.owe("red", "deal")
    g.clock = owed["deadline"] - 1 - 1000
    g.accept("red", 1)
    assert not any(e["type"] == "DecisionTimedOut" for e in g.log)
    assert g.owe("blue", "give_cards")
