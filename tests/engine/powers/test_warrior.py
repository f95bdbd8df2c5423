"""Warrior: +1 per challenge won and +2 per challenge lost so far as a main player (RULES.md 6)."""

from engine.scenario import Scenario

RED_HAND = ["A6", "A9", "A8", "A4", "A5", "A7", "Flare:Warrior"]
BLUE_HAND = ["A10", "A10", "C", "C", "C", "C", "C"]
YELLOW_HAND = ["A8", "A4", "A5", "A6", "A7", "A9", "C"]


def scenario(red_power="Warrior", yellow_power="Mind", second_defense="red", **kw):
    """Red attacks blue first; then blue, on its turn, attacks ``second_defense``."""
    return Scenario(players=3, powers={"red": [red_power], "blue": ["Filch"], "yellow": [yellow_power]},
                    hands={"red": RED_HAND, "blue": BLUE_HAND, "yellow": YELLOW_HAND},
                    destiny=["blue.1", f"{second_defense}.1"], first="red", options={"flares": True}, **kw)


def red_loses_a_challenge(g):
    """Red's turn: one red token against blue-2, Attack 6 against Attack 10: red loses."""
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A6")
    g.play("blue", "A10")
    assert g.resolved()["winner"] == "defense"
    assert g.state["record"]["red"] == {"won": 0, "lost": 1}


def blue_attacks_red_1(g):
    """Blue's turn: four blue tokens against red-1 (4 red tokens), Attack 10 against red's Attack 9."""
    g.launch({"blue-0": 4}, "red-1", player="blue")
    g.invite_none()
    g.play("blue", "A10")
    g.play("red", "A9")


def test_warrior_power_adds_two_for_a_lost_challenge_and_wins_the_next():
    g = scenario()
    red_loses_a_challenge(g)
    blue_attacks_red_1(g)
    outcome = g.resolved()
    # 9 + 4 + 2 experience = 15 against 10 + 4 = 14 (without the power red would lose 13 to 14)
    assert outcome["totals"] == {"offense": 14, "defense": 15}
    assert outcome["winner"] == "defense"
    assert g.tokens("red-1") == {"red": 4}
    assert g.warp("blue") == 4
    assert g.state["record"]["red"] == {"won": 1, "lost": 1}


def test_warrior_power_adds_one_for_a_won_challenge():
    g = Scenario(players=3, powers={"red": ["Warrior"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A9", "A8", "A4", "A5", "A6", "A7", "A10"], "blue": ["A4", "C", "C", "C", "C", "C", "C"],
                        "yellow": ["A5", "A6", "A7", "A8", "A9", "C", "C"]},
                 destiny=["blue.1", "yellow.1"], first="red")
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.play("red", "A9")
    g.play("blue", "A4")
    assert g.resolved()["totals"] == {"offense": 13, "defense": 8}  # no experience yet
    g.challenge_again()
    g.launch({"red-1": 1}, "yellow-1")
    g.invite_none()
    g.play("red", "A8")
    g.play("yellow", "A5")
    outcome = g.resolved()
    # 8 + 1 + 1 for the won challenge = 10 against 5 + 4 = 9 (a tie, lost by the offense, without the power)
    assert outcome["totals"] == {"offense": 10, "defense": 9}
    assert outcome["winner"] == "offense"
    assert g.tokens("yellow-1") == {"red": 1}
    assert g.state["record"]["red"] == {"won": 2, "lost": 0}


def test_warrior_off_by_power_loss():
    g = scenario(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps red-0 and red-1 only
    g.regroup("red", None)
    red_loses_a_challenge(g)
    blue_attacks_red_1(g)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 14, "defense": 13}
    assert outcome["winner"] == "offense"
    assert g.tokens("red-1") == {"blue": 4}


def test_warrior_wild_adds_the_players_own_experience():
    g = scenario(red_power="Mind", yellow_power="Warrior")
    red_loses_a_challenge(g)
    blue_attacks_red_1(g)
    g.use("red", "card:Flare:Warrior")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 14, "defense": 15}
    assert outcome["winner"] == "defense"
    assert "Flare:Warrior" in g.state["discard"]


def test_warrior_super_adds_the_experience_as_an_ally():
    g = scenario(second_defense="yellow")
    red_loses_a_challenge(g)
    g.launch({"blue-0": 4}, "yellow-1", player="blue")
    g.invite("blue", [])
    g.invite("yellow", ["red"])
    g.join("red", "defense", {"red-1": 1})
    g.use("red", "card:Flare:Warrior")
    g.play("blue", "A10")
    g.play("yellow", "A8")
    outcome = g.resolved()
    # yellow 8 + 4, red's ally token 1, red's experience 2: 15 against 14 (13 without the Super)
    assert outcome["totals"] == {"offense": 14, "defense": 15}
    assert outcome["winner"] == "defense"
    assert g.tokens("yellow-1") == {"yellow": 4}
    assert g.warp("blue") == 4


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_negotiated():
    """An ffg game: red (Warrior) attacks blue-2 with 1 ship; both play Negotiates."""
    g = Scenario(players=3, powers={"red": ["Warrior"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["N", "A4", "A5"], "blue": ["N", "A10", "A7", "A1"]}, exact_hands=True,
                 destiny=["blue.1", "blue.2"], first="red", ruleset="ffg")
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    return g


def test_warrior_ffg_a_deal_made_counts_one_in_its_next_encounter():
    from engine.scenario import terms

    g = ffg_negotiated()
    g.propose("blue", terms(defense_gives={"count": 1}))
    g.accept("red", 1)
    g.pass_windows()
    g.give("blue", [next(c for c in g.hand("blue") if c.startswith("A7"))])
    assert g.state["notes"]["red"]["warrior_deals"] == {"made": 1, "failed": 0}
    assert g.state["record"]["red"] == {"won": 0, "lost": 0}
    g.place("red", {"red-0": 1})  # its ship comes home from the gate
    g.challenge_again()
    g.launch({"red-1": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    # 4 + 1 ship + 1 for the deal made (Mayfair reading: a deal teaches nothing) against 10 + 4
    assert g.resolved()["totals"] == {"offense": 6, "defense": 14}


def test_warrior_ffg_a_failed_deal_counts_two():
    g = ffg_negotiated()
    g.give_up("red")
    g.give_up("blue")
    g.lose("red", {"red-1": 3})
    g.lose("blue", {"blue-3": 3})
    assert g.state["notes"]["red"]["warrior_deals"] == {"made": 0, "failed": 1}
    from engine.powers.warrior import experience

    assert experience(g.state, "red") == 2 and experience(g.state, "blue") == 0
