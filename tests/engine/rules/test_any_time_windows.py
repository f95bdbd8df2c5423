"""RULES.md 5: "any time" cards and powers while several players owe a decision (issue 14.11).

000: the infinity icon "indicates that the card or power can be used at any time". Two parts of
a challenge are decisions rather than stage boundaries: the alliance answers (stage 6, one
invitee after another) and the deal (stage 8, both main players at once, against the clock).

- Before each invitee answers, a window opens for what is usable at any time (the invitations
  are known; each answer may change what the next invitee does). After the last answer the
  usual alliance window follows.
- While the main players negotiate, each of them is offered what it could use at any time beside
  its deal decision, and every other player holding something usable at any time is asked at the
  same time (it may pass, or pass for the rest of the stage). The deal's clock keeps running.

Nobody is asked who holds nothing usable there.
"""

import pytest

from engine.errors import RulesError
from engine.scenario import Scenario, kinds, terms

POWERS = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"]}
RED = ["C", "A15", "A14", "A13", "A12", "A11", "A10"]
BLUE = ["C", "A4", "A5", "A6", "A7", "A8", "A9"]
YELLOW = ["Plague", "A6", "A6", "A8", "A8", "A20"]
PURPLE = ["A12", "A12"]


def negotiating(hands: dict, **kw) -> Scenario:
    """Red (3 tokens on blue-0's cone) and blue both played Compromises: the deal is open.

    The stacked hands are the whole hands (nobody holds an edict by chance)."""
    hands = {"purple": PURPLE, "yellow": YELLOW[1:], **hands}
    g = Scenario(players=4, powers=POWERS, first="red", destiny=["blue.1"], hands=hands, exact_hands=True,
                 options={"edicts": True, **kw.pop("options", {})}, **kw)
    g.launch({"red-0": 3}, "blue-0")
    g.invite("red", [])
    g.invite("blue", [])
    g.play("red", "C")
    g.play("blue", "C")
    g.pass_windows()
    return g


def asked(g: Scenario) -> list[tuple[str, str]]:
    return [(p["player"], p["kind"]) for p in g.prompts()]


def test_a_bystander_may_play_an_any_time_card_while_the_main_players_negotiate():
    """Yellow's Plague during the deal: blue loses 3 tokens and a card of each kind, then the deal goes on."""
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW})
    assert asked(g) == [("red", "deal"), ("blue", "deal"), ("yellow", "window")]
    window = g.prompts("yellow")[0]
    assert window["info"] == {"window": "negotiation"}
    assert [o["action"] for o in window["options"]] == ["use", "pass", "pass_stage"]
    deadline = g.prompts("red")[0]["deadline"]
    g.use("yellow", "card:Plague", {"player": "blue"})
    g.lose("blue", {"blue-3": 3})
    discarded = next(c for c in g.hand("blue") if c.startswith("A9"))
    g.answer("blue", "plague_discards", "discard", {"attack": discarded})
    assert g.warp("blue") == 3 and g.tokens("blue-3") == {"blue": 1}
    assert kinds(g.hand("blue")) == ["A4", "A5", "A6", "A7", "A8"]
    assert "Plague" not in kinds(g.hand("yellow"))
    # the negotiation goes on, on the same clock; yellow has nothing usable left and is not asked
    assert asked(g) == [("red", "deal"), ("blue", "deal")]
    assert {p["deadline"] for p in g.prompts()} == {deadline}
    g.propose("blue", terms(defense_gives={"count": 1}))
    g.accept("red", 1)
    g.pass_windows()
    g.give("blue", [next(c for c in g.hand("blue") if c.startswith("A4"))])
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert [c["made"] for c in concluded] == [True]
    assert kinds(g.hand("blue")) == ["A5", "A6", "A7", "A8"]


def test_a_main_player_is_offered_its_any_time_cards_beside_its_deal_decision():
    g = negotiating({"red": ["C", "Plague", "A14", "A13", "A12", "A11", "A10"], "blue": BLUE})
    assert asked(g) == [("red", "deal"), ("blue", "deal")]  # nobody else holds anything usable
    red = g.prompts("red")[0]
    assert [o["action"] for o in red["options"]] == ["propose", "give_up", "use"]
    assert [o["action"] for o in g.prompts("blue")[0]["options"]] == ["propose", "give_up"]
    g.use("red", "card:Plague", {"player": "blue"})
    g.lose("blue", {"blue-4": 3})
    g.answer("blue", "plague_discards", "discard", {"attack": next(c for c in g.hand("blue") if c.startswith("A4"))})
    assert g.warp("blue") == 3 and g.tokens("blue-4") == {"blue": 1}
    assert kinds(g.hand("blue")) == ["A5", "A6", "A7", "A8", "A9"]
    assert asked(g) == [("red", "deal"), ("blue", "deal")]
    assert [o["action"] for o in g.prompts("red")[0]["options"]] == ["propose", "give_up"]


