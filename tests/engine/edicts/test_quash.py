"""Quash (RULES.md 6): a deal just made is cancelled and counts as a failed deal."""

from engine.scenario import terms
from tests.engine.scenarios import red_attacks_blue

RED = ["C", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["C", "A10", "A11", "A12", "A13", "A14", "A15"]
QUASH = ["Quash", "A16", "A17", "A18", "A19", "A20", "A30"]


def quash_game(yellow_hand=QUASH):
    return red_attacks_blue("Filch", "Mutant", "Mind", {"red": RED, "blue": BLUE, "yellow": yellow_hand},
                            options={"edicts": True})


def make_a_deal(g):
    """Red and blue both play Compromises; blue gives red a base on blue-0 and red gives blue one card."""
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "C")
    g.play("blue", "C")
    g.propose("red", terms(offense_gives={"count": 1}, offense_base="blue-0"))
    g.accept("blue", 1)


def test_quash_cancels_an_agreed_deal_and_both_lose_three_tokens():
    g = quash_game()
    make_a_deal(g)
    # the deal is agreed, not yet carried out: yellow may quash it
    window = g.owe("yellow", "window")
    assert window["info"]["window"] == "deal"
    g.use("yellow", "card:Quash")
    assert g.ch["notes"]["deal_quashed"] is True
    # a failed deal: each main player loses 3 tokens of its choice
    g.lose("red", {"cone:offense": 3})
    g.lose("blue", {"blue-3": 3})
    g.place("red", {"red-1": 1})  # red's last token on the cone goes home
    assert g.warp("red") == 3 and g.warp("blue") == 3
    made = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert made == [{"made": False, "terms": None, "reason": "quashed"}]
    # nothing of the terms happened: no base for red on blue-0, no card for blue
    assert g.tokens("blue-0") == {"blue": 4}
    assert len(g.hand("blue")) == 6 and len(g.hand("red")) == 6
    assert "Quash.1" in g.state["discard"]
    assert g.tokens("cone:offense") == {} and g.tokens("red-1") == {"red": 5}
    # the challenge failed: the turn passes to blue
    g.pass_windows()
    assert g.state["turn"]["offense"] == "blue"


def test_quash_is_offered_only_once_a_deal_is_agreed():
    g = quash_game()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "C")
    g.play("blue", "C")
    # through launch, alliances, cards and reveal yellow was never asked: nothing could be quashed
    assert not [e for e in g.log if e["type"] == "Passed" and e["payload"]["player"] == "yellow"]
    g.propose("red", terms(offense_gives={"count": 1}))
    g.give_up("blue")
    g.give_up("red")
    assert not [p for p in g.prompts() if p["player"] == "yellow" and p["kind"] == "window"]
    assert "Quash.1" in g.hand("yellow")


def test_a_deal_goes_ahead_when_nobody_quashes_it():
    g = quash_game(yellow_hand=["A16", "A17", "A18", "A19", "A20", "A30", "A40"])
    make_a_deal(g)
    g.answer("red", "give_cards", "give", {"cards": ["A9.1"]})
    g.answer("red", "take_base", "place", {"tokens": {"cone:offense": 2}})
    assert "A9.1" in g.hand("blue")
    assert g.tokens("blue-0") == {"blue": 4, "red": 2}
    assert g.warp("red") == 0 and g.warp("blue") == 0
