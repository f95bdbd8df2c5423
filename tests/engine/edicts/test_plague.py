"""Plague (RULES.md 6; 004 with War cards): a chosen player loses 3 tokens and one card of each kind."""

from tests.engine.scenarios import red_attacks_blue

RED = ["Plague", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["A20", "C", "C", "C", "C", "C", "C"]


def plague_game(yellow_hand=("A18", "A19", "C", "C", "Quash", "StellarGas", "A11"), blue_hand=BLUE, war=False):
    return red_attacks_blue("Filch", "Mutant", "Mind",
                            {"red": RED, "blue": list(blue_hand), "yellow": list(yellow_hand)},
                            options={"edicts": True, "war_cards": war})


def use_in(g, player, window, ability, args=None):
    """Pass every timing window until ``player`` is asked in ``window``, then use ``ability`` there."""
    for _ in range(200):
        owed = g.prompts()
        if any(p["player"] == player and p["kind"] == "window" and p["info"]["window"] == window for p in owed):
            return g.use(player, ability, args)
        windows = [p for p in owed if p["kind"] in ("window", "response")]
        assert windows, f"{player} was never asked in the {window} window"
        g.command(windows[0]["player"], "pass")


def card_of(g, player, name):
    return next(c for c in g.hand(player) if c.split(".")[0] == name)


def test_plague_costs_three_tokens_of_the_victims_choice_and_one_card_of_each_kind():
    g = plague_game()
    g.use("red", "card:Plague", {"player": "yellow"})
    g.lose("yellow", {"yellow-0": 2, "yellow-3": 1})
    assert g.warp("yellow") == 3
    assert g.tokens("yellow-0") == {"yellow": 2} and g.tokens("yellow-3") == {"yellow": 3}
    # yellow chooses which Attack and which edict go; its two Compromises are alike: one goes
    prompt = g.owe("yellow", "plague_discards")
    assert sorted(prompt["options"][0]["args"]) == ["attack", "edict"]
    stellar = card_of(g, "yellow", "StellarGas")
    g.answer("yellow", "plague_discards", "discard", {"attack": "A19", "edict": stellar})
    names = sorted(c.split(".")[0] for c in g.hand("yellow"))
    assert names == ["A11", "A18", "C", "Quash"]
    assert {"A19", stellar, "Plague.1"} <= set(g.state["discard"])
    assert len([c for c in g.state["discard"] if c.startswith("C")]) == 1


def test_plague_strips_the_defense_of_its_only_attack_and_wins_the_challenge():
    g = plague_game()
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    # stage 7, before the cards are chosen: blue loses 3 tokens and its only Attack
    use_in(g, "red", "planning", "card:Plague", {"player": "blue"})
    g.lose("blue", {"blue-0": 3})
    assert sorted(g.state["discard"]) == ["A20.1", "C.1", "Plague.1"]
    assert sorted(c.split(".")[0] for c in g.hand("blue")) == ["C"] * 5
    g.play("red", "A4")
    g.play("blue", "C")
    g.pass_windows()
    # 4 + 4 against a Compromise: red wins, blue's 4 tokens on blue-2 go to the warp
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 3 + 4
    assert g.tokens("blue-0") == {"blue": 1}


def test_plague_with_war_cards_also_costs_one_war_card():
    g = plague_game(yellow_hand=("War", "War", "A18", "C", "A11", "A12", "A13"), war=True)
    g.use("red", "card:Plague", {"player": "yellow"})
    g.lose("yellow", {"yellow-4": 3})
    g.answer("yellow", "plague_discards", "discard", {"attack": "A13"})
    assert sorted(c.split(".")[0] for c in g.hand("yellow")) == ["A11", "A12", "A18", "War"]
    assert len([c for c in g.state["discard"] if c.startswith("War")]) == 1


def test_plague_asks_nothing_when_the_victim_has_no_choice():
    g = plague_game(yellow_hand=("A6", "C", "A6", "A6", "A6", "A6", "A6"))
    g.use("red", "card:Plague", {"player": "yellow"})
    g.lose("yellow", {"yellow-1": 3})
    # one Attack value and one Compromise: both go without a question
    assert not g.prompts("yellow") or g.prompts("yellow")[0]["kind"] != "plague_discards"
    assert sorted(c.split(".")[0] for c in g.hand("yellow")) == ["A6"] * 5


def test_plague_targets_other_players_only():
    g = plague_game()
    offer = next(o for o in g.options("red") if o["action"] == "use")
    assert offer["args"]["player"]["values"] == ["blue", "yellow"]
