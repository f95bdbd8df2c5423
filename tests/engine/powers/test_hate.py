"""Hate: at the start of its turn Hate discards a card; the others match it or lose 3 tokens."""

from engine.scenario import Scenario, kinds
from tests.engine.scenarios import red_attacks_blue

RED = ["A15", "A8", "A9", "A10", "A11", "C", "C"]
BLUE = ["A20", "A4", "C", "C", "C", "C", "C"]
YELLOW = ["A5", "A6", "A7", "C", "C", "C", "C"]


def hate_game(red_power="Hate", red_hand=None, yellow_hand=None, yellow_power="Mind", options=None, **kw):
    """Red (first to play) hates; blue holds an Attack 20, yellow nothing above 7. Blue defends blue-2."""
    hands = {"red": red_hand or RED, "blue": BLUE, "yellow": yellow_hand or YELLOW}
    return red_attacks_blue(red_power, "Filch", yellow_power, hands, options=options, exact_hands=True, **kw)


def test_hate_power_forces_the_defense_to_throw_away_its_best_attack_and_lose_the_challenge():
    g = hate_game()
    owed = g.owe("red", "hate_discard")  # the very start of red's turn
    g.answer("red", "hate_discard", "discard", {"card": g.hand("red")[0]})  # the Attack 15
    # yellow holds no Attack of 15 or more: it loses 3 tokens, of its choice
    g.lose("yellow", {"yellow-0": 3})
    assert g.warp("yellow") == 3
    # blue may match with its Attack 20 or lose 3 tokens; it keeps its tokens
    answer = g.owe("blue", "hate_answer")
    assert answer["options"][0]["args"]["card"]["values"] == [g.hand("blue")[0]]
    g.answer("blue", "hate_answer", "discard", {"card": g.hand("blue")[0]})
    assert owed["player"] == "red"
    assert len(g.hand("red")) == 6 and len(g.hand("blue")) == 6 and len(g.hand("yellow")) == 7
    assert {c.split(".")[0] for c in g.state["discard"]} == {"A15", "A20"}
    # the challenge: blue now has only an Attack 4 to defend with
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A4")
    assert g.outcome["totals"] == {"offense": 12, "defense": 8}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 4}


def test_hate_power_a_player_may_keep_its_card_and_lose_tokens_instead():
    g = hate_game()
    g.answer("red", "hate_discard", "discard", {"card": g.hand("red")[0]})
    g.lose("yellow", {"yellow-0": 3})
    g.answer("blue", "hate_answer", "lose_tokens")
    g.lose("blue", {"blue-0": 3})
    assert g.warp("blue") == 3 and len(g.hand("blue")) == 7


def test_hate_off_after_power_loss_the_turn_starts_without_hatred():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = hate_game(tokens=lost)
    assert not any(p["kind"] == "hate_discard" for p in g.prompts())
    g.regroup("red", None)
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A20")  # blue still holds its Attack 20
    assert g.outcome["winner"] == "defense"
    assert g.warp("yellow") == 0 and len(g.hand("yellow")) == 7


def test_hate_off_when_a_cosmic_zap_cancels_it():
    yellow = ["CosmicZap", "A5", "A6", "A7", "C", "C", "C"]
    g = hate_game(yellow_hand=yellow, options={"edicts": True})
    g.use("yellow", "card:CosmicZap")  # answering the announced hatred
    g.pass_windows()
    assert not any(p["kind"] == "hate_discard" for p in g.prompts())
    assert len(g.hand("red")) == 7 and len(g.hand("blue")) == 7
    assert g.owe("red", "launch")


