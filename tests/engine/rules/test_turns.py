"""RULES.md 4: the turn: pre-challenge phase, regroup, the second challenge, and how a turn ends."""

import pytest

from engine.errors import RulesError
from engine.scenario import Scenario, kinds

POWERS = {"red": ["Filch"], "blue": ["Chronos"], "yellow": ["Laser"]}
HIGH = ["A20", "A15", "A14", "A13", "A12", "A11", "A10"]
LOW = ["A4", "A5", "A6", "A7", "A8", "A9", "C"]
OTHER = ["A6", "A7", "A8", "C", "C", "C", "C"]
NO_CHALLENGE_CARD = ["R+2", "R+2", "R+3", "R+3", "R+3", "R+5", "CardZap"]
OPTIONS = {"edicts": True, "reinforcements": True}


def game(**kw) -> Scenario:
    kw.setdefault("powers", POWERS)
    kw.setdefault("hands", {"red": HIGH, "blue": LOW, "yellow": OTHER})
    kw.setdefault("destiny", ["blue.1", "yellow.1"])
    return Scenario(players=3, first="red", **kw)


def win_first_challenge(g: Scenario, card: str = "A20") -> None:
    """Red attacks blue-0 with four tokens and wins with ``card`` against blue's Attack 4."""
    g.launch({"red-0": 4}, "blue-0")
    g.invite_none()
    g.play("red", card)
    g.play("blue", "A4")
    g.pass_windows()
    assert g.outcome["winner"] == "offense"


def lose_first_challenge(g: Scenario) -> None:
    """Red attacks blue-0 with one token and loses with an Attack 10 against blue's Attack 9 and 4 tokens."""
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A9")
    g.pass_windows()
    assert g.outcome["winner"] == "defense"


# Pre-challenge ------------------------------------------------------------------------------

def test_an_offense_without_a_challenge_card_discards_its_hand_and_draws_seven():
    fresh = ["A30", "C", "A6", "A7", "A8", "A9", "A10"]
    g = game(hands={"red": NO_CHALLENGE_CARD, "blue": LOW, "yellow": OTHER}, deck=fresh, options=OPTIONS)
    assert kinds(g.hand("red")) == sorted(fresh)
    assert kinds(g.state["discard"]) == sorted(NO_CHALLENGE_CARD)
    drew = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "new hand"]
    assert [(m["src"], m["dst"]) for m in drew] == [("hand:red", "discard"), ("deck", "hand:red")]


def test_a_new_hand_without_a_challenge_card_is_discarded_and_drawn_again():
    still_none = ["CosmicZap", "Plague", "Quash", "Quash", "Plague", "MobiusTubes", "MobiusTubes"]
    fresh = ["C", "A5", "A6", "A7", "A8", "A9", "A10"]
    g = game(hands={"red": NO_CHALLENGE_CARD, "blue": LOW, "yellow": OTHER}, deck=still_none + fresh,
             options=OPTIONS)
    g.pass_windows()  # (the start window reopens after each new hand: see the next test)
    assert kinds(g.hand("red")) == sorted(fresh)
    assert kinds(g.state["discard"]) == sorted(NO_CHALLENGE_CARD + still_none)


def test_after_a_pre_challenge_new_hand_the_start_window_opens_again():
    """000: draw, then "return to the beginning of the pre-challenge phase" (14.9): a Mobius Tubes
    just drawn can be played at the start of the challenge."""
    drawn = ["MobiusTubes", "A5", "A6", "A7", "A8", "A9", "A10"]
    g = game(hands={"red": NO_CHALLENGE_CARD, "blue": LOW, "yellow": OTHER}, deck=drawn, options=OPTIONS,
             tokens={"blue-0": {"blue": 1}})
    assert kinds(g.hand("red")) == sorted(drawn)
    owed = g.owe("red", "window")
    assert owed["info"]["window"] == "start"
    tubes = next(c for c in g.hand("red") if c.startswith("MobiusTubes"))
    assert f"card:{tubes}" in g.abilities("red")
    g.use("red", f"card:{tubes}")
    back = g.owe("blue", "place_tokens")  # every token in the warp comes home: blue places its 3
    assert (back["info"]["from"], back["info"]["count"]) == ("warp", 3)


def test_an_offense_holding_one_challenge_card_keeps_its_hand():
    one = ["A4", "R+2", "R+2", "R+3", "R+3", "R+3", "R+5"]
    g = game(hands={"red": one, "blue": LOW, "yellow": OTHER}, options=OPTIONS)
    assert kinds(g.hand("red")) == sorted(one)
    assert g.state["discard"] == []


# Stage 1, regroup -----------------------------------------------------------------------------

def test_regroup_moves_one_token_from_the_warp_to_a_base_of_the_offenses_choice():
    g = game(tokens={"red-0": {"red": 1}, "blue-1": {"blue": 4, "red": 2}})
    owed = g.owe("red", "regroup")
    assert owed["options"][0]["args"]["to"]["values"] == ["red-0", "red-1", "red-2", "red-3", "red-4", "blue-1"]
    g.regroup("red", "blue-1")
    assert g.tokens("blue-1") == {"blue": 4, "red": 3}
    assert g.warp("red") == 0


