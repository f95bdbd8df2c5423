"""The Fantasy Flight edition, more of its turn (RULES.md 9, 003): the start-of-turn new hand, the special
destiny cards, Super flares and a zapped power, compensation, and the artifacts played in an ``ffg`` game."""

from __future__ import annotations

import pytest

from engine.scenario import Scenario, terms
from projections.catalogue import describe
from tests.engine.rules.test_ffg import ffg_game

NEXT_EIGHT = ["A12", "N", "A4", "A6", "A7", "A9", "A10", "A11"]
PLAIN = {"red": ["A8"], "blue": ["A4"], "yellow": ["A5"]}  # nothing anybody could play before the destiny


def new_hand_moves(g) -> list[dict]:
    return [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "new hand"]


def pass_until(g, player: str, window: str) -> dict:
    """Pass every window and response until ``player`` is asked in ``window``; that prompt."""
    for _ in range(60):
        owed = g.prompts()
        mine = [p for p in owed if p["player"] == player and p["kind"] == "window" and p["info"]["window"] == window]
        if mine:
            return mine[0]
        waiting = [p for p in owed if p["kind"] in ("window", "response")]
        assert waiting, f"{player} was never asked in the {window} window"
        g.command(waiting[0]["player"], "pass")
    raise AssertionError(f"{player} was never asked in the {window} window")


# --- the start of the turn ------------------------------------------------------------------------------

def test_an_offense_without_an_encounter_card_may_play_an_artifact_then_discards_its_hand_and_draws_eight():
    g = ffg_game(hands={"red": ["CosmicZap", "Plague"], "blue": ["A4"]}, exact_hands=True, deck=NEXT_EIGHT)
    start = g.owe("red", "window")
    assert start["info"]["window"] == "start" and "card:CosmicZap.1" in g.abilities("red")  # first its cards
    g.command("red", "pass")
    moved = new_hand_moves(g)
    assert [(m["src"], m["dst"], sorted(m["cards"])) for m in moved] == [
        ("hand:red", "discard", ["CosmicZap.1", "Plague"]),
        ("deck", "hand:red", sorted(["A12.1", "N.1", "A4.2", "A6.1", "A7", "A9", "A10.1", "A11"]))]
    assert len(g.hand("red")) == 8
    g.owe("red", "launch")


def test_an_offense_holding_an_encounter_card_keeps_its_hand():
    g = ffg_game(hands={"red": ["Morph", "Plague"], "blue": ["A4"]}, exact_hands=True, deck=NEXT_EIGHT)
    g.owe("red", "launch")
    assert new_hand_moves(g) == [] and sorted(g.hand("red")) == ["Morph", "Plague"]


# --- the special destiny cards ----------------------------------------------------------------------------

def test_the_special_card_most_colonies_sends_the_offense_to_the_player_with_most_foreign_colonies():
    g = ffg_game(destiny=["inst:most-bases"], hands=PLAIN, exact_hands=True,
                 tokens={"red-0": {"red": 5}, "red-1": {"red": 3, "yellow": 1}, "yellow-0": {"yellow": 3}})
    # yellow holds a foreign colony (on red-1), blue none: yellow is the one the card describes
    assert g.ch["defense"] == "yellow"


def test_the_special_card_most_cards_among_the_tied_designates_the_one_nearest_the_offenses_left():
    """RULES.md 9: ties are broken by seating, not by the offense's choice. Yellow is the offense; blue and green
    hold 8 cards each; from yellow's left the seats run green, red, blue: green defends, nobody is asked."""
    g = Scenario(players=4, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Clone"], "green": ["Tripler"]},
                 hands={"red": ["A4"], "yellow": ["A8", "A9"]}, exact_hands=True, destiny=["inst:most-cards"],
                 first="yellow", ruleset="ffg")
    assert (len(g.hand("blue")), len(g.hand("green"))) == (8, 8)
    assert g.ch["defense"] == "green"
    assert not [p for p in g.asked if p["kind"] == "choose_defense"]
    assert [e["payload"]["by"] for e in g.log if e["type"] == "DefenseDetermined"] == ["destiny"]


def test_the_special_card_fewest_ships_in_the_warp_designates_that_player():
    g = ffg_game(destiny=["inst:fewest-warp"], hands=PLAIN, exact_hands=True,
                 tokens={"blue-0": {"blue": 2}, "yellow-0": {"yellow": 3}})
    # blue has 2 ships in the warp, yellow 1: yellow has fewest (the offense is never its own defense)
    assert g.ch["defense"] == "yellow"


# --- Super flares -------------------------------------------------------------------------------------

