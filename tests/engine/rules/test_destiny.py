"""RULES.md 4, stage 2: the destiny card decides who the defense is and which side of the cone is up."""

import pytest

from engine.errors import RulesError
from engine.scenario import Scenario, kinds

POWERS = {"red": ["Mind"], "blue": ["Filch"], "yellow": ["Mutant"]}
ATTACKS = ["A10", "A11", "A12", "A13", "A14", "A15", "A16"]
LOW = ["A4", "A5", "A6", "A7", "A8", "A9", "C"]
HANDS = {"red": ATTACKS, "blue": LOW, "yellow": LOW}


def game(destiny, **kw) -> Scenario:
    kw.setdefault("powers", POWERS)
    kw.setdefault("hands", HANDS)
    return Scenario(players=kw.pop("players", 3), destiny=destiny, first="red", **kw)


def destiny_prompt(g: Scenario) -> dict:
    return next(p for p in g.prompts("red") if p["kind"] in ("own_colour", "choose_defense"))


def test_a_colour_card_makes_that_colours_player_the_defense_in_its_own_system():
    g = game(["yellow.2"])
    assert g.ch["defense"] == "yellow"
    assert g.ch["reverse"] is False
    assert g.state["destiny_discard"] == ["yellow.2"]
    launch = g.owe("red", "launch")
    assert launch["options"][0]["args"]["planet"]["values"] == [f"yellow-{i}" for i in range(5)]


def test_the_destiny_card_drawn_goes_onto_the_destiny_discards():
    g = game(["blue.3"])
    assert "blue.3" not in g.state["destiny"]
    assert g.state["destiny_discard"][-1] == "blue.3"
    assert g.ch["destiny"] == "blue.3"


def test_a_wild_card_lets_the_offense_choose_any_system_its_own_included():
    g = game(["wild"])
    owed = destiny_prompt(g)
    assert owed["kind"] == "choose_defense"
    assert owed["options"][0]["args"]["player"]["values"] == ["blue", "yellow", "red"]
    with pytest.raises(RulesError):
        g.command("red", "choose_defense", {"player": "purple"}, prompt=owed["id"])
    g.choose_defense("yellow")
    assert g.ch["defense"] == "yellow"
    assert g.ch["reverse"] is False


def test_a_reverse_colour_card_turns_the_cone_to_its_reverse_side():
    g = game(["blue.rev"], options={"reverse_cone": True})
    assert g.ch["defense"] == "blue"
    assert g.ch["reverse"] is True


def test_a_reverse_wild_lets_the_offense_choose_and_reverses_the_cone():
    g = game(["wild.rev"], players=4, options={"reverse_cone": True},
             powers={**POWERS, "purple": ["Laser"]})
    g.choose_defense("purple")
    assert g.ch["defense"] == "purple"
    assert g.ch["reverse"] is True


def test_own_colour_drawing_again_turns_up_the_next_card():
    g = game(["red.1", "blue.2"], tokens={"red-3": {"red": 4, "yellow": 3}, "yellow-0": {"yellow": 1}})
    g.draw_again()
    assert g.ch["defense"] == "blue"
    assert g.state["destiny_discard"] == ["red.1", "blue.2"]


def test_own_colour_lets_the_offense_challenge_another_players_base_in_its_own_system():
    g = game(["red.2"], tokens={"red-3": {"red": 4, "yellow": 3}, "yellow-0": {"yellow": 1}})
    owed = destiny_prompt(g)
    assert [o["action"] for o in owed["options"]] == ["draw_again", "challenge_own_system"]
    assert owed["options"][1]["args"]["player"]["values"] == ["yellow"]
    g.challenge_own_system("yellow")
    assert g.ch["defense"] == "yellow"
    launch = g.owe("red", "launch")
    assert launch["options"][0]["args"]["planet"]["values"] == ["red-3"]
    g.launch({"red-0": 2}, "red-3")
    g.invite_none()
    g.play("red", "A10")
    g.play("yellow", "A4")
    # the defense defends with its 3 tokens on red-3; red's own 4 there take no part
    assert g.outcome["totals"] == {"offense": 12, "defense": 7}
    assert g.tokens("red-3") == {"red": 6}
    assert g.warp("yellow") == 3
    assert g.tokens("red-0") == {"red": 2}


def test_own_colour_challenge_whose_target_base_is_gone_before_the_launch_ends_the_turn():
    # (decision) yellow's only base in red's system is emptied in the destiny window: nothing to aim at
    hands = {**HANDS, "blue": ["Plague"] + LOW[:6]}
    g = game(["red.2"], hands=hands, tokens={"red-3": {"red": 4, "yellow": 1}, "yellow-0": {"yellow": 3}},
             options={"edicts": True})
    g.challenge_own_system("yellow")
    g.use("blue", "card:Plague", {"player": "yellow"})
    g.lose("yellow", {"red-3": 1, "yellow-0": 2})
    kinds_held = g.owe("yellow", "plague_discards")["options"][0]["args"]
    g.answer("yellow", "plague_discards", "discard", {k: shape["values"][0] for k, shape in kinds_held.items()})
    g.pass_windows()
    assert g.tokens("red-3") == {"red": 4}
    ended = [e["payload"] for e in g.log if e["type"] == "TurnEnded"]
    assert ended == [{"player": "red", "reason": "no planet to aim at"}]
    assert g.state["turn"]["offense"] == "blue"  # the turn passed to the left


