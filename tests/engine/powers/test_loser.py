"""Loser: an upset declared before the reveal makes the lower total win (RULES.md 6; 004 with War cards)."""

from engine.scenario import kinds
from tests.engine.scenarios import challenge, red_attacks_blue

RED_HAND = ["A4", "A10", "War", "A5", "A6", "A7", "Flare:Loser"]
BLUE_HAND = ["A10", "War", "C", "C", "C", "C", "C"]
ZAPPER = ["CosmicZap", "A6", "A7", "A8", "A9", "C", "C"]


def scenario(red_power="Loser", yellow_power="Mind", yellow_hand=None, war=False, **kw):
    """Red is the offense against blue-2 (4 blue tokens)."""
    hands = {"red": RED_HAND if war else [c for c in RED_HAND if c != "War"] + ["A8"],
             "blue": BLUE_HAND if war else [c for c in BLUE_HAND if c != "War"] + ["C"]}
    options = {"flares": True, "edicts": bool(yellow_hand), "war_cards": war}
    return red_attacks_blue(red_power, "Filch", yellow_power, hands, yellow_hand, options=options, **kw)


def cards_chosen(g, red_card="A4", blue_card="A10", red_tokens=1):
    challenge(g, red_card, blue_card, red_tokens)


def test_loser_power_upset_the_lower_total_wins():
    g = scenario()
    cards_chosen(g)
    assert g.abilities("red") == ["power:Loser"]  # asked after the cards are chosen, before the reveal
    assert g.ch["revealed"] is None
    g.use("red", "power:Loser")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}
    assert g.warp("blue") == 4


def test_loser_off_by_power_loss_no_upset_can_be_declared():
    g = scenario(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    cards_chosen(g)
    assert "power:Loser" not in g.abilities("red")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 12 + 1


def test_loser_off_when_cosmic_zapped_as_the_upset_is_declared():
    g = scenario(yellow_hand=ZAPPER)
    cards_chosen(g)
    g.use("red", "power:Loser")
    g.use("yellow", "card:CosmicZap")  # answers the declaration: that use is cancelled
    outcome = g.resolved()
    assert not [e for e in g.log if e["type"] == "ChallengeNoted" and e["payload"]["key"] == "upset"]
    assert outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}


def test_loser_off_when_cosmic_zapped_after_the_upset():
    g = scenario(yellow_hand=ZAPPER)
    cards_chosen(g)
    g.use("red", "power:Loser")
    g.command("yellow", "pass")  # lets the upset stand...
    g.use("yellow", "card:CosmicZap", {"target": "red:Loser"})  # ...then switches the Loser off
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 1


def test_loser_power_upset_turns_a_war_outcome_around():
    g = scenario(war=True)
    cards_chosen(g, "A10", "War")
    g.use("red", "power:Loser")
    outcome = g.resolved()
    # War would beat the Attack; upset, the Attack side wins and the War player takes no consolation
    assert outcome["winner"] == "offense"
    assert outcome["consolation"] is None
    assert g.tokens("blue-2") == {"red": 1}
    assert g.warp("blue") == 4


def test_loser_power_upset_has_no_effect_when_both_sides_lose():
    g = scenario(war=True)
    cards_chosen(g, "War", "War")
    g.use("red", "power:Loser")
    outcome = g.resolved()
    assert outcome["both_lose"] is True and outcome["winner"] is None
    assert g.warp("red") == 1 and g.warp("blue") == 4


def test_loser_wild_both_sides_lose():
    g = scenario(red_power="Chronos", yellow_power="Loser")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.use("red", "card:Flare:Loser")  # stage 7, before the cards are chosen
    g.play("red", "A10")
    g.play("blue", "A10")
    outcome = g.resolved()
    assert outcome["both_lose"] is True and outcome["winner"] is None
    assert g.warp("red") == 2 and g.warp("blue") == 4
    assert g.tokens("blue-2") == {}
    assert g.state["record"]["red"]["lost"] == 1 and g.state["record"]["blue"]["lost"] == 1


def test_loser_super_declares_the_upset_after_the_reveal():
    g = scenario()
    cards_chosen(g)
    g.command("red", "pass")  # no upset before the reveal
    assert g.ch["revealed"] is not None
    assert g.abilities("red") == ["card:Flare:Loser"]
    g.use("red", "card:Flare:Loser")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "offense"
    assert "Flare:Loser" in g.state["discard"]


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_upset(red_hand, blue_hand):
    """An ffg game: red (Loser) attacks blue-2 with 1 ship and declares an upset before the cards."""
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Loser"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": red_hand, "blue": blue_hand}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.use("red", "power:Loser")
    g.pass_windows()
    return g


