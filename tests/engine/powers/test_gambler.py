"""Gambler (Fantasy Flight): keeps its card face down and states what it is; the opponent accepts or calls.

Red, the Gambler, attacks blue-2 (4 blue ships) with two ships and commits an Attack 4; blue commits an
Attack 10. Honestly revealed: 6 to 14, blue holds.
"""

from engine.scenario import Scenario
from events.redaction import redact
from projections import views

RED = ["A4", "N", "N", "N", "A6", "A6", "A8", "A8"]
BLUE = ["A10", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A12", "N", "N", "N", "A8", "A8", "A8", "A6"]


def game(red="Gambler", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Spiff"], "yellow": ["Mind"]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg", **kw)


def committed(g: Scenario, red_card="A4", blue_card="A10", before=None) -> None:
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)
    if before:
        before(g)


def bluff(g: Scenario, claim: str):
    return g.answer("red", "reaction", "use", {"claim": claim}, ability="power:Gambler")


def test_gambler_power_a_bluff_accepted_wins_and_the_card_is_never_shown():
    g = game()
    committed(g)
    asked = g.owe("red", "reaction")
    assert "your opponent's: A10.1" in asked["options"][0]["label"]  # the Gambler sees its opponent's card first
    bluff(g, "A20")
    revealed = [e["payload"] for e in g.log if e["type"] == "ChallengeCardsRevealed"]
    assert revealed == [{"offense": [], "defense": ["A10.1"]}]
    assert g.owe("blue", "call_bluff")["info"] == {"player": "red", "claim": "A20", "ante": 0}
    g.answer("blue", "call_bluff", "accept")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 22, "defense": 14} and outcome["winner"] == "offense"
    g.pass_windows()
    assert g.tokens("blue-2") == {"red": 2} and g.warp("blue") == 4
    assert g.state["deck"][0] == "A4.1"  # under the deck, face down
    buried = next(e for e in g.log if e["type"] == "CardsMoved" and e["payload"].get("bottom"))
    assert buried["payload"]["seen_by"] == ["red"] and buried["payload"]["src"] == "committed:offense"
    assert redact(buried, "blue")["payload"]["cards"] != ["A4.1"]
    assert "A4.1" not in g.state["discard"]


def test_gambler_power_the_hidden_card_does_not_leak_through_views_or_events():
    g = game()
    committed(g)
    bluff(g, "A20")
    g.owe("blue", "call_bluff")
    board = views.board(g.state)
    assert board["challenge"]["revealed"] == {"offense": [], "defense": ["A10.1"]}
    assert board["challenge"]["notes"]["bluff"]["claim"] == "A20" and "'A4.1'" not in str(board)
    assert "'A4.1'" not in str(views.hand(g.state, "blue")) and "'A4.1'" not in str(views.hand(g.state, "yellow"))
    for event in g.log:
        for viewer in ("blue", "yellow", None):
            assert "'A4.1'" not in str(redact(event, viewer)["payload"]), event["type"]
    assert views.hand(g.state, "red")["committed"] == {"offense": ["A4.1"]}


def test_gambler_power_a_lie_called_costs_the_gambler_its_ships_in_the_encounter():
    g = game()
    committed(g)
    bluff(g, "A20")
    g.answer("blue", "call_bluff", "call")
    revealed = [e["payload"] for e in g.log if e["type"] == "ChallengeCardsRevealed"]
    assert revealed[-1] == {"offense": ["A4.1"], "defense": ["A10.1"]}
    g.answer("red", "choose_losses", "lose", {"tokens": {"red-1": 2}})
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 6, "defense": 14} and outcome["winner"] == "defense"
    g.pass_windows()
    assert g.tokens("red-1") == {"red": 2} and g.warp("red") == 4  # two lost to the call, two in the encounter


