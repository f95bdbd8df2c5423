"""Mutant: a main player with fewer than 7 cards fills its hand, from the deck or from other hands."""

from engine.scenario import kinds
from tests.engine.scenarios import offered, red_attacks_blue

RED = ["A8", "A4", "A5"]
BLUE = ["A15", "C", "C", "C", "C", "C", "C"]


def mutant_game(red_power="Mutant", red_hand=None, blue_hand=None, yellow_hand=None, options=None, **kw):
    """Red (three cards) attacks blue-2 with 4 tokens; the deck's top holds an Attack 40."""
    yellow_power = "Mutant" if red_power != "Mutant" else "Mind"
    hands = {"red": red_hand or RED, "blue": blue_hand or BLUE}
    g = red_attacks_blue(red_power, "Filch", yellow_power, hands, yellow_hand, deck=["A40", "C", "C", "C"],
                         options=options, exact_hands=True, **kw)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    return g


def test_mutant_power_draws_up_to_seven_and_finds_the_attack_40():
    g = mutant_game()
    g.use("red", "power:Mutant", {"sources": ["deck", "deck", "deck", "deck"]})
    assert len(g.hand("red")) == 7
    assert "A40" in g.hand("red")
    g.play("red", "A40")
    g.play("blue", "A15")
    assert g.outcome["totals"] == {"offense": 44, "defense": 19}
    assert g.outcome["winner"] == "offense"


def test_mutant_power_takes_cards_at_random_from_other_hands():
    g = mutant_game(yellow_hand=["A30"])
    g.use("red", "power:Mutant", {"sources": ["yellow", "deck", "deck", "deck"]})
    assert "A30" in g.hand("red") and g.hand("yellow") == []
    assert len(g.hand("red")) == 7


def test_mutant_off_after_power_loss_the_hand_stays_small():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = red_attacks_blue("Mutant", "Filch", "Mind", {"red": RED, "blue": BLUE}, deck=["A40"], tokens=lost,
                         exact_hands=True)
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    assert "power:Mutant" not in g.abilities("red")
    g.play("red", "A8")
    g.play("blue", "A15")
    assert g.outcome["winner"] == "defense"
    assert len(g.hand("red")) == 2


def test_mutant_off_when_a_cosmic_zap_switches_it_off():
    g = mutant_game(yellow_hand=["CosmicZap", "C"], options={"edicts": True})
    g.use("yellow", "card:CosmicZap", {"target": "red:Mutant"})
    g.pass_windows()
    assert len(g.hand("red")) == 3
    g.play("red", "A8")
    g.play("blue", "A15")
    assert g.outcome["winner"] == "defense"


def test_mutant_wild_draws_from_the_deck_up_to_seven():
    g = mutant_game(red_power="Mind", red_hand=["Flare:Mutant", "A8", "A4"], options={"flares": True})
    offered(g, "red", "card:Flare:Mutant")
    g.use("red", "card:Flare:Mutant")
    assert len(g.hand("red")) == 7 and "A40" in g.hand("red")
    g.play("red", "A40")
    g.play("blue", "A15")
    g.pass_windows()
    assert g.outcome["winner"] == "offense"


def test_mutant_super_takes_a_card_from_every_other_hand():
    g = mutant_game(red_hand=["Flare:Mutant", "A8", "A4"], blue_hand=["A15", "A30"], yellow_hand=["A20"],
                    options={"flares": True})
    g.use("red", "card:Flare:Mutant")
    assert "A20.1" in g.hand("red") and g.hand("yellow") == []
    assert len(g.hand("blue")) == 1 and len(g.hand("red")) == 4
    taken = [c for c in ("A15", "A30") if c in kinds(g.hand("red"))]
    assert len(taken) == 1


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_mutant_ffg_fills_up_to_eight_before_allies_are_invited_and_not_at_the_planning_phase():
    from engine.scenario import Scenario
    from engine.usable import window_options

    g = Scenario(players=3, powers={"red": ["Mutant"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": RED, "blue": ["A15", "N", "N", "N"], "yellow": ["N"]}, exact_hands=True,
                 deck=["A40", "N", "N", "N", "A1"], destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 4}, "blue-2")
    offer = next(o for o in window_options(g.state, "red", "launch") if o.get("ability") == "power:Mutant")
    assert offer["args"]["sources"]["min"] == 5  # 3 cards in hand: 5 to draw up to 8
    g.use("red", "power:Mutant", {"sources": ["deck", "deck", "deck", "deck", "deck"]})
    g.pass_windows()
    assert sorted(kinds(g.hand("red"))) == sorted(RED + ["A40", "N", "N", "N", "A1"])
    g.invite_none()
    assert not [o for o in window_options(g.state, "red", "planning") if o.get("ability") == "power:Mutant"]


def test_mutant_ffg_not_offered_at_the_planning_phase_when_the_moment_passed():
    from engine.scenario import Scenario
    from engine.usable import window_options

    g = Scenario(players=3, powers={"red": ["Mutant"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": RED, "blue": ["A15", "N", "N", "N"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 4}, "blue-2")
    g.pass_windows()
    g.invite_none()
    g.owe("red", "challenge_card")
    # the Mayfair Mutant would still be offered at stage 7, before the cards: the FFG one no longer
    assert not [o for o in window_options(g.state, "red", "planning") if o.get("ability") == "power:Mutant"]
    assert len(g.hand("red")) == 3