def test_regroup_may_be_declined():
    g = game(tokens={"red-0": {"red": 1}})
    g.regroup("red", None)
    assert g.warp("red") == 3
    assert g.ch["defense"] == "blue"


def test_an_offense_with_no_token_in_the_warp_is_not_asked_to_regroup():
    g = game()
    assert "regroup" not in [p["kind"] for p in g.prompts()]
    assert g.ch["stage"] >= 2


def test_an_offense_without_any_base_regroups_onto_the_cone():
    empty = {f"red-{i}": {} for i in range(5)}
    g = game(tokens=empty)
    owed = g.owe("red", "regroup")
    assert owed["options"][0]["args"]["to"]["values"] == ["cone"]
    g.regroup("red", "cone")
    assert g.tokens("cone:offense") == {"red": 1}
    assert g.warp("red") == 19
    launch = g.owe("red", "launch")["options"][0]["args"]["tokens"]
    assert (launch["min"], launch["max"]) == (0, 0)  # nothing more to launch: the regrouped token goes
    g.launch({}, "blue-0")
    assert g.tokens("cone:offense") == {"red": 1}


# Stage 7: a main player without a challenge card ------------------------------------------

def test_an_offense_without_a_challenge_card_at_stage_7_ends_its_turn_and_the_cone_empties():
    g = game(powers={"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Laser"]},
             hands={"red": ["A10"], "blue": ["A4"], "yellow": OTHER}, exact_hands=True)
    g.launch({"red-0": 2}, "blue-0")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-3": 1})
    g.use("blue", "power:Mutant", {"sources": ["red", "deck", "deck", "deck", "deck", "deck"]})
    assert g.hand("red") == []
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("red", "place_tokens"), ("yellow", "place_tokens")]
    g.place("red", {"red-1": 2})
    g.place("yellow", {"yellow-0": 1})
    assert g.tokens("cone:offense") == {}
    assert g.tokens("red-1") == {"red": 6}
    assert g.tokens("red-0") == {"red": 2}
    assert (g.tokens("yellow-0"), g.tokens("yellow-3")) == ({"yellow": 5}, {"yellow": 3})
    assert g.state["turn"]["offense"] == "blue"
    ended = [e["payload"] for e in g.log if e["type"] == "TurnEnded"]
    assert ended == [{"player": "red", "reason": "offense has no challenge card"}]


def test_a_defense_without_a_challenge_card_at_stage_7_draws_a_new_hand():
    drawn_by_mutant = ["A5", "A6", "A7", "A8", "A9"]
    new_hand = ["C", "A11", "A12", "A13", "A14", "A15", "A16"]
    g = game(powers={"red": ["Mutant"], "blue": ["Filch"], "yellow": ["Laser"]},
             hands={"red": ["A10"], "blue": ["A4"], "yellow": OTHER}, exact_hands=True,
             deck=drawn_by_mutant + new_hand)
    g.launch({"red-0": 2}, "blue-0")
    g.invite_none()
    g.use("red", "power:Mutant", {"sources": ["blue", "deck", "deck", "deck", "deck", "deck"]})
    assert kinds(g.hand("red")) == sorted(["A10", "A4"] + drawn_by_mutant)
    assert kinds(g.hand("blue")) == sorted(new_hand)
    assert g.owe("blue", "challenge_card")


# Stage 10 ------------------------------------------------------------------------------------

def test_after_a_successful_first_challenge_the_offense_may_challenge_again():
    g = game()
    win_first_challenge(g)
    owed = g.owe("red", "second_challenge")
    assert [o["action"] for o in owed["options"]] == ["challenge_again", "end_turn"]
    g.challenge_again()
    assert g.state["turn"] == {"offense": "red", "number": 1, "challenge": 2, "succeeded": True}
    assert g.ch["number"] == 2
    assert g.ch["defense"] == "yellow"  # the next destiny card


def test_a_second_challenge_ends_the_turn_whatever_its_outcome():
    g = game(destiny=["blue.1", "yellow.1", "blue.2"])
    win_first_challenge(g)
    g.challenge_again()
    g.launch({"red-1": 4}, "yellow-0")
    g.invite_none()
    g.play("red", "A15")
    g.play("yellow", "A6")
    g.pass_windows()
    assert g.outcome["winner"] == "offense"
    g.pass_windows()
    assert "second_challenge" not in [p["kind"] for p in g.prompts()]
    assert g.state["turn"]["offense"] == "blue"


def test_the_offense_may_end_its_turn_after_a_successful_challenge():
    g = game()
    win_first_challenge(g)
    g.end_turn()
    assert g.state["turn"]["offense"] == "blue"
    assert g.state["turn"]["number"] == 2