def test_gambler_power_a_true_statement_called_costs_the_caller():
    g = game(hands={"red": ["A20", "N", "N", "N", "A6", "A6", "A8", "A8"]})
    committed(g, red_card="A20")
    bluff(g, "A20")
    g.answer("blue", "call_bluff", "call")
    g.answer("blue", "choose_losses", "lose", {"tokens": {"blue-1": 4}})  # none from blue-2, in the encounter
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 22, "defense": 14} and outcome["winner"] == "offense"
    g.pass_windows()
    assert g.tokens("blue-1") == {} and g.tokens("blue-2") == {"red": 2} and g.warp("blue") == 8
    assert g.warp("red") == 0


def test_gambler_off_when_a_cosmic_zap_cancels_the_bluff():
    g = game(hands={"yellow": ["A12", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]})
    committed(g)
    bluff(g, "A20")
    g.use("yellow", "card:CosmicZap")  # answering the announced bluff
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 6, "defense": 14} and outcome["winner"] == "defense"
    revealed = [e["payload"] for e in g.log if e["type"] == "ChallengeCardsRevealed"]
    assert revealed == [{"offense": ["A4.1"], "defense": ["A10.1"]}]
    assert not [p for p in g.asked if p["kind"] == "call_bluff"]


def test_gambler_wild_adds_the_spread_when_the_cards_differ_by_it():
    hands = {"red": ["A20", "Flare:Gambler", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(red="Mind", hands=hands, options={"flares": True})
    committed(g, red_card="A20", before=lambda g: g.use("red", "card:Flare:Gambler", {"spread": 8}))
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 30, "defense": 14} and outcome["winner"] == "offense"


def test_gambler_wild_adds_nothing_when_the_cards_are_closer_and_off_when_zapped():
    hands = {"red": ["A20", "Flare:Gambler", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(red="Mind", hands=hands, options={"flares": True})
    committed(g, red_card="A20", before=lambda g: g.use("red", "card:Flare:Gambler", {"spread": 11}))
    assert g.resolved()["totals"] == {"offense": 22, "defense": 14}
    hands["yellow"] = ["A12", "CardZap", "N", "N", "A8", "A8", "A8", "A6"]
    g = game(red="Mind", hands=hands, options={"flares": True})

    def zapped(g):
        g.use("red", "card:Flare:Gambler", {"spread": 8})
        g.use("yellow", "card:CardZap")
    committed(g, red_card="A20", before=zapped)
    assert g.resolved()["totals"] == {"offense": 22, "defense": 14}


def test_gambler_super_ups_the_ante_of_a_lie_called():
    hands = {"red": ["A4", "Flare:Gambler", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(hands=hands, options={"flares": True})
    committed(g, before=lambda g: g.use("red", "card:Flare:Gambler", {"ante": 3}))
    bluff(g, "A20")
    assert g.owe("blue", "call_bluff")["info"]["ante"] == 3
    g.answer("blue", "call_bluff", "call")
    g.answer("red", "choose_losses", "lose", {"tokens": {"red-1": 4, "red-2": 1}})
    assert g.resolved()["winner"] == "defense"
    g.pass_windows()
    assert g.warp("red") == 2 + 5


def test_gambler_super_off_while_the_power_is_zapped():
    hands = {"red": ["A4", "Flare:Gambler", "N", "N", "A6", "A6", "A8", "A8"],
             "yellow": ["A12", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(hands=hands, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Gambler"})
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    g.pass_windows()
    assert not [p for p in g.asked if p["kind"] in ("reaction", "call_bluff")]
    assert g.resolved()["totals"] == {"offense": 6, "defense": 14}


def test_gambler_power_a_card_not_called_is_out_of_a_filch_reach():
    g = game(hands={"blue": ["A10", "Flare:Filch", "N", "N", "A6", "A6", "A8", "A8"]}, options={"flares": True})
    committed(g)
    bluff(g, "A20")
    g.answer("blue", "call_bluff", "accept")
    assert g.state["committed"]["offense"] == [] and g.state["deck"][0] == "A4.1"  # under the deck at once
    g.resolved()
    g.pass_windows("blue", "window")
    assert "card:Flare:Filch" not in g.abilities("blue")  # nothing of red's left to filch
    g.pass_windows()
    assert "A4.1" not in g.hand("blue") and g.state["deck"][0] == "A4.1"
