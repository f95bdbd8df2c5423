"""Emotion Control (RULES.md 6; 004): after the reveal every Attack, and every War card, becomes a Compromise."""

from engine.scenario import terms
from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A10", "C", "A11", "A12", "A13", "A14", "A15"]
CONTROL = ["EmotionControl", "A16", "A17", "A18", "A19", "A30", "A40"]


def control_game(war=False, yellow_hand=CONTROL):
    return red_attacks_blue("Filch", "Mutant", "Mind",
                            {"red": (["War"] + RED[1:]) if war else RED, "blue": BLUE, "yellow": yellow_hand},
                            options={"edicts": True, "war_cards": war})


def test_emotion_control_turns_two_attacks_into_a_deal():
    g = control_game()
    challenge(g, "A20", "A10")
    g.use("yellow", "card:EmotionControl")
    g.pass_windows()
    # red's 20 + 3 would have beaten 10 + 4; now both are Compromises: the main players must deal
    assert g.outcome["kind"] == "deal"
    assert g.outcome["cards"] == {"offense": "compromise", "defense": "compromise"}
    g.propose("red", terms(defense_gives={"count": 1}))
    g.accept("blue", 1)
    g.answer("blue", "give_cards", "give", {"cards": ["A11.1"]})
    assert "A11.1" in g.hand("red")
    assert g.tokens("blue-2") == {"blue": 4}
    assert "EmotionControl.1" in g.state["discard"]


def test_emotion_control_takes_an_attacks_win_away_from_a_compromise():
    g = control_game()
    challenge(g, "A20", "C")
    g.use("yellow", "card:EmotionControl")
    g.pass_windows()
    assert g.outcome["kind"] == "deal"
    g.give_up("red")
    g.give_up("blue")
    # no deal: each loses 3 of its choice instead of blue losing its planet
    g.lose("red", {"cone:offense": 3})
    g.lose("blue", {"blue-0": 3})
    assert g.warp("red") == 3 and g.warp("blue") == 3
    assert g.tokens("blue-2") == {"blue": 4}


def test_emotion_control_with_war_cards_turns_a_war_card_into_a_compromise():
    g = control_game(war=True)
    challenge(g, "War", "A10")
    g.use("yellow", "card:EmotionControl")
    g.pass_windows()
    # the War would have won outright; now it is a Compromise against a Compromise
    assert g.outcome["cards"] == {"offense": "compromise", "defense": "compromise"}
    assert g.outcome["kind"] == "deal"


def test_emotion_control_is_offered_only_when_an_attack_or_a_war_card_is_revealed():
    g = control_game(war=True)
    challenge(g, "War", "C")
    assert g.abilities("yellow") == ["card:EmotionControl.1"]  # the War card would be turned
    g = red_attacks_blue("Filch", "Mutant", "Mind",
                         {"red": ["C", "A4", "A5", "A6", "A7", "A8", "A9"], "blue": BLUE, "yellow": CONTROL},
                         options={"edicts": True})
    challenge(g, "C", "C")
    # two Compromises: nothing to turn, yellow is not asked and the deal begins
    assert g.abilities("yellow") == []
    assert g.prompts("red")[0]["kind"] == "deal"
