"""Philanthropist gives a card to a main player; its flares give and draw, or choose a card for a player."""

from engine.cards import card_kind_name
from tests.engine.scenarios import last_outcome, red_attacks_blue

RED_HAND = ["A8", "A4", "A5", "A6", "A7", "C", "C"]
BLUE_HAND = ["A20", "A1", "C", "C", "C", "C", "C"]
YELLOW_HAND = ["A30", "A9", "C", "C", "C", "C", "C"]


def game(yellow_power="Philanthropist", red_power="Filch", red_hand=RED_HAND, yellow_hand=YELLOW_HAND, **kw):
    blue = "Philanthropist" if "Philanthropist" not in (yellow_power, red_power) else "Clone"
    return red_attacks_blue(red_power, blue, yellow_power,
                            {"red": red_hand, "blue": BLUE_HAND, "yellow": yellow_hand}, **kw)


def yellow_allies_with_red(g):
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})


def test_philanthropist_power_ally_gives_the_offense_an_attack_30_that_wins():
    g = game()
    yellow_allies_with_red(g)
    g.use("yellow", "power:Philanthropist", {"card": "A30", "player": "red"})
    gift = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Philanthropist"]
    assert gift == [{"cards": ["A30"], "src": "hand:yellow", "dst": "hand:red", "seen_by": ["red", "yellow"],
                     "reason": "Philanthropist"}]
    g.play("red", "A30")
    g.play("blue", "A20")
    assert g.outcome["totals"] == {"offense": 30 + 4 + 1, "defense": 24}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4, "yellow": 1}


def test_philanthropist_off_after_power_loss_no_gift_and_the_defense_wins():
    g = game(tokens={"yellow-1": {}, "yellow-2": {}, "yellow-3": {}})
    yellow_allies_with_red(g)
    g.pass_windows()
    assert "A30" in g.hand("yellow")
    g.play("red", "A8")
    g.play("blue", "A20")
    assert last_outcome(g)["totals"] == {"offense": 8 + 4 + 1, "defense": 24}
    assert last_outcome(g)["winner"] == "defense"


def test_philanthropist_wild_gives_a_card_and_draws_two():
    g = game(yellow_power="Clone", yellow_hand=["Flare:Philanthropist"] + YELLOW_HAND[:6],
             deck=["A12", "A13"], options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.use("yellow", "card:Flare:Philanthropist", {"card": "A30", "player": "red"})
    assert "A30" in g.hand("red") and "A30" not in g.hand("yellow")
    assert sorted(card_kind_name(c) for c in g.hand("yellow")) == ["A12", "A13", "A9", "C", "C", "C", "C"]
    g.play("red", "A30")
    g.play("blue", "A20")
    assert g.outcome["totals"] == {"offense": 34, "defense": 24}


def test_philanthropist_super_makes_the_defense_play_the_gifted_compromise():
    red_hand = ["Flare:Philanthropist", "A8", "A4", "A5", "A6", "A7", "C"]
    g = game(yellow_power="Filch", red_power="Philanthropist", red_hand=red_hand, options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    gift = next(c for c in g.hand("red") if c.startswith("C"))
    g.use("red", "card:Flare:Philanthropist", {"card": gift, "player": "blue"})
    assert g.state["committed"]["defense"] == [gift]
    moved = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["dst"] == "committed:defense"]
    assert moved[-1]["seen_by"] == ["blue", "red"]
    g.pass_windows()
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("red", "challenge_card")]  # blue chooses nothing
    g.play("red", "A8")
    # blue's Attack 20 stayed in its hand: the Attack 8 beats the gifted Compromise
    assert g.outcome["kind"] == "compromise" and g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4} and "A20.1" in g.hand("blue")


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_philanthropist_ffg_the_offense_giving_its_last_encounter_card_draws_a_new_hand():
    from engine.scenario import Scenario, kinds

    deck = ["A20", "A4", "A5", "A6", "A7", "A8", "A9", "N"]
    g = Scenario(players=3, powers={"red": ["Philanthropist"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A1", "Quash"], "blue": ["A10", "N"]}, exact_hands=True, deck=deck,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.use("red", "power:Philanthropist", {"card": next(c for c in g.hand("red") if c.startswith("A1")),
                                          "player": "blue"})
    g.pass_windows()
    # red held no other encounter card: the Quash goes with its old hand, 8 new cards come (Mayfair reading:
    # the offense, out of challenge cards, would end its turn)
    assert kinds(g.hand("red")) == sorted(deck)
    assert "Quash" in kinds(g.state["discard"]) and "A1" in kinds(g.hand("blue"))
    g.play("red", "A20")
    g.play("blue", "A10")
    assert g.resolved()["winner"] == "offense"
