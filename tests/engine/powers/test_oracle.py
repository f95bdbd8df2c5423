"""Oracle sees the opponent's card first; its flares mix two hands or pick the opponent's card."""

from engine import cards
from tests.engine.scenarios import last_outcome, red_attacks_blue

RED_HAND = ["A15", "A8", "A4", "A5", "A6", "A7", "C"]
BLUE_HAND = ["A20", "A1", "C", "C", "C", "C", "C"]


def game(blue_power="Oracle", red_power="Filch", red_hand=RED_HAND, blue_hand=BLUE_HAND, **kw):
    yellow = "Oracle" if "Oracle" not in (red_power, blue_power) else "Mutant"
    return red_attacks_blue(red_power, blue_power, yellow, {"red": red_hand, "blue": blue_hand}, **kw)


def chosen_events(g):
    return [e["payload"] for e in g.log if e["type"] == "ChallengeCardChosen"]


def test_oracle_power_makes_the_offense_commit_face_up_first_and_the_oracle_answers():
    g = game()
    g.launch({"red-0": 4}, "blue-0")
    g.invite_none()
    g.pass_windows()
    owed = [(p["player"], p["kind"]) for p in g.prompts()]
    assert owed == [("red", "challenge_card")]  # blue waits for red's card
    assert g.prompts("red")[0]["info"]["face_up"] is True
    g.play("red", "A15")
    assert chosen_events(g)[-1]["seen_by"] is None  # everyone sees red's Attack 15
    g.play("blue", "A20")  # knowing it, blue answers with its Attack 20
    assert last_outcome(g)["totals"] == {"offense": 19, "defense": 24}
    assert last_outcome(g)["winner"] == "defense"
    assert g.tokens("blue-0") == {"blue": 4} and g.warp("red") == 4


def test_oracle_off_after_power_loss_both_choose_secretly_at_once():
    lost = {"blue-1": {}, "blue-2": {}, "blue-3": {}}
    g = game(tokens=lost)
    g.launch({"red-0": 4}, "blue-0")
    g.invite_none()
    g.pass_windows()
    owed = sorted((p["player"], p["kind"], p["info"]["face_up"]) for p in g.prompts())
    assert owed == [("blue", "challenge_card", False), ("red", "challenge_card", False)]
    g.play("red", "A15")
    assert chosen_events(g)[-1]["seen_by"] == ["red"]
    g.play("blue", "A1")
    assert g.outcome["winner"] == "offense"


def test_oracle_wild_mixes_both_hands_and_deals_them_back():
    red_hand = ["Flare:Oracle", "C", "C", "C", "C", "C", "C"]
    blue_hand = ["A20", "A30", "A40", "A12", "A13", "A14", "A15"]
    g = game(blue_power="Clone", red_hand=red_hand, blue_hand=blue_hand, options={"flares": True})
    g.launch({"red-0": 4}, "blue-0")
    g.invite_none()
    before = sorted(g.hand("red") + g.hand("blue"))
    g.use("red", "card:Flare:Oracle")
    red_now, blue_now = g.hand("red"), g.hand("blue")
    assert (len(red_now), len(blue_now)) == (6, 7)  # as many cards as each held
    assert sorted(red_now + blue_now) == [c for c in before if c != "Flare:Oracle"]
    moves = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Oracle Wild Flare"]
    assert moves and all(m["seen_by"] == ["blue", "red"] for m in moves)
    # red held nothing but Compromises; now it holds some of blue's Attacks and blue some Compromises
    assert any(cards.kind(c) == "attack" for c in red_now)
    assert any(cards.kind(c) == "compromise" for c in blue_now)
    g.play("red", max((c for c in red_now if cards.kind(c) == "attack"), key=cards.attack_value))
    assert len(g.state["committed"]["offense"]) == 1


def test_oracle_super_picks_the_opponents_card_from_its_hand():
    red_hand = ["Flare:Oracle", "A8", "A4", "A5", "A6", "A7", "C"]
    g = game(blue_power="Clone", red_power="Oracle", red_hand=red_hand, options={"flares": True})
    g.launch({"red-0": 4}, "blue-0")
    g.invite_none()
    g.use("red", "card:Flare:Oracle")
    revealed = [e["payload"] for e in g.log if e["type"] == "HandRevealed"]
    assert revealed[-1]["player"] == "blue" and revealed[-1]["to"] == ["red"]
    pick = g.owe("red", "oracle_pick")
    assert sorted(pick["options"][0]["args"]["card"]["values"]) == sorted(g.hand("blue"))
    g.answer("red", "oracle_pick", "pick", {"card": "A1"})
    assert g.state["committed"]["defense"] == ["A1"]
    assert chosen_events(g)[-1] == {"player": "blue", "side": "defense", "card": "A1", "seen_by": None}
    g.pass_windows()
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("red", "challenge_card")]  # blue chooses nothing
    g.play("red", "A8")
    assert g.outcome["totals"] == {"offense": 12, "defense": 5}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-0") == {"red": 4}