def tripler_at_the_reveal(zapped: bool):
    """Red (Tripler, holding its own flare) attacks blue with a 12 against a 10; blue may zap Tripler first."""
    g = ffg_game(powers={"red": ["Tripler"], "blue": ["Filch"], "yellow": ["Clone"]},
                 hands={"red": ["A12", "Flare:Tripler", "A4"], "blue": ["A10", "CosmicZap", "A5"], "yellow": ["A6"]},
                 exact_hands=True, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A10")
    if zapped:
        g.use("blue", "card:CosmicZap.1", {"target": "red:Tripler"})
    return g, pass_until(g, "red", "reveal")


def test_a_flare_of_the_players_own_active_power_is_its_super():
    g, window = tripler_at_the_reveal(zapped=False)
    flare = next(o for o in window["options"] if o.get("ability") == "card:Flare:Tripler")
    assert flare["args"] == {}  # the Super: the offense's own Attack, whatever its value
    g.use("red", "card:Flare:Tripler")
    assert g.resolved()["totals"] == {"offense": 12 * 3 + 2, "defense": 10 + 4}
    assert "Flare:Tripler" in g.hand("red")  # kept, as every flare under ffg


def test_a_flare_of_a_zapped_power_is_only_its_wild():
    g, window = tripler_at_the_reveal(zapped=True)
    flare = next(o for o in window["options"] if o.get("ability") == "card:Flare:Tripler")
    assert flare["args"] == {"side": {"type": "choice", "values": ["offense", "defense"]}}  # the Wild's choice
    g.use("red", "card:Flare:Tripler", {"side": "offense"})
    # the Wild divides an Attack of 10 or more by three (rounded up): 12 -> 4, not 36
    assert g.resolved()["totals"] == {"offense": 4 + 2, "defense": 10 + 4}


# --- compensation -------------------------------------------------------------------------------------

def test_a_negotiate_beaten_by_an_attack_takes_compensation_at_random_one_card_per_ship_lost():
    g = ffg_game(hands={"red": ["N", "A4"], "blue": ["A10", "A5", "A6", "A7", "A8"], "yellow": ["A9"]},
                 exact_hands=True)
    red_before, blue_before = list(g.hand("red")), list(g.hand("blue"))
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "A10")
    g.pass_windows()
    assert g.outcome["winner"] == "defense" and g.warp("red") == 3
    taken = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation"]
    assert len(taken) == 1 and (taken[0]["src"], taken[0]["dst"]) == ("hand:blue", "hand:red")
    blue_attack = next(c for c in blue_before if c.startswith("A10"))
    assert len(taken[0]["cards"]) == 3 and set(taken[0]["cards"]) <= set(blue_before) - {blue_attack}
    red_negotiate = next(c for c in red_before if c.startswith("N"))
    assert sorted(g.hand("red")) == sorted([c for c in red_before if c != red_negotiate] + taken[0]["cards"])
    assert len(g.hand("blue")) == 1


# --- artifacts in an ffg game (the same effects as the Mayfair edicts; RULES.md 9) ------------------

def test_emotion_control_turns_both_attacks_into_negotiates_and_a_deal_follows():
    g = ffg_game(hands={"red": ["A20"], "blue": ["A10"], "yellow": ["EmotionControl"]})
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A10")
    pass_until(g, "yellow", "reveal")
    g.use("yellow", "card:EmotionControl")
    g.pass_windows()
    assert g.outcome["kind"] == "deal"
    assert g.outcome["cards"] == {"offense": "compromise", "defense": "compromise"}


def test_force_field_removes_an_ally_whose_ships_go_back_to_its_colonies():
    g = ffg_game(hands={"red": ["ForceField", "A12"], "blue": ["A10"]})
    g.launch({"red-0": 3}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 4})
    pass_until(g, "red", "alliance")
    g.use("red", "card:ForceField", {"allies": ["yellow"]})
    g.place("yellow", {"yellow-1": 4})
    assert g.ch["allies"] == {} and g.tokens("cone:defense") == {}
    assert g.tokens("yellow-1") == {"yellow": 8}


def test_quash_cancels_an_agreed_deal_and_each_main_player_loses_three_ships():
    g = ffg_game(hands={"red": ["N", "A9"], "blue": ["N", "A11"], "yellow": ["Quash"]})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    g.propose("red", terms(offense_gives={"count": 1}))
    g.accept("blue", 1)
    assert g.owe("yellow", "window")["info"]["window"] == "deal"
    g.use("yellow", "card:Quash")
    g.lose("red", {"cone:offense": 3})
    g.lose("blue", {"blue-3": 3})
    assert g.warp("red") == 3 and g.warp("blue") == 3
    assert [e["payload"]["reason"] for e in g.log if e["type"] == "DealConcluded"] == ["quashed"]


def test_card_zap_cancels_a_flare_which_is_discarded_with_the_zap():
    """RULES.md 9: Card Zap's cancelled card is discarded, a flare included (only a used flare is kept)."""
    g = ffg_game(powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Clone"]},
                 hands={"red": ["A12", "Flare:Tripler"], "blue": ["A10", "CardZap"]}, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A10")
    pass_until(g, "red", "reveal")
    g.use("red", "card:Flare:Tripler", {"side": "offense"})
    while not [p for p in g.prompts("blue") if p["kind"] == "response"]:
        g.command(g.prompts()[0]["player"], "pass")  # yellow is asked first and lets it be
    g.command("blue", "use", ability="card:CardZap.1")
    assert g.resolved()["totals"] == {"offense": 12 + 2, "defense": 10 + 4}  # the Wild never applied
    assert "Flare:Tripler" not in g.hand("red") and {"Flare:Tripler", "CardZap.1"} <= set(g.state["discard"])
    discarded = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["cards"] == ["Flare:Tripler"]]
    assert [(m["src"], m["dst"], m["reason"]) for m in discarded] == [("table", "discard", "cancelled")]


@pytest.mark.parametrize("artifact", ["CardZap", "CosmicZap", "EmotionControl", "ForceField", "IonicGas",
                                      "MobiusTubes", "Plague", "Quash"])
def test_each_artifact_is_in_the_ffg_catalogue_with_its_windows(artifact):
    edicts = {e["name"]: e for e in describe("ffg")["edicts"]}
    assert artifact in edicts and edicts[artifact]["windows"] is not None