def test_no_second_challenge_after_a_failed_first_one():
    g = game()
    lose_first_challenge(g)
    g.pass_windows()
    assert "second_challenge" not in [p["kind"] for p in g.prompts()]
    assert g.state["turn"]["offense"] == "blue"


def test_no_second_challenge_without_a_challenge_card_and_no_new_hand_at_stage_10():
    last_card = ["A20", "R+2", "R+2", "R+3", "R+3", "R+3", "R+5"]
    g = game(hands={"red": last_card, "blue": LOW, "yellow": OTHER}, options=OPTIONS)
    win_first_challenge(g)
    g.pass_windows()
    assert "second_challenge" not in [p["kind"] for p in g.prompts()]
    assert kinds(g.hand("red")) == ["R+2", "R+2", "R+3", "R+3", "R+3", "R+5"]
    assert g.state["turn"]["offense"] == "blue"


def test_the_second_challenge_has_no_pre_challenge_new_hand():
    g = game(destiny=["blue.1", "yellow.1"])
    win_first_challenge(g)
    g.challenge_again()
    new_hands = [e for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "new hand"]
    assert new_hands == []


def test_the_turn_passes_to_the_left():
    g = game()
    lose_first_challenge(g)
    g.pass_windows()
    assert g.state["turn"]["offense"] == "blue"
    began = [e["payload"] for e in g.log if e["type"] == "TurnBegan"]
    assert began == [{"player": "red", "turn": 1}, {"player": "blue", "turn": 2}]


def test_a_second_challenge_cannot_be_asked_for_when_not_offered():
    g = game()
    lose_first_challenge(g)
    g.pass_windows()
    with pytest.raises(RulesError):
        g.command("red", "challenge_again")


# Stage 3: nothing to launch --------------------------------------------------------------------

def test_an_offense_that_cannot_put_a_token_on_the_cone_ends_its_turn():
    nothing = {f"red-{i}": {} for i in range(5)}
    g = game(tokens=nothing)
    g.regroup("red", None)
    assert g.state["turn"]["offense"] == "blue"
    ended = [e["payload"] for e in g.log if e["type"] == "TurnEnded"]
    assert ended == [{"player": "red", "reason": "no token to launch"}]


def test_an_offense_stripped_of_its_last_challenge_card_before_stage_7_ends_its_turn_at_once():
    """000: running out of challenge cards before playing one in stage 7 ends the turn immediately;
    the tokens on the cone go home (14.4)."""
    from tests.engine.edicts.test_plague import use_in
    from tests.engine.scenarios import red_attacks_blue

    g = red_attacks_blue("Filch", "Mutant", "Mind",
                         {"red": ["A10", "R+2"], "blue": ["A20", "C"], "yellow": ["Plague", "A4"]},
                         options={"edicts": True, "reinforcements": True}, exact_hands=True)
    g.launch({"red-0": 3}, "blue-2")
    use_in(g, "yellow", "launch", "card:Plague", {"player": "red"})
    g.lose("red", {"red-1": 3})
    # red's only challenge card is gone: no alliances, no stage 7; the cone's tokens go home
    g.place("red", {"red-0": 3})
    ended = [e["payload"] for e in g.log if e["type"] == "TurnEnded"]
    assert ended == [{"player": "red", "reason": "offense has no challenge card"}]
    assert g.tokens("cone:offense") == {}
    assert g.tokens("red-0") == {"red": 4}
    assert not any(e["type"] == "AlliesInvited" for e in g.log)


def test_a_defense_drawing_for_a_challenge_card_may_use_each_new_hand_before_drawing_again():
    """000: the defense "may play, discard, draw" (14.10): an edict in a hand without a challenge card
    can be played before that hand is discarded."""
    drawn_by_mutant = ["A5", "A6", "A7", "A8", "A9"]
    no_challenge = ["Plague", "R+2", "R+2", "R+3", "R+3", "R+3", "R+5"]
    fresh = ["C", "A11", "A12", "A13", "A14", "A15", "A16"]
    g = game(powers={"red": ["Mutant"], "blue": ["Filch"], "yellow": ["Laser"]},
             hands={"red": ["A10"], "blue": ["A4"], "yellow": OTHER}, exact_hands=True,
             deck=drawn_by_mutant + no_challenge + fresh, options={"edicts": True, "reinforcements": True})
    g.launch({"red-0": 2}, "blue-0")
    g.invite_none()
    g.use("red", "power:Mutant", {"sources": ["blue", "deck", "deck", "deck", "deck", "deck"]})
    assert kinds(g.hand("blue")) == sorted(no_challenge)
    owed = g.owe("blue", "window")
    plague = next(c for c in g.hand("blue") if c.startswith("Plague"))
    assert f"card:{plague}" in g.abilities("blue")
    assert [p["player"] for p in g.prompts() if p["kind"] == "window"] == ["blue"]  # only the redrawing defense
    g.command("blue", "pass", prompt=owed["id"])
    assert kinds(g.hand("blue")) == sorted(fresh)
    assert g.owe("blue", "challenge_card")
