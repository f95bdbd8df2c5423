"""Chronos: after the reveal, take your card back; the opponent's is discarded and both play again."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A4", "A20", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A10", "A5", "C", "C", "C", "C", "C"]


def chronos_game(red_power="Chronos", red_hand=None, options=None, **kw):
    """Red attacks blue-2 with 3 tokens; yellow holds Chronos when red does not (so its flare is in the deck)."""
    yellow_power = "Chronos" if red_power != "Chronos" else "Mind"
    return red_attacks_blue(red_power, "Filch", yellow_power, {"red": red_hand or RED, "blue": BLUE},
                            options=options, **kw)


def to_cards(g):
    challenge(g, "A4", "A10", red_tokens=3)


def test_chronos_power_turns_a_lost_challenge_into_a_win_by_playing_again():
    g = chronos_game()
    to_cards(g)
    assert g.outcome is None  # red may travel in time first
    g.use("red", "power:Chronos")
    assert "A4.1" in g.hand("red")
    assert "A10.1" in g.state["discard"]
    g.play("red", "A20")
    g.play("blue", "A5")
    assert g.outcome["totals"] == {"offense": 23, "defense": 9}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3}


def test_chronos_off_after_power_loss_the_first_cards_stand():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = chronos_game(tokens=lost)
    g.regroup("red", None)
    to_cards(g)
    assert g.outcome["totals"] == {"offense": 7, "defense": 14}
    assert g.outcome["winner"] == "defense"
    assert g.warp("red") == 12 + 3


def test_chronos_off_when_a_cosmic_zap_switches_it_off():
    g = red_attacks_blue("Chronos", "Filch", "Mind",
                         {"red": RED, "blue": BLUE, "yellow": ["CosmicZap", "A6", "A7", "A8", "A9", "A11", "A12"]},
                         options={"edicts": True})
    g.launch({"red-0": 3}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Chronos"})
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    g.pass_windows()
    assert g.outcome["winner"] == "defense"


def test_chronos_wild_lets_another_main_player_play_again():
    g = chronos_game(red_power="Mind", red_hand=["Flare:Chronos", "A4", "A20", "A5", "A6", "A7", "A8"],
                     options={"flares": True})
    to_cards(g)
    g.use("red", "card:Flare:Chronos")
    g.play("red", "A20")
    g.play("blue", "A5")
    assert g.outcome["winner"] == "offense"
    assert g.outcome["totals"] == {"offense": 23, "defense": 9}
    assert "Flare:Chronos" in g.state["discard"]


def test_chronos_super_makes_the_opponent_show_its_new_card_first():
    g = chronos_game(red_hand=["Flare:Chronos", "A4", "A20", "A5", "A6", "A7", "A8"], options={"flares": True})
    to_cards(g)
    g.use("red", "card:Flare:Chronos")
    # only blue is asked: it must commit first, face up
    asked = [p["player"] for p in g.prompts() if p["kind"] == "challenge_card"]
    assert asked == ["blue"]
    g.play("blue", "A5")
    chosen = [e for e in g.log if e["type"] == "ChallengeCardChosen" and e["payload"]["player"] == "blue"][-1]
    assert chosen["payload"]["seen_by"] is None  # public
    g.play("red", "A20")
    g.pass_windows()  # red could still use its power itself: it passes
    assert g.outcome["winner"] == "offense"


def test_chronos_replay_opens_the_window_before_cards_are_chosen_again():
    """14.12: in the replayed stage 7, what acts before cards are chosen (an edict any time, Laser,
    Trader, Mutant, Oracle's flares...) gets its window again."""
    g = red_attacks_blue("Chronos", "Filch", "Mind", {"red": RED, "blue": BLUE,
                                                     "yellow": ["Plague", "A6", "A6", "A7", "A8", "A8", "A12"]},
                         options={"edicts": True})
    to_cards(g)
    g.use("red", "power:Chronos")
    windows = [p for p in g.prompts() if p["kind"] == "window"]
    assert [(p["player"], p["info"]["window"]) for p in windows] == [("yellow", "planning")]
    assert "card:Plague.1" in g.abilities("yellow")
