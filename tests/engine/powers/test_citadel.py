"""Citadel (Fantasy Flight): Attack cards face up beside planets, activated to add to the defense.

Red attacks blue-2 (4 blue ships) with two ships, Attack 15 against blue's Attack 8: 17 to 12 without
citadels. Yellow is the Citadel.
"""

from engine.invariants import violations
from engine.scenario import Scenario, kinds
from projections import views

RED = ["A15", "N", "N", "N", "A4", "A4", "A6", "A6"]
BLUE = ["A8", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A7", "N", "N", "N", "A10", "A8", "A8", "A6"]


def game(yellow="Citadel", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": ["Mind"], "blue": ["Spiff"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1", "blue.2"], first="red", ruleset="ffg", **kw)


def build(g: Scenario, card: str, planet: str) -> str:
    """Yellow builds a citadel of this kind (``A10``) beside ``planet``; returns the card's id."""
    card_id = next(c for c in g.hand("yellow") if c.split(".")[0] == card)
    g.use("yellow", "power:Citadel", {"card": card_id, "planet": planet})
    return card_id


def beside(g: Scenario) -> dict:
    """The citadels by planet, by kind."""
    return {planet: kinds(built) for planet, built in (g.state.get("citadels") or {}).items()}


def encounter(g: Scenario, before_reveal=None) -> dict:
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A15")
    g.play("blue", "A8")
    if before_reveal:
        before_reveal(g)
    return g.resolved()


def test_citadel_power_builds_a_citadel_face_up_and_activates_it_to_hold_the_planet():
    g = game()
    build(g, "A10", "blue-2")
    card = g.state["citadels"]["blue-2"][0]
    assert beside(g) == {"blue-2": ["A10"]} and card not in g.hand("yellow")
    assert views.board(g.state)["citadels"] == {"blue-2": [card]}  # face up: public
    moved = next(e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["dst"] == "citadel:blue-2")
    assert moved["seen_by"] is None and moved["src"] == "hand:yellow"
    assert violations(g.state) == []  # the card is counted where it stands
    outcome = encounter(g, before_reveal=lambda g: g.use("yellow", "power:Citadel"))
    assert outcome["totals"] == {"offense": 17, "defense": 22} and outcome["winner"] == "defense"
    assert beside(g) == {"blue-2": ["A10"]}  # the defense held: the citadel stays
    assert g.tokens("blue-2") == {"blue": 4} and g.warp("red") == 2


def test_citadel_power_activated_citadels_fall_with_the_defense():
    g = game(hands={"blue": ["A6", "N", "N", "N", "A6", "A6", "A8", "A8"]})
    build(g, "A6", "blue-2")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A15")
    g.play("blue", "A6")
    g.use("yellow", "power:Citadel")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 17, "defense": 16} and outcome["winner"] == "offense"
    g.pass_windows()
    assert beside(g) == {"blue-2": []} and "A6" in kinds(g.state["discard"])
    fell = next(e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["src"] == "citadel:blue-2")
    assert fell["dst"] == "discard" and fell["seen_by"] is None
    assert violations(g.state) == []


def test_citadel_power_citadels_not_activated_stay_and_do_nothing():
    g = game()
    build(g, "A10", "blue-2")
    outcome = encounter(g)
    assert outcome["totals"] == {"offense": 17, "defense": 12} and outcome["winner"] == "offense"
    g.pass_windows()
    assert beside(g) == {"blue-2": ["A10"]}


def test_citadel_off_when_a_cosmic_zap_switches_the_power_off():
    g = game(hands={"red": ["A15", "CosmicZap", "N", "N", "A4", "A4", "A6", "A6"]})
    build(g, "A10", "blue-2")
    g.launch({"red-0": 2}, "blue-2")
    g.use("red", "card:CosmicZap", {"target": "yellow:Citadel"})
    g.invite_none()
    g.play("red", "A15")
    g.play("blue", "A8")
    assert "power:Citadel" not in g.abilities("yellow")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 17, "defense": 12} and outcome["winner"] == "offense"
    assert beside(g) == {"blue-2": ["A10"]}


def test_citadel_wild_adds_five_to_the_defense():
    hands = {"red": ["A15", "Flare:Citadel", "N", "N", "A4", "A4", "A6", "A6"]}
    g = game(yellow="Mind", hands=hands, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A15")
    g.play("blue", "A8")
    g.use("red", "card:Flare:Citadel")  # after the reveal: any main player or ally may
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 17, "defense": 17} and outcome["winner"] == "defense"


def test_citadel_wild_off_when_a_card_zap_cancels_it():
    hands = {"red": ["A15", "Flare:Citadel", "N", "N", "A4", "A4", "A6", "A6"],
             "blue": ["A8", "CardZap", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(yellow="Mind", hands=hands, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A15")
    g.play("blue", "A8")
    g.use("red", "card:Flare:Citadel")
    g.use("blue", "card:CardZap")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 17, "defense": 12} and outcome["winner"] == "offense"


def test_citadel_super_activates_the_citadels_against_the_defense():
    hands = {"yellow": ["A7", "Flare:Citadel", "N", "N", "A10", "A8", "A8", "A6"],
             "red": ["A8", "N", "N", "N", "A4", "A4", "A6", "A6"]}
    g = game(hands=hands, options={"flares": True})
    build(g, "A10", "blue-2")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A8")
    g.use("yellow", "card:Flare:Citadel")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 10, "defense": 2} and outcome["winner"] == "offense"
    g.pass_windows()
    assert beside(g) == {"blue-2": []} and "A10" in kinds(g.state["discard"])


def test_citadel_super_off_while_the_power_is_zapped():
    hands = {"yellow": ["A7", "Flare:Citadel", "N", "N", "A10", "A8", "A8", "A6"],
             "red": ["A8", "CosmicZap", "N", "N", "A4", "A4", "A6", "A6"]}
    g = game(hands=hands, options={"flares": True})
    build(g, "A10", "blue-2")
    g.launch({"red-0": 2}, "blue-2")
    g.use("red", "card:CosmicZap", {"target": "yellow:Citadel"})
    g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A8")
    assert "card:Flare:Citadel" not in g.abilities("yellow")  # before the reveal: neither effect is playable
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 10, "defense": 12} and outcome["winner"] == "defense"
    assert beside(g) == {"blue-2": ["A10"]}
