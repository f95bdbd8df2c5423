"""Mite: a defense holding more than 3 cards pays in cards or in a base, as soon as the offense launches."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A1", "A10", "C", "C", "C", "C", "C"]


def mite_game(red_power="Mite", red_hand=None, blue_hand=None, yellow_hand=None, options=None, **kw):
    """Red attacks blue's planet blue-2; yellow is a bystander (holding Mite when red does not)."""
    yellow_power = "Mite" if red_power != "Mite" else "Mind"
    hands = {"red": red_hand or RED, "blue": blue_hand or BLUE}
    return red_attacks_blue(red_power, "Filch", yellow_power, hands, yellow_hand, options=options, **kw)


def test_mite_power_defense_gives_a_base_and_the_challenge_succeeds_at_once():
    g = mite_game()
    g.launch({"red-0": 2}, "blue-2")
    demand = g.owe("blue", "mite_demand")
    assert {o["action"] for o in demand["options"]} == {"discard", "give_base"}
    g.answer("blue", "mite_demand", "give_base")
    # red's two tokens land beside blue's four; nobody goes to the warp, no cards are played
    assert g.tokens("blue-2") == {"blue": 4, "red": 2}
    assert g.tokens("cone:offense") == {}
    assert g.warp("blue") == 0 and g.warp("red") == 0
    assert g.outcome["winner"] == "offense" and g.outcome["succeeded"] is True
    assert len(g.hand("blue")) == 7 and len(g.hand("red")) == 7
    # a successful challenge: red may challenge again
    assert g.owe("red", "second_challenge")


def test_mite_power_defense_discards_down_to_three_at_random_and_the_challenge_goes_on():
    g = mite_game()
    before = g.hand("blue")
    g.launch({"red-0": 2}, "blue-2")
    g.answer("blue", "mite_demand", "discard")
    kept = g.hand("blue")
    assert len(kept) == 3 and set(kept) <= set(before)
    lost = [c for c in before if c not in kept]
    assert all(c in g.state["discard"] for c in lost)
    assert g.tokens("blue-2") == {"blue": 4}
    g.invite_none()  # the challenge continues as usual
    assert g.owe("red", "challenge_card")


def test_mite_power_leaves_a_defense_with_three_cards_alone():
    g = mite_game(blue_hand=["A10", "C", "C"], exact_hands=True)
    g.launch({"red-0": 2}, "blue-2")
    assert not any(p["kind"] == "mite_demand" for p in g.prompts())
    assert len(g.hand("blue")) == 3


def test_mite_off_after_power_loss_no_demand_is_made():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}  # red keeps two home bases: fewer than three
    g = mite_game(tokens=lost)
    g.regroup("red", None)
    g.launch({"red-0": 2}, "blue-2")
    assert not any(p["kind"] == "mite_demand" for p in g.prompts())
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    # the normal way: blue keeps its hand (less the card it played) and defends its planet
    assert len(g.hand("blue")) == 6
    assert g.outcome["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4} and g.warp("red") == 12 + 2


def test_mite_off_when_a_cosmic_zap_cancels_the_demand():
    g = mite_game(yellow_hand=["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"], options={"edicts": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap")  # answering Mite's announced demand
    assert not any(p["kind"] == "mite_demand" for p in g.prompts())
    assert len(g.hand("blue")) == 7
    assert [e["payload"]["target"]["ability"] for e in g.log if e["type"] == "UseCancelled"] == ["power:Mite"]


def test_mite_wild_lets_another_offense_make_the_demand_once():
    g = mite_game(red_power="Mind", red_hand=["Flare:Mite", "A4", "A5", "A6", "A7", "A8", "A9"],
                  options={"flares": True})
    g.launch({"red-0": 3}, "blue-2")
    assert not any(p["kind"] == "mite_demand" for p in g.prompts())  # Mind makes no demand
    g.use("red", "card:Flare:Mite")
    g.answer("blue", "mite_demand", "give_base")
    assert g.tokens("blue-2") == {"blue": 4, "red": 3}
    assert g.outcome["succeeded"] is True
    assert "Flare:Mite" in g.state["discard"]


def test_mite_super_puts_the_discarded_cards_in_mites_hand():
    g = mite_game(red_hand=["Flare:Mite", "A4", "A5", "A6", "A7", "A8", "A9"], options={"flares": True})
    blue_before = g.hand("blue")
    g.use("red", "card:Flare:Mite")  # before the launch, in the destiny window
    g.launch({"red-0": 2}, "blue-2")
    g.answer("blue", "mite_demand", "discard")
    taken = [c for c in blue_before if c not in g.hand("blue")]
    assert len(taken) == 4 and len(g.hand("blue")) == 3
    assert set(taken) <= set(g.hand("red"))
    assert len(g.hand("red")) == 6 + 4  # the flare was played: six cards, plus four from blue
    assert not set(taken) & set(g.state["discard"])
