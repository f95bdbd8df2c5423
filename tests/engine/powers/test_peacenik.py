"""Peacenik (004): demonstrators march onto the base of a player who plays a War card."""

from engine import flow
from engine.scenario import Scenario
from tests.engine import scenarios
from tests.engine.scenarios import last_outcome

RED = ["War", "A12", "A15", "A4", "A5", "A6", "A7"]
BLUE = ["A20", "A9", "C", "A11", "A13", "A14", "A16"]
YELLOW = ["A17", "A18", "A19", "A30", "A40", "C", "C"]
POWERS = {"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Peacenik"]}


def peace_game(powers=POWERS, hands=None, tokens=None, flares=False, edicts=False):
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers=powers, hands=stacked, destiny=["blue.1"], first="red",
                    tokens=tokens, options={"war_cards": True, "flares": flares, "edicts": edicts})


def challenge(g, red_card="War", blue_card="A20"):
    scenarios.challenge(g, red_card, blue_card, red_tokens=3)


def test_peacenik_power_marches_onto_the_war_players_base_and_may_stay():
    g = peace_game()
    challenge(g)
    reaction = g.owe("yellow", "reaction")
    assert reaction["info"]["context"] == {"target": "red"}
    planets = reaction["options"][0]["args"]["planet"]["values"]
    assert planets == ["red-0", "red-1", "red-2", "red-3", "red-4"]  # red's bases
    g.answer("yellow", "reaction", "use", {"planet": "red-1"}, ability="power:Peacenik")
    g.answer("yellow", "peacenik_march", "march", {"tokens": {"yellow-0": 2, "yellow-3": 1}})
    verdict = g.owe("red", "peacenik_verdict")
    assert [o["action"] for o in verdict["options"]] == ["allow", "warp"]
    g.answer("red", "peacenik_verdict", "allow")
    assert g.tokens("red-1") == {"red": 4, "yellow": 3}
    assert g.tokens("yellow-0") == {"yellow": 2} and g.tokens("yellow-3") == {"yellow": 3}
    # the challenge goes on: the War beats blue's Attack
    g.pass_windows()
    assert last_outcome(g)["winner"] == "offense"


def test_peacenik_power_the_war_player_sends_both_players_tokens_to_the_warp():
    g = peace_game()
    challenge(g)
    g.answer("yellow", "reaction", "use", {"planet": "red-2"}, ability="power:Peacenik")
    g.answer("yellow", "peacenik_march", "march", {"tokens": {"yellow-1": 4}})
    g.answer("red", "peacenik_verdict", "warp")
    assert g.tokens("red-2") == {}
    assert g.warp("red") == 4 and g.warp("yellow") == 4
    assert g.tokens("yellow-1") == {}


def test_peacenik_power_a_player_who_does_not_answer_lets_the_tokens_stay():
    g = peace_game()
    challenge(g)
    g.answer("yellow", "reaction", "use", {"planet": "red-2"}, ability="power:Peacenik")
    g.answer("yellow", "peacenik_march", "march", {"tokens": {"yellow-1": 3}})
    prompt = g.owe("red", "peacenik_verdict")
    step = flow.current(g.state)
    assert flow.STEPS[step["op"]].default(g.state, step, prompt, None) == {"action": "allow", "args": {}}


def test_peacenik_power_is_not_offered_for_attacks_or_for_its_own_war_card():
    g = peace_game()
    challenge(g, red_card="A12", blue_card="A20")
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    # red is the Peacenik and plays the War card itself: "other than yourself"
    g = peace_game(powers={"red": ["Peacenik"], "blue": ["Mutant"], "yellow": ["Filch"]})
    challenge(g)
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    g.pass_windows()
    assert last_outcome(g)["winner"] == "offense"