def test_loser_ffg_upset_before_the_cards_forces_attacks_and_the_would_be_loser_wins():
    g = ffg_upset(["A4", "N", "A30"], ["N", "A10", "N"])
    # both must play an Attack: the Negotiates are not offered
    assert kinds(g.owe("blue", "challenge_card")["options"][0]["args"]["card"]["values"]) == ["A10"]
    assert kinds(g.owe("red", "challenge_card")["options"][0]["args"]["card"]["values"]) == ["A30", "A4"]
    g.play("red", "A4")
    g.play("blue", "A10")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 5, "defense": 14}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1} and g.warp("blue") == 4


def test_loser_ffg_upset_turns_an_attack_against_a_negotiate_around():
    g = ffg_upset(["A4", "N", "A30"], ["N", "N", "N"])
    # blue holds no Attack: it plays what it has
    assert kinds(g.owe("blue", "challenge_card")["options"][0]["args"]["card"]["values"]) == ["N", "N", "N"]
    g.play("red", "A30")
    g.play("blue", "N")
    outcome = g.resolved()
    # the Attack would win; turned around, the Negotiate side wins: red's ship goes to the warp, nobody is
    # compensated (the Negotiate side lost nothing)
    assert outcome["winner"] == "defense" and outcome["consolation"] is None
    assert g.warp("red") == 1 and g.tokens("blue-2") == {"blue": 4}


def test_loser_ffg_not_offered_once_the_cards_are_chosen():
    from engine.scenario import Scenario
    from engine.usable import window_options

    g = Scenario(players=3, powers={"red": ["Loser"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A4", "N"], "blue": ["N", "A10"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "N")  # without an upset, a Negotiate may be played
    assert not [o for o in window_options(g.state, "red", "committed") if o.get("ability") == "power:Loser"]
    assert g.resolved()["winner"] == "offense"


# --- the published FFG Super (RULES.md 9, "published texts first") ---------------------------------------

def ffg_cards_chosen(red_card, blue_card):
    """An ffg game: red (Loser, holding its flare) attacks blue-2 with 1 ship and declares no upset before
    the cards, so neither side is bound to play an Attack."""
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Loser"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A4", "N", "Flare:Loser"], "blue": ["N", "A10"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg", options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.command("red", "pass")  # no upset before the cards are chosen
    g.pass_windows(until_kind="challenge_card")
    g.play("red", red_card)
    g.play("blue", blue_card)
    return g


def test_loser_super_ffg_declares_the_upset_once_the_cards_are_chosen_before_the_reveal():
    g = ffg_cards_chosen("A4", "N")  # blue played a Negotiate: no upset bound it to an Attack
    assert g.ch["revealed"] is None
    assert g.abilities("red") == ["card:Flare:Loser"]  # the Super, in the committed window
    g.use("red", "card:Flare:Loser")
    assert g.ch["notes"]["upset"] == "red"
    outcome = g.resolved()
    # the Attack would beat the Negotiate; turned around, the Negotiate side wins: red's ship goes to the warp,
    # blue keeps its colony with its 4 ships, and nobody is compensated (the Negotiate side won)
    assert outcome["winner"] == "defense" and outcome["consolation"] is None
    assert g.warp("red") == 1 and g.warp("blue") == 0
    assert g.tokens("blue-2") == {"blue": 4}
    # an FFG flare goes back to its owner's hand, and counts as red's flare for the encounter
    assert sorted(kinds(g.hand("red"))) == ["Flare:Loser", "N"]
    assert kinds(g.hand("blue")) == ["A10"]
    assert "Flare:Loser" not in g.state["discard"] and g.ch["flares"] == ["red"]


def test_loser_super_ffg_is_not_offered_after_the_reveal():
    g = ffg_cards_chosen("A4", "A10")
    g.command("red", "pass")  # no upset in the committed window
    assert g.ch["revealed"] is not None
    outcome = g.resolved()
    # after the reveal the flare is never offered (the Mayfair house Super's moment is not the FFG card's)
    later = [p for p in g.asked if p["player"] == "red" and p["kind"] == "window"
             and p["info"]["window"] in ("reveal", "resolution", "discard")]
    assert not [o for p in later for o in p["options"] if o.get("ability") == "card:Flare:Loser"]
    assert outcome["winner"] == "defense" and g.warp("red") == 1
    assert "Flare:Loser" in g.hand("red")


def test_loser_super_catalogue_by_edition():
    from engine.catalog import FLARES

    flare = FLARES["Loser"]["super"]
    assert flare.catalogue("ffg")["provenance"] == "ffg" and flare.catalogue("ffg")["windows"] == ["committed"]
    assert flare.catalogue("mayfair")["provenance"] == "house" and flare.catalogue("mayfair")["windows"] == ["reveal"]
    assert flare.catalogue()["readings"]["ffg"]["provenance"] == "ffg"
