"""Force Field (RULES.md 6): after alliances, remove any allies; their tokens go home."""

from engine.scenario import Scenario

PLAIN = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def field_game(red_hand, players=3):
    powers = {"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Mind"], "purple": ["Chronos"]}
    hands = {"red": red_hand, "blue": ["A10", "A11", "C", "C", "C", "C", "C"], "yellow": PLAIN, "purple": PLAIN}
    colors = ("red", "blue", "yellow", "purple")[:players]
    return Scenario(players=players, powers={c: powers[c] for c in colors},
                    hands={c: hands[c] for c in colors}, destiny=["blue.1"], first="red",
                    options={"edicts": True})


def asked_in(g, player, window):
    """Pass every timing window until ``player`` is asked in ``window``; that prompt."""
    for _ in range(200):
        owed = g.prompts()
        mine = [p for p in owed if p["player"] == player and p["kind"] == "window" and p["info"]["window"] == window]
        if mine:
            return mine[0]
        windows = [p for p in owed if p["kind"] in ("window", "response")]
        assert windows, f"{player} was never asked in the {window} window"
        g.command(windows[0]["player"], "pass")


def use_in(g, player, window, ability, args=None):
    """Use ``ability`` when ``player`` is asked in ``window``."""
    asked_in(g, player, window)
    return g.use(player, ability, args)


def test_force_field_removes_a_defensive_ally_and_turns_the_challenge():
    g = field_game(["ForceField", "A12", "A13", "A14", "A15", "A16", "A17"])
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 4})
    offer = next(o for o in asked_in(g, "red", "alliance")["options"] if o["action"] == "use")
    assert offer["args"]["allies"] == {"type": "subset", "values": ["yellow"], "min": 1, "max": 1}
    use_in(g, "red", "alliance", "card:ForceField", {"allies": ["yellow"]})
    # yellow's 4 tokens go back to its bases (yellow-0 emptied: four bases to choose from)
    g.place("yellow", {"yellow-1": 4})
    assert g.ch["allies"] == {}
    assert g.tokens("cone:defense") == {}
    assert g.tokens("yellow-1") == {"yellow": 8}
    g.play("red", "A12")
    g.play("blue", "A10")
    g.pass_windows()
    # 12 + 4 = 16 against 10 + 4 = 14; with yellow's 4 the defense would have won 18 to 16
    assert g.outcome["totals"] == {"offense": 16, "defense": 14}
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("yellow") == 0 and g.warp("blue") == 4
    assert "ForceField.1" in g.state["discard"]
    assert [e["payload"] for e in g.log if e["type"] == "AllyRemoved"] == [{"player": "yellow", "by": "red"}]


def test_force_field_may_remove_allies_of_both_sides_and_spare_others():
    # purple, a defensive ally itself, holds the Force Field
    g = Scenario(players=4, powers={"red": ["Filch"], "blue": ["Mutant"], "yellow": ["Mind"], "purple": ["Chronos"]},
                 hands={"red": PLAIN, "blue": ["A10", "A11", "C", "C", "C", "C", "C"],
                        "yellow": PLAIN, "purple": ["ForceField", "A12", "A13", "A14", "A15", "A16", "A17"]},
                 destiny=["blue.1"], first="red", options={"edicts": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", ["purple"])
    g.join("yellow", "offense", {"yellow-0": 3})
    g.join("purple", "defense", {"purple-0": 2})
    use_in(g, "purple", "alliance", "card:ForceField", {"allies": ["yellow"]})
    g.place("yellow", {"yellow-2": 3})
    assert g.ch["allies"] == {"purple": "defense"}
    assert g.tokens("cone:offense") == {"red": 2}
    assert g.tokens("cone:defense") == {"purple": 2}


def test_force_field_is_not_offered_without_allies():
    g = field_game(["ForceField", "A12", "A13", "A14", "A15", "A16", "A17"])
    g.launch({"red-0": 4}, "blue-2")
    g.invite_none()
    g.pass_windows()
    assert not [e for e in g.log if e["type"] == "CardPlayed"]
    assert "ForceField.1" in g.hand("red")
    assert g.owe("red", "challenge_card")
