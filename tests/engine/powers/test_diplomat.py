"""Diplomat: a player who is not a main player joins the deal as a third party (three-way deals)."""

from engine.scenario import Scenario, terms

RED = ["C", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["C", "A10", "C", "C", "C", "C", "C"]


def diplomat_game(yellow_power="Diplomat", yellow_hand=None, red_hand=None, blue_hand=None, players=3,
                  options=None, **kw):
    """Red attacks blue-2 with 2 tokens; nobody allies; yellow (and purple) stand by."""
    powers = {"red": ["Filch"], "blue": ["Mind"], "yellow": [yellow_power]}
    if players == 4:
        powers["purple"] = ["Diplomat"]
    hands = {"red": red_hand or RED, "blue": blue_hand or BLUE}
    if yellow_hand:
        hands["yellow"] = yellow_hand
    g = Scenario(players=players, powers=powers, hands=hands, destiny=["blue.1"], first="red", options=options,
                 **kw)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    return g


def three_way_terms():
    """Red gets a base on blue-2; yellow gets a card of red's choice and a base on blue-2 too."""
    offer = terms(offense_base="blue-2")
    offer["third"] = {"gets": {"offense": {"count": 1}}, "base": "blue-2"}
    return offer


def test_diplomat_power_joins_the_deal_and_gains_a_base_and_a_card():
    g = diplomat_game()
    g.play("red", "C")
    g.play("blue", "C")
    g.use("yellow", "power:Diplomat")
    deal_prompts = {p["player"]: p["info"]["side"] for p in g.prompts() if p["kind"] == "deal"}
    assert deal_prompts == {"red": "offense", "blue": "defense", "yellow": "third"}
    g.propose("yellow", three_way_terms())
    g.accept("red", 1)
    # one acceptance is not enough in a three-way deal: blue must agree too
    assert g.ch["deal"]["accepted"] is None
    assert any(p["player"] == "blue" and p["kind"] == "deal" for p in g.prompts())
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 2})
    given = g.hand("red")[0]
    g.give("red", [given])
    g.take_base("yellow", {"yellow-0": 1})
    assert g.ch["deal"]["made"] is True
    assert g.tokens("blue-2") == {"blue": 4, "red": 2, "yellow": 1}
    assert given in g.hand("yellow") and len(g.hand("yellow")) == 8
    assert g.warp("red") == 0 and g.warp("blue") == 0


def test_diplomat_power_with_war_cards_turns_a_war_into_a_three_way_deal():
    g = diplomat_game(red_hand=["War", "A4", "A5", "A6", "A7", "A8", "A9"], options={"war_cards": True})
    g.play("red", "War")
    g.play("blue", "A10")
    assert "power:Diplomat" in g.abilities("yellow")
    g.use("yellow", "power:Diplomat")
    g.pass_windows()
    assert g.outcome["kind"] == "deal"  # not a War won by red
    g.give_up("red")
    g.give_up("blue")
    g.lose("red", {"red-1": 3})
    g.lose("blue", {"blue-0": 3})
    assert g.ch["deal"]["made"] is False
    assert g.warp("yellow") == 0  # the Diplomat risks nothing
    assert g.warp("red") == 3 and g.warp("blue") == 3
    assert g.tokens("blue-2") == {"blue": 4}


def test_diplomat_off_after_power_loss_the_deal_stays_between_the_main_players():
    lost = {"yellow-0": {}, "yellow-1": {}, "yellow-2": {}}
    g = diplomat_game(tokens=lost)
    g.play("red", "C")
    g.play("blue", "C")
    assert g.abilities("yellow") == []
    assert {p["player"] for p in g.prompts() if p["kind"] == "deal"} == {"red", "blue"}
    g.propose("red", terms(offense_base="blue-2"))
    g.accept("blue", 1)  # the usual way: one acceptance makes the deal
    g.take_base("red", {"cone:offense": 2})
    assert g.ch["deal"]["made"] is True
    assert g.tokens("blue-2") == {"blue": 4, "red": 2}


def test_diplomat_off_when_a_cosmic_zap_cancels_the_call():
    g = diplomat_game(red_hand=["C", "CosmicZap", "A5", "A6", "A7", "A8", "A9"], options={"edicts": True})
    g.play("red", "C")
    g.play("blue", "C")
    g.use("yellow", "power:Diplomat")
    g.use("red", "card:CosmicZap")
    g.pass_windows()
    assert "deal_third" not in g.ch["notes"]
    assert {p["player"] for p in g.prompts() if p["kind"] == "deal"} == {"red", "blue"}


def test_diplomat_wild_lets_a_bystander_join_a_deal_once():
    yellow = ["Flare:Diplomat", "A4", "A5", "A6", "A7", "A8", "A9"]
    g = diplomat_game(yellow_power="Mind", yellow_hand=yellow, players=4, options={"flares": True})
    g.play("red", "C")
    g.play("blue", "C")
    g.use("yellow", "card:Flare:Diplomat")
    g.pass_windows()
    assert g.ch["notes"]["deal_third"] == "yellow"
    gift = next(c for c in g.hand("yellow") if c.startswith("A9"))
    offer = terms()
    offer["third"] = {"gives": {"defense": {"named": [gift]}}, "gets": {"offense": {"count": 1}}}
    g.propose("yellow", offer)
    g.accept("blue", 1)
    g.accept("red", 1)
    given = g.hand("red")[0]
    g.give("red", [given])
    assert gift in g.hand("blue") and given in g.hand("yellow")
    assert "Flare:Diplomat" in g.state["discard"]


def test_diplomat_super_calls_a_negotiation_over_two_attacks():
    yellow = ["Flare:Diplomat", "A4", "A5", "A6", "A7", "A8", "A9"]
    g = diplomat_game(yellow_hand=yellow, red_hand=["A20", "A4", "A5", "A6", "A7", "A8", "A9"],
                      options={"flares": True})
    g.play("red", "A20")
    g.play("blue", "A10")
    g.use("yellow", "card:Flare:Diplomat")
    g.pass_windows()
    # red's 24 would have beaten blue's 14: instead there is a deal with yellow as third party
    assert g.outcome["kind"] == "deal" and g.outcome["winner"] is None
    assert g.ch["notes"]["deal_third"] == "yellow"
    g.propose("blue", terms(defense_gives={"count": 1}))
    g.accept("yellow", 1)
    g.accept("red", 1)
    given = g.hand("blue")[0]
    g.give("blue", [given])
    assert g.ch["deal"]["made"] is True
    assert given in g.hand("red")
    assert g.tokens("blue-2") == {"blue": 4}  # red did not land
    assert g.warp("blue") == 0 and g.warp("red") == 0