def test_a_main_player_that_gave_up_is_asked_like_any_bystander_while_the_other_still_negotiates():
    g = negotiating({"red": RED, "blue": ["C", "Plague", "A4", "A5", "A6", "A7", "A8"]})
    assert [o["action"] for o in g.prompts("blue")[0]["options"]] == ["propose", "give_up", "use"]
    g.give_up("blue")
    assert asked(g) == [("red", "deal"), ("blue", "window")]
    assert g.prompts("blue")[0]["info"] == {"window": "negotiation"}


def test_a_bystander_who_passes_is_not_asked_again_during_the_negotiation():
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW})
    g.command("yellow", "pass", prompt=g.prompts("yellow")[0]["id"])
    assert asked(g) == [("red", "deal"), ("blue", "deal")]
    g.propose("red", terms(offense_gives={"count": 1}))
    assert asked(g) == [("red", "deal"), ("blue", "deal")]
    g.give_up("blue")
    g.give_up("red")
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "no agreement"}]


def test_the_deal_fails_when_its_time_ran_out_while_a_card_was_being_played():
    """The deal's minute keeps running while a Plague is carried out."""
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW}, options={"deal_seconds": 5})
    deadline = g.prompts("red")[0]["deadline"]
    g.use("yellow", "card:Plague", {"player": "blue"})
    g.clock = deadline  # blue chooses its losses 1 s after the deal's deadline
    g.lose("blue", {"blue-3": 3})
    g.answer("blue", "plague_discards", "discard", {"attack": next(c for c in g.hand("blue") if c.startswith("A9"))})
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert {p["kind"] for p in g.prompts()} == {"choose_losses"}


def test_a_bystanders_window_lasts_as_long_as_the_negotiation():
    """The window closes with the deal: it has the deal's deadline, and a pass sent after it is void."""
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW}, options={"decision_seconds": 5})
    window = g.prompts("yellow")[0]
    assert window["deadline"] == g.prompts("red")[0]["deadline"]
    g.clock = window["deadline"]  # yellow's pass arrives 1 s after the deadline
    events = g.command("yellow", "pass", prompt=window["id"])
    assert [e["type"] for e in events][:2] == ["DecisionTimedOut", "DealConcluded"]
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert not [e for e in g.log if e["type"] == "Passed" and e["payload"]["window"] == "negotiation"]


def test_a_bystanders_window_that_times_out_first_passes_and_the_deal_fails_at_the_same_deadline():
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW})
    window = g.prompts("yellow")[0]
    g.timeout(window["id"], at=window["deadline"])
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert concluded == [{"made": False, "terms": None, "reason": "time ran out"}]
    assert {p["kind"] for p in g.prompts()} == {"choose_losses"}


# Alliances ---------------------------------------------------------------------------------

FIVE = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"], "light_blue": ["Kamikaze"]}
PLAIN = ["A6", "A8", "C"]


def invited(light_blue: list[str]) -> Scenario:
    """Red attacks yellow-0 and invites blue and purple; light_blue, invited by nobody, holds ``light_blue``."""
    g = Scenario(players=5, powers=FIVE, first="red", destiny=["yellow.1"], options={"edicts": True},
                 hands={"red": PLAIN, "blue": PLAIN, "yellow": PLAIN, "purple": PLAIN, "light_blue": light_blue},
                 exact_hands=True)
    g.launch({"red-0": 2}, "yellow-0")
    g.invite("red", ["blue", "purple"])
    g.auto_pass = False
    g.invite("yellow", [])
    return g


def test_any_time_cards_may_be_played_before_each_alliance_answer():
    g = invited(["Plague"] + PLAIN)
    # before blue answers, light_blue (the only holder of an any-time card) may play it
    assert asked(g) == [("light_blue", "window")]
    assert g.prompts()[0]["info"] == {"window": "alliance_answers"}
    g.command("light_blue", "pass", prompt=g.prompts()[0]["id"])
    g.join("blue", "offense", {"blue-0": 4})
    # blue's answer is known: before purple answers, light_blue is asked again and plagues blue
    assert asked(g) == [("light_blue", "window")]
    g.use("light_blue", "card:Plague", {"player": "blue"})
    g.lose("blue", {"cone:offense": 3})
    g.answer("blue", "plague_discards", "discard", {"attack": next(c for c in g.hand("blue") if c.startswith("A6"))})
    assert kinds(g.hand("blue")) == ["A8"]  # one card of each kind: an Attack and the Compromise
    assert g.tokens("cone:offense") == {"red": 2, "blue": 1}
    assert g.warp("blue") == 3
    assert asked(g) == [("purple", "alliance")]
    g.decline("purple")
    assert g.ch["allies"] == {"blue": "offense"} and g.ch["declined"] == ["purple"]


