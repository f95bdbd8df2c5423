"""Fido (Fantasy Flight): fetches the encounter cards just discarded and offers them to another player.

Red attacks blue-2 with two ships, Attack 20 against blue's Attack 15 (22 to 19), and yellow looks on.
"""

from engine.scenario import Scenario, kinds

RED = ["A20", "N", "N", "N", "A4", "A4", "A6", "A6"]
BLUE = ["A15", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
POWER_LOST = {"yellow-1": {}, "yellow-2": {}, "yellow-3": {}}  # two home colonies left


def game(yellow="Fido", red="Mind", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Sorcerer"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg", **kw)


def encounter(g: Scenario, before_cards=None) -> dict:
    """Red (2 ships, Attack 20) beats blue (4 ships on blue-2, Attack 15)."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    if before_cards:
        before_cards(g)
    g.play("red", "A20")
    g.play("blue", "A15")
    return g.resolved()


def fetch(g: Scenario, card: str, player: str):
    return g.answer("yellow", "reaction", "use", {"card": card, "player": player}, ability="power:Fido")


def test_fido_power_offers_a_discarded_card_and_draws_when_it_is_taken():
    g = game(deck=["A12"])
    assert encounter(g)["winner"] == "offense"
    offer = g.owe("yellow", "reaction")
    assert sorted(offer["options"][0]["args"]["card"]["values"]) == ["A15", "A20.1"]
    fetch(g, "A15", "blue")
    assert g.owe("blue", "card_offer")["info"] == {"card": "A15", "from": "yellow"}
    g.answer("blue", "card_offer", "accept")
    assert "A15" in g.hand("blue") and "A15" not in g.state["discard"]
    reward = g.owe("yellow", "fetch_reward")
    assert [o["action"] for o in reward["options"]] == ["draw", "decline"]  # no ship of yellow's in the warp
    g.answer("yellow", "fetch_reward", "draw")
    assert kinds(g.hand("yellow")) == kinds(YELLOW + ["A12"])
    assert "A20.1" in g.state["discard"]


def test_fido_power_brings_a_ship_back_from_the_warp_as_its_reward():
    g = game(tokens={"yellow-4": {"yellow": 2}})  # two of yellow's ships in the warp
    encounter(g)
    fetch(g, "A20.1", "red")
    g.answer("red", "card_offer", "accept")
    g.answer("yellow", "fetch_reward", "retrieve")
    g.place("yellow", {"yellow-4": 1})
    assert g.warp("yellow") == 1 and g.tokens("yellow-4") == {"yellow": 3}
    assert "A20.1" in g.hand("red")


def test_fido_power_keeps_a_card_the_other_player_turns_down():
    g = game()
    encounter(g)
    fetch(g, "A15", "red")
    g.answer("red", "card_offer", "refuse")
    assert g.owe("yellow", "fetch_refused")["info"] == {"card": "A15", "refused_by": "red"}
    g.answer("yellow", "fetch_refused", "keep")
    assert "A15" in g.hand("yellow") and "A15" not in g.hand("red")
    assert len(g.hand("yellow")) == 9 and g.warp("yellow") == 0


def test_fido_power_may_leave_a_refused_card_on_the_discard_pile():
    g = game()
    encounter(g)
    fetch(g, "A15", "red")
    g.answer("red", "card_offer", "refuse")
    g.answer("yellow", "fetch_refused", "leave")
    assert "A15" in g.state["discard"] and len(g.hand("yellow")) == 8


def test_fido_off_after_power_loss_no_card_is_fetched():
    g = game(tokens=POWER_LOST)
    encounter(g)
    g.pass_windows()
    assert not any(p["player"] == "yellow" and p["kind"] == "reaction" for p in g.asked)
    assert {"A20.1", "A15"} <= set(g.state["discard"])
    assert not any(e["type"] == "PowerUsed" and e["payload"]["power"] == "Fido" for e in g.log)


def test_fido_off_when_a_cosmic_zap_cancels_the_fetch():
    g = game(hands={"red": ["A20", "CosmicZap", "N", "N", "A4", "A4", "A6", "A6"]})
    encounter(g)
    fetch(g, "A15", "blue")
    g.use("red", "card:CosmicZap")  # red answers the use of Fido's power
    g.pass_windows()
    assert not any(p["kind"] == "card_offer" for p in g.asked)
    assert "A15" in g.state["discard"] and "A15" not in g.hand("blue")


def test_fido_wild_gives_the_opponent_the_top_discarded_card_and_draws():
    """Red holds Fido's flare (no Fido in the game); yellow's Cosmic Zap lies on top of the discard pile."""
    hands = {"red": ["A20", "Flare:Fido", "N", "N", "A4", "A4", "A6", "A6"],
             "yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(yellow="Mind", red="Trader", hands=hands, deck=["A12"], options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "blue:Sorcerer"})
    assert g.state["discard"][-1] == "CosmicZap.1"
    g.invite_none()
    g.use("red", "card:Flare:Fido", {"then": "draw"})
    assert "CosmicZap.1" in g.hand("blue") and not g.state["discard"]
    assert "A12.1" in g.hand("red")
    assert "Flare:Fido" in g.hand("red")  # a flare is kept after use (ffg)


def test_fido_wild_off_when_a_card_zap_cancels_it():
    hands = {"red": ["A20", "Flare:Fido", "N", "N", "A4", "A4", "A6", "A6"],
             "yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"],
             "blue": ["A15", "CardZap", "N", "N", "A6", "A6", "A8", "A8"]}
    g = game(yellow="Mind", red="Trader", hands=hands, deck=["A12"], options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "blue:Sorcerer"})
    g.invite_none()
    g.use("red", "card:Flare:Fido", {"then": "draw"})
    g.use("blue", "card:CardZap")
    assert g.state["discard"][:1] == ["CosmicZap.1"] and "CosmicZap.1" not in g.hand("blue")
    # the cancelled flare is discarded, as a Card Zap's every victim (RULES.md 9)
    assert "A12.1" not in g.hand("red") and "Flare:Fido" not in g.hand("red") and "Flare:Fido" in g.state["discard"]


def test_fido_super_fetches_both_encounter_cards_one_offer_after_another():
    g = game(hands={"yellow": ["A10", "Flare:Fido", "N", "N", "A8", "A8", "A8", "A6"]}, deck=["A12"],
             options={"flares": True})
    encounter(g)
    g.use("yellow", "card:Flare:Fido")  # the Super, after the resolution: in force for this encounter
    fetch(g, "A15", "blue")
    g.answer("blue", "card_offer", "accept")
    g.answer("yellow", "fetch_reward", "draw")
    again = g.owe("yellow", "reaction")  # the Super: Fido may fetch the other card as well
    assert again["options"][0]["args"]["card"]["values"] == ["A20.1"]
    fetch(g, "A20.1", "red")
    g.answer("red", "card_offer", "refuse")
    g.answer("yellow", "fetch_refused", "keep")
    assert "A15" in g.hand("blue") and {"A20.1", "A12.1", "Flare:Fido"} <= set(g.hand("yellow"))
    assert not {"A15", "A20.1"} & set(g.state["discard"])


def test_fido_super_off_while_the_power_is_zapped_only_the_wild_remains():
    hands = {"yellow": ["A10", "Flare:Fido", "N", "N", "A8", "A8", "A8", "A6"],
             "red": ["A20", "CosmicZap", "N", "N", "A4", "A4", "A6", "A6"]}
    g = game(hands=hands, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("red", "card:CosmicZap", {"target": "yellow:Fido"})
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A15")
    # the zapped Fido's flare is a Wild now: a planning-phase card, not offered after the reveal
    assert "card:Flare:Fido" not in g.abilities("yellow")
    g.resolved()
    g.pass_windows()
    assert not any(p["player"] == "yellow" and p["kind"] == "reaction" for p in g.asked)
    assert {"A20.1", "A15"} <= set(g.state["discard"])
