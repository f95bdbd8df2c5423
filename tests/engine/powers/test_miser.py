"""Miser (Fantasy Flight; the issue's "Misery"): a second hand, the hoard, only the Miser may play from.

Red is the Miser and the offense; it attacks blue-2 (4 blue ships) with two ships. Its hoard is dealt
from the top of the deck once the powers are dealt.
"""

from engine.scenario import Scenario, kinds
from events.redaction import redact
from projections import views

RED = ["A4", "N", "N", "N", "A6", "A6", "A8", "A8"]
BLUE = ["A15", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
HOARD = ["A40", "A30", "N", "N", "N", "A5", "A4", "A4"]


def game(red="Miser", yellow="Mind", hands=None, deck=HOARD, destiny=("blue.1",), **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Spiff"], "yellow": [yellow]}, hands=stacked,
                    deck=list(deck), destiny=list(destiny), first="red", ruleset="ffg", **kw)


def hoard(g: Scenario, player: str = "red") -> list[str]:
    return list(g.state["players"][player].get("hoard", []))


def test_miser_power_deals_a_hoard_and_plays_the_attack_40_from_it():
    g = game()
    g.answer("red", "choose_hoard", "keep")
    assert kinds(hoard(g)) == kinds(HOARD) and kinds(g.hand("red")) == kinds(RED)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    assert "A40" in g.owe("red", "challenge_card")["options"][0]["args"]["card"]["values"]
    g.play("red", "A40")
    chosen = next(e["payload"] for e in g.log if e["type"] == "ChallengeCardChosen" and e["payload"]["player"] == "red")
    assert chosen["card"] == "A40" and chosen["src"] == "hoard:red"
    assert len(hoard(g)) == 7 and len(g.hand("red")) == 8
    g.play("blue", "A15")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 42, "defense": 19} and outcome["winner"] == "offense"


def test_miser_power_hoard_is_secret_but_its_size_is_not():
    g = game()
    g.answer("red", "choose_hoard", "keep")
    board = views.board(g.state)
    assert board["players"]["red"]["hoard_size"] == 8 and "hoard" not in board["players"]["red"]
    assert sorted(views.hand(g.state, "red")["hoard"]) == sorted(hoard(g))
    assert "hoard" not in views.hand(g.state, "blue")
    dealt = next(e for e in g.log if e["type"] == "CardsMoved" and e["payload"]["dst"] == "hoard:red")
    assert dealt["payload"]["seen_by"] == ["red"]
    assert redact(dealt, "blue")["payload"]["cards"] != dealt["payload"]["cards"]
    assert redact(dealt, "red")["payload"]["cards"] == dealt["payload"]["cards"]


def test_miser_power_may_make_the_dealt_hand_its_hoard():
    g = game()
    g.answer("red", "choose_hoard", "swap")
    assert kinds(hoard(g)) == kinds(RED) and kinds(g.hand("red")) == kinds(HOARD)


def test_miser_power_shows_and_renews_a_hoard_without_encounter_cards():
    empty = ["CardZap", "CardZap", "MobiusTubes", "MobiusTubes", "Plague", "Quash", "ForceField", "IonicGas"]
    g = game(deck=empty + HOARD)
    g.answer("red", "choose_hoard", "keep")
    g.use("red", "power:Miser")
    renewed = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["src"] == "hoard:red"]
    assert renewed[0]["dst"] == "discard" and renewed[0]["seen_by"] is None  # shown: discarded face up
    assert kinds(hoard(g)) == kinds(HOARD)


def test_miser_off_when_a_cosmic_zap_switches_the_power_off_the_hoard_cannot_be_played():
    g = game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]})
    g.answer("red", "choose_hoard", "keep")
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Miser"})
    g.invite_none()
    values = g.owe("red", "challenge_card")["options"][0]["args"]["card"]["values"]
    assert "A40" not in values and sorted(values) == sorted(c for c in g.hand("red") if c[0] in "AN")
    g.play("red", "A8")
    g.play("blue", "A15")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 10, "defense": 19} and outcome["winner"] == "defense"
    assert len(hoard(g)) == 8


def wild_game(**kw) -> Scenario:
    """Yellow holds Miser's flare (no Miser in the game) and no encounter card; red attacks yellow-2."""
    hands = {"yellow": ["Flare:Miser", "CosmicZap", "MobiusTubes", "Plague"], **kw.pop("hands", {})}
    new_hand = ["A20", "A12", "N", "N", "N", "A6", "A6", "A8"]
    g = game(red="Mind", hands=hands, deck=new_hand, destiny=("yellow.1",), exact_hands=True,
             options={"flares": True}, **kw)
    g.launch({"red-0": 2}, "yellow-2")
    g.invite_none()
    return g


def test_miser_wild_keeps_the_flare_and_two_cards_through_a_new_hand():
    g = wild_game()
    owed = g.owe("yellow", "reaction")  # planning: yellow, the defense, must draw a new hand
    assert owed["info"] == {"card": "Flare:Miser", "context": {"reason": "new hand"}}
    g.answer("yellow", "reaction", "use", {"keep": ["CosmicZap.1", "Plague"]}, ability="card:Flare:Miser")
    assert kinds(g.hand("yellow")) == kinds(["A20", "A12", "N", "N", "N", "A6", "A6", "A8",
                                             "Flare:Miser", "CosmicZap", "Plague"])
    assert g.state["discard"] == ["MobiusTubes.1"]
    assert not g.state["players"]["yellow"].get("kept")


def test_miser_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"blue": ["A15", "CardZap", "N", "N", "A6", "A6", "A8", "A8"]})
    g.answer("yellow", "reaction", "use", {"keep": ["CosmicZap.1", "Plague"]}, ability="card:Flare:Miser")
    g.use("blue", "card:CardZap")
    g.pass_windows()
    assert kinds(g.hand("yellow")) == kinds(["A20", "A12", "N", "N", "N", "A6", "A6", "A8"])
    assert {"Flare:Miser", "CosmicZap.1", "Plague", "MobiusTubes.1"} <= set(g.state["discard"])


def test_miser_super_draws_a_card_into_the_hoard_at_the_regroup():
    hands = {"red": ["A4", "Flare:Miser", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(hands=hands, deck=HOARD + ["A23"], options={"flares": True}, tokens={"red-4": {"red": 3}})
    g.answer("red", "choose_hoard", "keep")
    g.regroup("red", None)
    g.use("red", "card:Flare:Miser")
    assert kinds(hoard(g)) == kinds(HOARD + ["A23"])
    assert "Flare:Miser" in g.hand("red")


def test_miser_super_off_while_the_power_is_zapped():
    hands = {"red": ["A4", "Flare:Miser", "N", "N", "A6", "A6", "A8", "A8"],
             "yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(hands=hands, deck=HOARD + ["A23"], options={"flares": True}, tokens={"red-4": {"red": 3}})
    g.answer("red", "choose_hoard", "keep")
    g.use("yellow", "card:CosmicZap", {"target": "red:Miser"})
    g.regroup("red", None)
    assert "card:Flare:Miser" not in g.abilities("red")  # a Wild now, played only before a new hand
    g.owe("red", "launch")
    assert kinds(hoard(g)) == kinds(HOARD)
