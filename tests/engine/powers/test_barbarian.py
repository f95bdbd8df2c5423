"""Barbarian loots the beaten defense's hand; its flares grab cards or loot as the defense."""

from engine.cards import card_kind_name
from engine.scenario import Scenario
from tests.engine.scenarios import challenge

RED_HAND = ["A20", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A1", "A30", "A15", "CosmicZap", "C", "C", "C"]


def game(red_power="Barbarian", blue_power="Filch", yellow_power="Clone", red_hand=RED_HAND, blue_hand=BLUE_HAND,
         options=None, **kw):
    return Scenario(players=3, powers={"red": [red_power], "blue": [blue_power], "yellow": [yellow_power]},
                    hands={"red": red_hand, "blue": blue_hand}, destiny=["blue.1", "yellow.1"], first="red",
                    options={"edicts": True, **(options or {})}, **kw)


def offense_wins_with_three_tokens(g):
    challenge(g, "A20", "A1", red_tokens=3)


def test_barbarian_power_takes_one_card_per_token_and_the_rest_is_discarded():
    g = game()
    offense_wins_with_three_tokens(g)
    loot = g.owe("red", "barbarian_loot")
    assert g.outcome["totals"] == {"offense": 23, "defense": 5}
    assert loot["info"]["count"] == 3  # three red tokens were in the challenge
    assert sorted(loot["options"][0]["args"]["cards"]["values"]) == sorted(g.hand("blue"))
    assert [e["payload"]["to"] for e in g.log if e["type"] == "HandRevealed"] == [["red"]]
    taken = ["A30", "A15", "CosmicZap"]
    g.answer("red", "barbarian_loot", "take", {"cards": [c for c in g.hand("blue") if card_kind_name(c) in taken]})
    assert sorted(card_kind_name(c) for c in g.hand("red")) == ["A15", "A30", "A4", "A5", "A6", "A7", "C", "C",
                                                                 "CosmicZap"]
    assert g.hand("blue") == []
    assert sorted(card_kind_name(c) for c in g.state["discard"]) == ["C", "C", "C"]
    assert [e["payload"]["power"] for e in g.log if e["type"] == "PowerUsed"] == ["Barbarian"]


def test_barbarian_off_after_power_loss_the_defense_keeps_its_hand():
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    offense_wins_with_three_tokens(g)
    g.pass_windows()
    assert g.outcome["winner"] == "offense"
    assert len(g.hand("blue")) == 6 and len(g.hand("red")) == 6
    assert not any(e["type"] == "PowerUsed" for e in g.log)


def test_barbarian_off_when_cosmic_zapped_as_it_loots():
    g = game()
    offense_wins_with_three_tokens(g)
    # the looting is announced as a power use: blue answers it with its Cosmic Zap
    g.pass_windows("blue", "response")
    assert g.prompts("blue")[0]["info"]["responding_to"] == {"player": "red", "ability": "power:Barbarian"}
    g.use("blue", "card:CosmicZap")
    g.pass_windows()
    assert len(g.hand("blue")) == 5 and len(g.hand("red")) == 6
    assert any(e["type"] == "UseCancelled" for e in g.log)


def test_barbarian_wild_grabs_cards_at_random_after_winning_as_offense():
    g = game(red_power="Filch", yellow_power="Barbarian", red_hand=["Flare:Barbarian"] + RED_HAND[:6],
             options={"flares": True})
    offense_wins_with_three_tokens(g)
    before = g.hand("blue")
    g.use("red", "card:Flare:Barbarian")
    grabbed = [e["payload"] for e in g.log if e["type"] == "CardsMoved"
               and e["payload"]["reason"] == "Barbarian Wild Flare"]
    assert len(grabbed) == 1 and len(grabbed[0]["cards"]) == 3 and grabbed[0]["seen_by"] == ["blue", "red"]
    assert set(grabbed[0]["cards"]) <= set(before)
    assert len(g.hand("blue")) == 3 and set(g.hand("blue")) == set(before) - set(grabbed[0]["cards"])
    assert set(grabbed[0]["cards"]) <= set(g.hand("red"))


def test_barbarian_super_loots_the_offense_after_winning_as_defense():
    blue_hand = ["Flare:Barbarian", "A30", "A4", "C", "C", "C", "C"]
    g = game(red_power="Filch", blue_power="Barbarian", blue_hand=blue_hand, options={"flares": True})
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A30")
    g.use("blue", "card:Flare:Barbarian")
    loot = g.owe("blue", "barbarian_loot")
    assert loot["info"] == {"victim": "red", "count": 4}  # blue defended blue-2 with four tokens
    red_left = g.hand("red")
    keep = red_left[:4]
    g.answer("blue", "barbarian_loot", "take", {"cards": keep})
    assert set(keep) <= set(g.hand("blue"))
    assert g.hand("red") == []
    assert set(red_left[4:]) <= set(g.state["discard"])
    assert g.warp("red") == 3


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_barbarian_ffg_loots_before_the_compensation_which_the_defense_then_keeps():
    from engine.scenario import kinds

    g = Scenario(players=3, powers={"red": ["Barbarian"], "blue": ["Filch"], "yellow": ["Clone"]},
                 hands={"red": ["A20", "A4", "A5", "A6", "A7"], "blue": ["N", "A30", "A15"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "N")
    loot = g.owe("red", "barbarian_loot")  # before blue's compensation: blue's hand is what it held
    assert loot["info"]["count"] == 1 and kinds(loot["options"][0]["args"]["cards"]["values"]) == ["A15", "A30"]
    g.answer("red", "barbarian_loot", "take", {"cards": [c for c in g.hand("blue") if c.startswith("A30")]})
    g.pass_windows()
    # then blue takes 4 cards of red's 5 as compensation for its 4 ships, and keeps them (Mayfair reading: the
    # compensation comes first, and the Barbarian's looting then burns it)
    assert len(g.hand("blue")) == 4 and len(g.hand("red")) == 1
    assert kinds(g.hand("red") + g.hand("blue")) == ["A30", "A4", "A5", "A6", "A7"]
    assert kinds(g.state["discard"]) == ["A15", "A20", "N"]