def test_hate_wild_lets_any_player_hate_once_at_the_start_of_a_challenge():
    yellow = ["Flare:Hate", "A40", "A5", "A6", "C", "C", "C"]
    g = Scenario(players=4, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Mutant"], "purple": ["Hate"]},
                 hands={"red": RED, "blue": BLUE, "yellow": yellow, "purple": ["A4", "C"]},
                 destiny=["blue.1"], first="red", options={"flares": True}, exact_hands=True)
    g.use("yellow", "card:Flare:Hate")  # the start window of red's challenge
    g.answer("yellow", "hate_discard", "discard", {"card": "A40"})
    # nobody else holds an Attack 40: each of the three loses 3 tokens
    for color in ("purple", "red", "blue"):
        g.lose(color, {f"{color}-1": 3})
    assert [g.warp(c) for c in ("red", "blue", "yellow", "purple")] == [3, 3, 0, 3]
    assert "Flare:Hate" in g.state["discard"] and "A40" in g.state["discard"]


def test_hate_super_makes_hate_hate_a_second_time():
    red = ["Flare:Hate", "C", "A15", "A8", "A9", "A10", "A11"]
    g = hate_game(red_hand=red, options={"flares": True})
    g.answer("red", "hate_discard", "discard", {"card": g.hand("red")[1]})  # a Compromise first
    for color in ("blue", "yellow"):  # both hold Compromises and throw one away
        compromise = next(c for c in g.hand(color) if c.startswith("C"))
        g.answer(color, "hate_answer", "discard", {"card": compromise})
    g.use("red", "card:Flare:Hate")  # in the start window: hate again
    attack15 = next(c for c in g.hand("red") if c.startswith("A15"))
    g.answer("red", "hate_discard", "discard", {"card": attack15})
    g.lose("yellow", {"yellow-0": 3})
    g.answer("blue", "hate_answer", "lose_tokens")
    g.lose("blue", {"blue-4": 3})
    assert g.warp("yellow") == 3 and g.warp("blue") == 3
    assert len(g.hand("red")) == 4  # seven, less the flare and two hated cards


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_hate_game(red_hand):
    return Scenario(players=3, powers={"red": ["Hate"], "blue": ["Filch"], "yellow": ["Mind"]},
                    hands={"red": red_hand, "blue": ["A20", "N"], "yellow": ["A5", "N"]}, exact_hands=True,
                    deck=["A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14", "N"],
                    destiny=["blue.1"], first="red", ruleset="ffg")


def test_hate_ffg_the_hate_chooses_the_ships_a_player_loses():
    g = ffg_hate_game(["A15", "N", "A4"])
    g.answer("red", "hate_discard", "discard", {"card": next(c for c in g.hand("red") if c.startswith("A15"))})
    # yellow cannot match the Attack 15: red (not yellow) chooses which 3 of yellow's ships go
    owed = g.owe("red", "choose_losses")
    assert owed["info"] == {"count": 3, "reason": "Hate", "player": "yellow"}
    assert not [p for p in g.prompts("yellow") if p["kind"] == "choose_losses"]
    g.answer("red", "choose_losses", "lose", {"tokens": {"yellow-1": 2, "yellow-4": 1}})
    assert g.warp("yellow") == 3 and g.tokens("yellow-1") == {"yellow": 2} and g.tokens("yellow-4") == {"yellow": 3}
    g.answer("blue", "hate_answer", "discard", {"card": next(c for c in g.hand("blue") if c.startswith("A20"))})
    assert kinds(g.hand("red")) == ["A4", "N"]  # still holding encounter cards: no new hand


def test_hate_ffg_left_without_encounter_cards_the_hate_draws_a_new_hand():
    g = ffg_hate_game(["A15", "MobiusTubes"])
    g.answer("red", "hate_discard", "discard", {"card": next(c for c in g.hand("red") if c.startswith("A15"))})
    g.answer("red", "choose_losses", "lose", {"tokens": {"yellow-1": 3}})
    g.answer("blue", "hate_answer", "discard", {"card": next(c for c in g.hand("blue") if c.startswith("A20"))})
    g.pass_windows()
    # the Mobius Tubes go with the old hand; the top 8 of the deck are the new one
    assert kinds(g.hand("red")) == ["A10", "A11", "A12", "A13", "A14", "A7", "A8", "A9"]
    assert "MobiusTubes" in kinds(g.state["discard"])
