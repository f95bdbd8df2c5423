"""Parasite joins either side uninvited; its flares let anyone do so, or hop sides after the reveal."""

from tests.engine.scenarios import last_outcome, red_attacks_blue

RED_HAND = ["A12", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A10", "A12", "C", "C", "C", "C", "C"]


def game(yellow_power="Parasite", yellow_hand=None, **kw):
    red = "Parasite" if yellow_power != "Parasite" else "Filch"
    hands = {"red": RED_HAND, "blue": BLUE_HAND}
    return red_attacks_blue(red, "Clone", yellow_power, hands, yellow_hand, **kw)


def test_parasite_power_joins_the_defense_uninvited_and_turns_the_challenge():
    g = game()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    owed = g.owe("yellow", "alliance")
    assert owed["info"]["invited_by"] == []
    assert sorted(o.get("side") for o in owed["options"] if o["action"] == "join") == ["defense", "offense"]
    g.join("yellow", "defense", {"yellow-0": 3})
    g.play("red", "A12")
    g.play("blue", "A10")
    # without yellow: 12 + 4 = 16 against 10 + 4 = 14; with its three tokens the defense has 17
    assert last_outcome(g)["totals"] == {"offense": 16, "defense": 17}
    assert last_outcome(g)["winner"] == "defense"
    assert g.warp("red") == 4 and g.tokens("blue-2") == {"blue": 4}


def test_parasite_off_after_power_loss_it_is_never_asked_and_the_offense_wins():
    g = game(tokens={"yellow-1": {}, "yellow-2": {}, "yellow-3": {}})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A10")
    assert not any(e["type"] == "AllianceAnswered" for e in g.log)
    assert g.outcome["totals"] == {"offense": 16, "defense": 14}
    assert g.outcome["winner"] == "offense"


def test_parasite_wild_lets_a_bystander_join_the_offense_uninvited():
    g = game(yellow_power="Mutant", yellow_hand=["Flare:Parasite"] + ["C"] * 6, options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.use("yellow", "card:Flare:Parasite")
    g.invite_none()
    g.join("yellow", "offense", {"yellow-0": 2})
    g.play("red", "A4")
    g.play("blue", "A10")
    # red's Attack 4 and four tokens (8) would lose to 14; yellow's two tokens make it 10 - still short
    assert last_outcome(g)["totals"] == {"offense": 10, "defense": 14}
    assert last_outcome(g)["winner"] == "defense"
    assert g.warp("yellow") == 2  # the uninvited ally shares the loss


def test_parasite_super_hops_to_the_winning_side_after_the_reveal():
    g = game(yellow_hand=["Flare:Parasite"] + ["C"] * 6, options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 3})
    g.play("red", "A12")
    g.play("blue", "A12")
    # offense 12 + 4 + 3 = 19 against 16: yellow moves its three tokens over to the defense
    g.use("yellow", "card:Flare:Parasite")
    hop = [e["payload"] for e in g.log if e["type"] == "TokensMoved" and e["payload"]["reason"] == "Parasite Super Flare"]
    assert hop == [{"moves": [["yellow", "cone:offense", "cone:defense", 3]], "reason": "Parasite Super Flare"}]
    assert g.ch["allies"] == {"yellow": "defense"}
    g.place("yellow", {"yellow-0": 3})  # the winning defensive ally goes home and is rewarded
    assert last_outcome(g)["totals"] == {"offense": 16, "defense": 19}
    assert last_outcome(g)["winner"] == "defense"
    assert g.tokens("yellow-0") == {"yellow": 4} and len(g.hand("yellow")) == 6 + 3
