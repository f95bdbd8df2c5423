"""Deuce: a second challenge card; two Attacks add up; a Compromise or a War card decides the kind."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A8", "A6", "C", "A4", "A5", "A7", "A9"]
BLUE = ["A10", "A11", "C", "C", "C", "C", "C"]


def deuce_game(red_power="Deuce", red_hand=None, blue_hand=None, yellow_hand=None, options=None, **kw):
    """Red attacks blue-2 with 4 tokens; yellow holds Deuce when red does not (so its flare is in the deck)."""
    hands = {"red": red_hand or RED, "blue": blue_hand or BLUE}
    yellow_power = "Deuce" if red_power != "Deuce" else "Mind"
    g = red_attacks_blue(red_power, "Filch", yellow_power, hands, yellow_hand, options=options, **kw)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    return g


def card_id(g, color, kind):
    """The id of the first card of a kind (``A6``, ``C``, ``War``) in a player's hand."""
    return next(c for c in g.hand(color) if c.split(".")[0] == kind)


def test_deuce_power_two_attacks_add_up_and_win():
    g = deuce_game()
    g.play("red", "A8", second=card_id(g, "red", "A6"))
    g.play("blue", "A10")
    # alone the 8 would lose (8 + 4 = 12 against 10 + 4 = 14); with the 6 it is 18
    assert g.outcome["totals"] == {"offense": 18, "defense": 14}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}
    g.pass_windows()
    assert {"A8.1", "A6.1"} <= set(g.state["discard"])


def test_deuce_power_a_compromise_beside_an_attack_is_a_compromise_and_the_attack_comes_back():
    g = deuce_game()
    g.play("red", "A8", second=card_id(g, "red", "C"))
    g.play("blue", "A10")
    assert g.outcome["cards"] == {"offense": "compromise", "defense": "attack"}
    assert g.outcome["winner"] == "defense"
    assert "A8.1" in g.hand("red")  # the Attack that did not count is back in red's hand
    assert g.state["committed"]["offense"] == ["C.1"]
    assert g.outcome["consolation"]["count"] == 4  # red lost 4 tokens: 4 cards from blue


def test_deuce_power_with_war_cards_an_attack_beside_a_war_card_is_a_war_card():
    g = deuce_game(red_hand=["A8", "War", "A4", "A5", "A6", "A7", "A9"], options={"war_cards": True})
    g.play("red", "A8", second=card_id(g, "red", "War"))
    g.play("blue", "A11")
    assert g.outcome["cards"]["offense"] == "war"
    assert g.outcome["winner"] == "offense"  # War beats the Attack 11
    # the Attack beside the War card went back to red's hand before the outcome was applied (blue's
    # consolation then takes 4 of red's cards at random, which may include it)
    back = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Deuce"]
    assert back == [{"cards": ["A8.1"], "src": "committed:offense", "dst": "hand:red", "seen_by": None,
                     "reason": "Deuce"}]
    assert g.state["committed"]["offense"] == ["War.1"]
    g.pass_windows()
    assert "War.1" in g.state["discard"] and "A8.1" not in g.state["discard"]


def test_deuce_off_after_power_loss_only_one_card_may_be_played():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = red_attacks_blue("Deuce", "Filch", "Mind", {"red": RED, "blue": BLUE}, tokens=lost)
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    assert "second" not in g.owe("red", "challenge_card")["options"][0]["args"]
    g.play("red", "A8")
    g.play("blue", "A10")
    assert g.outcome["totals"] == {"offense": 12, "defense": 14}
    assert g.outcome["winner"] == "defense"


def test_deuce_off_when_a_cosmic_zap_switches_it_off_before_the_cards():
    yellow = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]
    g = deuce_game(yellow_hand=yellow, options={"edicts": True})
    g.use("yellow", "card:CosmicZap", {"target": "red:Deuce"})
    assert "second" not in g.owe("red", "challenge_card")["options"][0]["args"]
    g.play("red", "A8")
    g.play("blue", "A10")
    assert g.outcome["winner"] == "defense"


def test_deuce_wild_a_twin_attack_subtracts_from_the_side_that_revealed_its_match():
    blue = ["Flare:Deuce", "A8", "A10", "C", "C", "C", "C"]
    g = deuce_game(red_power="Mind", red_hand=["A10", "A4", "A5", "A6", "A7", "A9", "C"], blue_hand=blue,
                   options={"flares": True})
    g.play("red", "A10")
    g.play("blue", "A8")
    assert g.outcome is None  # blue is asked in the reveal window first
    # 10 + 4 = 14 against 8 + 4 = 12; blue holds a twin of red's revealed 10 and subtracts it
    twin = card_id(g, "blue", "A10")
    g.use("blue", "card:Flare:Deuce", {"play": f"subtract:offense:{twin}"})
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 4, "defense": 12}
    assert g.outcome["winner"] == "defense"
    assert twin in g.state["discard"] and twin not in g.hand("blue")


def test_deuce_super_adds_another_attack_after_the_reveal():
    g = deuce_game(red_hand=["Flare:Deuce", "A8", "A6", "A4", "A5", "A7", "A9"], options={"flares": True})
    g.play("red", "A8")
    g.play("blue", "A10")
    g.use("red", "card:Flare:Deuce", {"card": card_id(g, "red", "A7")})
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 8 + 7 + 4, "defense": 14}
    assert g.outcome["winner"] == "offense"