def test_a_player_who_passes_for_the_stage_is_not_asked_again_during_the_alliances():
    g = invited(["Plague", "CosmicZap"] + PLAIN)
    g.command("light_blue", "pass_stage", prompt=g.prompts()[0]["id"])
    assert asked(g) == [("blue", "alliance")]
    g.join("blue", "offense", {"blue-0": 1})
    assert asked(g) == [("purple", "alliance")]  # no window before purple's answer
    g.decline("purple")
    # nor the window after the alliances (still stage 6); the next stage asks again
    assert [p["info"]["window"] for p in g.prompts() if p["kind"] == "window"] == ["planning"]


def test_nobody_is_asked_between_alliance_answers_who_holds_nothing_usable_at_any_time():
    g = invited(PLAIN)
    assert asked(g) == [("blue", "alliance")]
    g.join("blue", "offense", {"blue-0": 1})
    assert asked(g) == [("purple", "alliance")]
    assert not [e for e in g.log if e["type"] == "Passed"]


def test_a_card_named_in_a_deal_and_discarded_before_the_deal_is_carried_out_is_not_given():
    """A Plague in the window after the deal was agreed makes red discard the A15 it promised."""
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW})
    promised = next(c for c in g.hand("red") if c.startswith("A15"))
    g.command("yellow", "pass", prompt=g.prompts("yellow")[0]["id"])
    g.propose("red", terms(offense_gives={"named": [promised]}))
    g.accept("blue", 1)
    g.use("yellow", "card:Plague", {"player": "red"})
    g.lose("red", {"red-1": 3})
    g.answer("red", "plague_discards", "discard", {"attack": promised})
    g.pass_windows()
    assert promised in g.state["discard"]
    assert kinds(g.hand("blue")) == ["A4", "A5", "A6", "A7", "A8", "A9"]
    assert kinds(g.hand("red")) == ["A10", "A11", "A12", "A13", "A14"]
    concluded = [e["payload"] for e in g.log if e["type"] == "DealConcluded"]
    assert [c["made"] for c in concluded] == [True]


def test_a_proposal_naming_a_card_its_proposer_no_longer_holds_cannot_be_accepted():
    g = negotiating({"red": RED, "blue": BLUE, "yellow": YELLOW})
    promised = next(c for c in g.hand("red") if c.startswith("A15"))
    g.propose("red", terms(offense_gives={"named": [promised]}))
    g.use("yellow", "card:Plague", {"player": "red"})
    g.lose("red", {"red-1": 3})
    g.answer("red", "plague_discards", "discard", {"attack": promised})
    with pytest.raises(RulesError, match="no longer holds"):
        g.accept("blue", 1)
    g.propose("red", terms(offense_gives={"count": 1}))
    g.accept("blue", 2)
    assert g.owe("red", "give_cards")


def test_an_offense_plagued_out_of_its_last_challenge_card_between_alliance_answers_ends_its_turn_at_once():
    """000: out of challenge cards before stage 7, the turn ends at that moment (14.4), here between answers."""
    g = Scenario(players=5, powers=FIVE, first="red", destiny=["yellow.1"], options={"edicts": True},
                 hands={"red": ["A6"], "blue": PLAIN, "yellow": PLAIN, "purple": PLAIN,
                        "light_blue": ["Plague"] + PLAIN}, exact_hands=True)
    g.launch({"red-0": 2}, "yellow-0")
    g.invite("red", ["blue", "purple"])
    g.auto_pass = False
    g.invite("yellow", [])
    g.command("light_blue", "pass", prompt=g.prompts()[0]["id"])
    g.join("blue", "offense", {"blue-0": 2})
    g.use("light_blue", "card:Plague", {"player": "red"})
    g.lose("red", {"red-1": 3})
    assert g.hand("red") == []
    # at once: purple is never asked; the cone's tokens go home, then the turn ends
    assert asked(g) == [("red", "place_tokens"), ("blue", "place_tokens")]
    g.place("red", {"red-0": 2})
    g.place("blue", {"blue-0": 2})
    ended = [e["payload"] for e in g.log if e["type"] == "TurnEnded"]
    assert ended == [{"player": "red", "reason": "offense has no challenge card"}]
    assert g.tokens("cone:offense") == {} and g.tokens("red-0") == {"red": 4}