def test_peacenik_off_when_it_holds_fewer_than_three_home_bases():
    g = peace_game(tokens={"yellow-0": {}, "yellow-1": {}, "yellow-2": {}})
    challenge(g)
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    g.pass_windows()
    assert last_outcome(g)["winner"] == "offense"
    assert g.tokens("yellow-3") == {"yellow": 4} and g.tokens("red-1") == {"red": 4}


def test_peacenik_off_when_cosmic_zap_cancels_the_march():
    g = peace_game(hands={"blue": ["CosmicZap", "A20", "A9", "C", "A11", "A13", "A14"]}, edicts=True)
    challenge(g)
    g.answer("yellow", "reaction", "use", {"planet": "red-1"}, ability="power:Peacenik")
    g.use("blue", "card:CosmicZap")
    assert not [p for p in g.prompts() if p["kind"] in ("peacenik_march", "peacenik_verdict")]
    assert g.tokens("red-1") == {"red": 4}
    assert g.tokens("yellow-0") == {"yellow": 4}


def test_peacenik_wild_hands_compromises_to_the_war_player():
    # blue is the Peacenik (and declines to march); yellow holds the flare, Wild for it. Blue-2 is
    # empty, so blue loses no tokens and takes no consolation that could move the cards again
    g = peace_game(powers={"red": ["Filch"], "blue": ["Peacenik"], "yellow": ["Mutant"]},
                   hands={"yellow": ["Flare:Peacenik", "A18", "A19", "A30", "C", "C", "C"]}, flares=True,
                   tokens={"blue-2": {}})
    challenge(g)
    g.answer("blue", "reaction", "decline")
    compromises = [c for c in g.hand("yellow") if c.startswith("C")]
    g.use("yellow", "card:Flare:Peacenik", {"player": "red", "cards": compromises[:2]})
    assert set(compromises[:2]) <= set(g.hand("red"))
    assert [c for c in g.hand("yellow") if c.startswith("C")] == compromises[2:]
    assert "Flare:Peacenik" in g.state["discard"]


def test_peacenik_super_marches_onto_an_offense_that_won_with_an_attack():
    g = peace_game(hands={"yellow": ["Flare:Peacenik", "A18", "A19", "A30", "C", "C", "C"]}, flares=True)
    challenge(g, red_card="A15", blue_card="A9")
    g.use("yellow", "card:Flare:Peacenik", {"planet": "blue-2"})
    g.answer("yellow", "peacenik_march", "march", {"tokens": {"yellow-2": 3}})
    g.answer("red", "peacenik_verdict", "warp")
    # red's freshly won base on blue-2 and yellow's marchers all go to the warp
    assert g.tokens("blue-2") == {}
    assert g.warp("red") == 3 and g.warp("yellow") == 3 and g.warp("blue") == 4


def test_peacenik_super_is_not_offered_when_the_offense_loses():
    g = peace_game(hands={"yellow": ["Flare:Peacenik", "A18", "A19", "A30", "C", "C", "C"]}, flares=True)
    challenge(g, red_card="A12", blue_card="A20")
    g.pass_windows()
    assert last_outcome(g)["winner"] == "defense"
    assert "Flare:Peacenik" in g.hand("yellow")
    assert not [e for e in g.log if e["type"] == "CardPlayed"]


def test_peacenik_power_also_marches_on_a_card_that_becomes_war_after_the_reveal():
    """14.13: blue's Attack becomes a War card under Hawk's Wild flare: blue has played War too."""
    hands = {"red": ["War", "Flare:Hawk", "A4", "A5", "A6", "A7", "A9"]}
    g = peace_game(hands=hands, flares=True)
    challenge(g)
    first = g.owe("yellow", "reaction")
    assert first["info"]["context"] == {"target": "red"}
    g.answer("yellow", "reaction", "decline")
    scenarios.offered(g, "red", "card:Flare:Hawk")
    g.use("red", "card:Flare:Hawk")
    again = g.owe("yellow", "reaction")
    assert again["info"]["context"] == {"target": "blue"}