def test_own_colour_lets_the_offense_reestablish_an_empty_home_planet_as_a_successful_challenge():
    g = game(["red.3"], tokens={"red-4": {}, "blue-1": {"blue": 4, "red": 4}})
    owed = destiny_prompt(g)
    assert [o["action"] for o in owed["options"]] == ["draw_again", "reestablish"]
    shape = owed["options"][1]["args"]
    assert shape["planet"]["values"] == ["red-4"]
    assert shape["tokens"]["sources"] == {"red-0": 4, "red-1": 4, "red-2": 4, "red-3": 4, "blue-1": 4}
    assert (shape["tokens"]["min"], shape["tokens"]["max"]) == (1, 20)  # "one or more" (14.15)
    g.reestablish("red-4", {"red-0": 1, "blue-1": 2})
    assert g.tokens("red-4") == {"red": 3}
    assert g.tokens("blue-1") == {"blue": 4, "red": 2}
    assert g.outcome == {"kind": "reestablished", "winner": "offense", "succeeded": True, "planet": "red-4"}
    # straight to stage 10: no launch, no cards; a successful first challenge earns a second one
    assert g.ch["stage"] == 10
    assert g.state["committed"] == {"offense": [], "defense": []}
    assert [p["kind"] for p in g.prompts("red")] == ["second_challenge"]


def test_a_home_planet_holding_another_players_tokens_is_not_empty():
    g = game(["red.3"], tokens={"red-4": {"blue": 1}, "blue-0": {"blue": 3}, "red-0": {"red": 8}})
    owed = destiny_prompt(g)
    assert "reestablish" not in [o["action"] for o in owed["options"]]


def test_reestablishing_takes_at_least_one_token_and_no_more_than_the_player_has_on_bases():
    g = game(["red.3"], tokens={"red-4": {}, "red-0": {"red": 8}})
    owed = destiny_prompt(g)
    for tokens in ({}, {"red-0": 9}):
        with pytest.raises(RulesError):
            g.command("red", "reestablish", {"planet": "red-4", "tokens": tokens}, prompt=owed["id"])


def test_with_one_card_left_the_destiny_pile_is_reshuffled_with_the_discards():
    order = ["blue.1", "yellow.1", "blue.2", "yellow.2", "blue.3", "yellow.3", "wild", "red.1", "red.2", "red.3"]
    g = game(order)
    g.play_defaults(until=lambda g: any(e["type"] == "DeckReshuffled" for e in g.log))
    at = next(i for i, e in enumerate(g.log) if e["type"] == "DeckReshuffled")
    drawn = [e["payload"]["card"] for e in g.log[:at] if e["type"] == "DestinyDrawn"]
    assert drawn == order[:9]  # nine drawn: one card left, so the pile is rebuilt at once
    assert g.log[at - 1]["type"] == "DestinyDrawn"
    reshuffled = g.log[at]["payload"]
    assert reshuffled["deck"] == "destiny"
    assert sorted(reshuffled["cards"]) == sorted(order)
    # (red's own colour only lets it draw again, which it does at once: draws may follow in the command)
    drawn_after = [e["payload"]["card"] for e in g.log[at:] if e["type"] == "DestinyDrawn"]
    assert sorted(g.state["destiny"] + drawn_after) == sorted(order)
    assert g.state["destiny_discard"] == drawn_after


def test_a_defense_without_a_challenge_card_discards_its_hand_and_draws_until_it_holds_one():
    no_challenge = ["R+2", "R+2", "R+3", "R+3", "R+3", "R+5", "CardZap"]
    still_none = ["CosmicZap", "Plague", "Quash", "Quash", "Plague", "MobiusTubes", "MobiusTubes"]
    fresh = ["A12", "C", "WarpBreak", "A4", "A5", "A6", "A7"]
    g = game(["blue.1"], hands={"red": ATTACKS, "blue": no_challenge, "yellow": LOW}, deck=still_none + fresh,
             options={"edicts": True, "reinforcements": True})
    g.owe("red", "launch")
    assert kinds(g.hand("blue")) == sorted(fresh)
    assert kinds(g.state["discard"]) == sorted(no_challenge + still_none)


def test_with_honeymoon_no_destiny_card_is_drawn_the_other_player_defends():
    g = Scenario(players=2, powers={"red": ["Mind"], "blue": ["Filch"]}, first="red", options={"honeymoon": True})
    assert g.ch["defense"] == "blue"
    assert g.state["destiny_discard"] == []
    assert not [e for e in g.log if e["type"] == "DestinyDrawn"]


