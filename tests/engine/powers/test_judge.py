"""Judge decrees an extra consequence before cards are chosen; its flares decree too."""

from engine.scenario import Scenario

RED_HAND = ["A20", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A1", "A8", "C", "C", "C", "C", "C"]


def game(yellow_power="Judge", red_power="Filch", red_hand=RED_HAND, yellow_hand=None, options=None, **kw):
    hands = {"red": red_hand, "blue": BLUE_HAND}
    if yellow_hand:
        hands["yellow"] = yellow_hand
    return Scenario(players=3, powers={"red": [red_power], "blue": ["Clone"], "yellow": [yellow_power]},
                    hands=hands, destiny=["blue.1", "yellow.1"], first="red", options=options, **kw)


def launch_and_reach_planning(g):
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()


def red_beats_blue(g):
    g.play("red", "A20")
    g.play("blue", "A1")


def test_judge_power_decrees_that_the_loser_loses_two_more_tokens():
    g = game()
    launch_and_reach_planning(g)
    g.use("yellow", "power:Judge", {"fiat": "loser_loses", "count": 2})
    red_beats_blue(g)
    losses = g.owe("blue", "choose_losses")
    assert losses["info"] == {"count": 2, "reason": "Judge"}
    g.lose("blue", {"blue-0": 2})
    assert g.warp("blue") == 4 + 2
    assert g.tokens("blue-0") == {"blue": 2} and g.tokens("blue-2") == {"red": 4}


def test_judge_power_decree_also_applies_when_a_war_card_wins():
    g = game(red_hand=["War", "A4", "A5", "A6", "A7", "C", "C"], options={"war_cards": True},
             tokens={"red-1": {"red": 1}})  # three red tokens wait in the warp
    g.regroup("red", None)
    launch_and_reach_planning(g)
    g.use("yellow", "power:Judge", {"fiat": "winner_retrieves", "count": 3})
    g.play("red", "War")
    g.play("blue", "A8")
    assert g.outcome["kind"] == "war" and g.outcome["winner"] == "offense"
    g.place("red", {"red-1": 3})
    assert g.warp("red") == 0 and g.tokens("red-1") == {"red": 4}
    assert g.tokens("blue-2") == {"red": 4} and g.warp("blue") == 4


def test_judge_off_after_power_loss_no_decree_is_offered():
    g = game(tokens={"yellow-1": {}, "yellow-2": {}, "yellow-3": {}})
    launch_and_reach_planning(g)
    g.pass_windows()
    assert g.prompts("red")[0]["kind"] == "challenge_card"
    assert not any(e["type"] == "PowerUsed" for e in g.log)
    red_beats_blue(g)
    g.pass_windows()
    assert g.warp("blue") == 4 and g.tokens("blue-0") == {"blue": 4}


def test_judge_off_when_cosmic_zapped_after_the_decree_nothing_happens():
    red_hand = ["A20", "CosmicZap", "A5", "A6", "A7", "C", "C"]
    g = game(red_hand=red_hand, options={"edicts": True})
    launch_and_reach_planning(g)
    g.use("yellow", "power:Judge", {"fiat": "loser_loses", "count": 2})
    g.pass_windows("red", "response")
    g.command("red", "pass")  # the decree stands...
    g.use("red", "card:CosmicZap", {"target": "yellow:Judge"})  # ...until the Judge is switched off
    red_beats_blue(g)
    g.pass_windows()
    assert g.warp("blue") == 4 and g.tokens("blue-0") == {"blue": 4}
    assert [e["payload"]["target"] for e in g.log if e["type"] == "PowerZapped"] == ["yellow"]


def test_judge_wild_decrees_that_the_winner_draws_two_cards():
    g = game(red_hand=["Flare:Judge"] + RED_HAND[:6], deck=["A30", "A40"], options={"flares": True})
    launch_and_reach_planning(g)
    g.use("red", "card:Flare:Judge", {"fiat": "winner_draws", "count": 2})
    red_beats_blue(g)
    g.pass_windows()
    assert g.outcome["winner"] == "offense"
    assert {"A30", "A40"} <= set(g.hand("red")) and len(g.hand("red")) == 5 + 2
    assert g.warp("blue") == 4


def test_judge_super_decrees_after_the_reveal_that_the_loser_discards_four_cards():
    yellow_hand = ["Flare:Judge", "C", "C", "C", "C", "C", "C"]
    g = game(yellow_hand=yellow_hand, options={"flares": True})
    launch_and_reach_planning(g)
    red_beats_blue(g)
    blue_before = g.hand("blue")
    g.use("yellow", "card:Flare:Judge", {"fiat": "loser_discards", "count": 4})
    g.pass_windows()
    discarded = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Judge"]
    assert len(discarded) == 1 and len(discarded[0]["cards"]) == 4 and discarded[0]["seen_by"] is None
    assert set(discarded[0]["cards"]) <= set(blue_before)
    assert sorted(g.hand("blue")) == sorted(set(blue_before) - set(discarded[0]["cards"]))