def test_an_instructional_card_designates_the_player_it_describes():
    g = game(["inst:most-cards"], options={"special_destiny": True}, players=4,
             powers={**POWERS, "purple": ["Laser"]}, hands={"red": ATTACKS, "purple": ["A4"]},
             exact_hands=True, deck=["A5"] * 1)
    # blue and yellow hold 7 cards each, purple 1: the offense chooses among the tied
    owed = destiny_prompt(g)
    assert owed["kind"] == "choose_defense"
    assert owed["options"][0]["args"]["player"]["values"] == ["blue", "yellow"]
    g.choose_defense("yellow")
    assert (g.ch["defense"], g.ch["reverse"]) == ("yellow", False)


def test_an_instructional_card_with_one_player_meeting_it_needs_no_choice():
    g = game(["inst:fewest-warp"], options={"special_destiny": True},
             tokens={"blue-0": {"blue": 3}, "yellow-0": {"yellow": 2}})
    # blue has 1 token in the warp, yellow 2, red none but the offense is never its own defense
    assert g.ch["defense"] == "blue"


def test_a_timer_that_draws_again_onto_the_own_colour_again_sets_a_new_deadline():
    """A decision asked anew by its own default gets a deadline of its own (and so a timer)."""
    own_base = {"red-3": {"red": 4, "yellow": 3}, "yellow-0": {"yellow": 1}}
    g = game(["red.1", "red.2", "blue.2"], tokens=own_base, options={"decision_seconds": 30})
    owed = destiny_prompt(g)
    assert owed["kind"] == "own_colour"
    expired_at = owed["deadline"]
    g.timeout(owed["id"], at=expired_at)
    again = destiny_prompt(g)
    assert again["kind"] == "own_colour" and g.state["destiny_discard"] == ["red.1", "red.2"]
    assert again["deadline"] == expired_at + 30_000
    clock = [e["payload"]["clock"] for e in g.log if e["type"] == "Bookmark" and "clock" in e["payload"]][-1]
    assert clock == {again["id"]: expired_at + 30_000}


def test_a_wild_card_choosing_the_offenses_own_system_brings_the_own_colour_choices():
    """000: a wild card may name any system "as if that colour had appeared" (14.16)."""
    g = game(["wild", "blue.2"], tokens={"red-3": {"red": 4, "yellow": 3}, "yellow-0": {"yellow": 1}})
    g.choose_defense("red")
    owed = destiny_prompt(g)
    assert owed["kind"] == "own_colour"
    assert [o["action"] for o in owed["options"]] == ["draw_again", "challenge_own_system"]
    g.challenge_own_system("yellow")
    assert g.ch["defense"] == "yellow"


def test_own_colour_with_nothing_but_draw_again_draws_again_without_asking():
    """14.17: a decision with one possible answer is not a decision."""
    g = game(["red.1", "blue.2"])
    assert g.ch["defense"] == "blue"
    assert g.state["destiny_discard"] == ["red.1", "blue.2"]
    assert not any(p["kind"] == "own_colour" for p in g.asked)


def test_an_empty_home_planet_may_be_re_established_with_more_than_four_tokens():
    """000/002: "one or more" tokens, not capped at four (14.15)."""
    g = game(["red.1"], tokens={"red-4": {}, "red-0": {"red": 8}})
    owed = destiny_prompt(g)
    reestablish = next(o for o in owed["options"] if o["action"] == "reestablish")
    assert reestablish["args"]["tokens"]["max"] == sum(reestablish["args"]["tokens"]["sources"].values())
    g.reestablish("red-4", {"red-0": 7})
    assert g.tokens("red-4") == {"red": 7} and g.tokens("red-0") == {"red": 1}


def test_reverse_warp_the_flipped_cards_colour_slides_even_the_offenses_own():
    """002: on each flip, the fan section of the card's colour slides into the warp, an own-colour
    card (then drawn again) included; not the section of whoever ends up defending (14.6)."""
    g = game(["blue.1", "red.2", "yellow.1"], options={"reverse_warp": True})
    g.launch({"red-0": 2}, "blue-0")
    g.invite_none()
    g.play("red", "A16")
    g.play("blue", "A4")
    g.pass_windows()
    assert g.tokens("fan:red") == {"blue": 4}  # the first challenge's losses, on the first offense's section
    assert g.warp("blue") == 0
    g.challenge_again()
    # red.2 comes up (red's own, nothing to do but draw again), then yellow.1
    assert [e["payload"]["card"] for e in g.log if e["type"] == "DestinyDrawn"] == ["blue.1", "red.2", "yellow.1"]
    assert g.ch["defense"] == "yellow"
    assert g.tokens("fan:red") == {} and g.warp("blue") == 4
