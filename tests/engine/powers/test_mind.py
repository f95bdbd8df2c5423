"""Mind: between the launch and the choice of cards, look at another player's whole hand."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A8", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A20", "C", "C", "C", "C", "C", "C"]
YELLOW = ["A11", "A12", "C", "C", "C", "C", "C"]


def mind_game(red_power="Mind", red_hand=None, options=None, **kw):
    """Red attacks blue-2; yellow holds Mind when red does not (so its flare is in the deck)."""
    yellow_power = "Mind" if red_power != "Mind" else "Filch"
    return red_attacks_blue(red_power, "Mutant", yellow_power,
                            {"red": red_hand or RED, "blue": BLUE, "yellow": YELLOW}, options=options, **kw)


def revealed(g):
    """``(whose hand, to whom, cards)`` for every hand shown so far."""
    return [(e["payload"]["player"], e["payload"]["to"], e["payload"]["cards"])
            for e in g.log if e["type"] == "HandRevealed"]


def test_mind_power_reads_the_defenses_hand_and_sees_the_attack_20_coming():
    g = mind_game()
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "power:Mind", {"player": "blue"})
    assert revealed(g) == [("blue", ["red"], g.hand("blue"))]
    assert "A20.1" in revealed(g)[0][2]
    # knowing blue holds a 20, red commits as little as it can: the loss costs it one token, not four
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A20")
    assert g.outcome["winner"] == "defense"
    assert g.warp("red") == 1


def test_mind_off_after_power_loss_nothing_is_seen():
    lost = {"red-1": {}, "red-2": {}, "red-3": {}}
    g = mind_game(tokens=lost)
    g.regroup("red", None)
    g.launch({"red-0": 1}, "blue-2")
    assert "power:Mind" not in g.abilities("red")
    g.pass_windows()
    assert revealed(g) == []


def test_mind_off_when_a_cosmic_zap_cancels_the_look():
    yellow = ["CosmicZap", "A11", "A12", "C", "C", "C", "C"]
    g = red_attacks_blue("Mind", "Mutant", "Filch", {"red": RED, "blue": BLUE, "yellow": yellow},
                         options={"edicts": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "power:Mind", {"player": "blue"})
    g.use("yellow", "card:CosmicZap")
    g.pass_windows()
    assert revealed(g) == []


def test_mind_wild_reads_one_hand_for_another_player():
    g = mind_game(red_power="Filch", red_hand=["Flare:Mind", "A8", "A4", "A5", "A6", "A7", "A9"],
                  options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "card:Flare:Mind", {"player": "yellow"})
    assert revealed(g) == [("yellow", ["red"], g.hand("yellow"))]
    assert "Flare:Mind" in g.state["discard"]


def test_mind_super_reads_every_other_hand_at_once():
    g = mind_game(red_hand=["Flare:Mind", "A8", "A4", "A5", "A6", "A7", "A9"], options={"flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "card:Flare:Mind")
    assert revealed(g) == [("blue", ["red"], g.hand("blue")), ("yellow", ["red"], g.hand("yellow"))]
    # the power itself is still unused this challenge
    assert "power:Mind" in g.abilities("red")


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_mind_game():
    """An ffg game of four: red attacks blue-2; yellow (Mind) takes no part in the encounter."""
    from engine.scenario import Scenario

    return Scenario(players=4, powers={"red": ["Filch"], "blue": ["Clone"], "yellow": ["Mind"], "green": ["Mutant"]},
                    hands={"red": ["A8", "A4", "N", "A5"], "blue": ["A20", "N", "N", "A1"]},
                    destiny=["blue.1"], first="red", ruleset="ffg")


def test_mind_ffg_a_player_outside_the_encounter_reads_a_main_players_hand_before_allies_are_invited():
    g = ffg_mind_game()
    g.launch({"red-0": 1}, "blue-2")
    offer = next(o for o in g.options("yellow") if o.get("ability") == "power:Mind")
    assert offer["args"]["player"]["values"] == ["red", "blue"]  # main players only: not green
    g.use("yellow", "power:Mind", {"player": "blue"})
    g.pass_windows()  # nobody zaps it
    assert revealed(g) == [("blue", ["yellow"], g.hand("blue"))]
    assert [p["kind"] for p in g.prompts("red")] == ["invite"]  # the invitations come after


def test_mind_ffg_as_a_main_player_reads_only_its_opponent():
    from engine.scenario import Scenario

    g = Scenario(players=4, powers={"red": ["Mind"], "blue": ["Clone"], "yellow": ["Filch"], "green": ["Mutant"]},
                 hands={"red": ["A8", "A4", "N", "A5"], "blue": ["A20", "N", "N", "A1"], "yellow": ["A6"],
                        "green": ["A7"]}, exact_hands=True, destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 1}, "blue-2")
    offer = next(o for o in g.options("red") if o.get("ability") == "power:Mind")
    assert offer["args"]["player"]["values"] == ["blue"]
    g.pass_windows()  # red lets the moment go: after the invitations it is too late (Mayfair: up to stage 7)
    from engine.usable import window_options

    assert [p["kind"] for p in g.prompts("red")] == ["invite"]
    assert not [o for w in ("alliance", "planning") for o in window_options(g.state, "red", w)
                if o.get("ability") == "power:Mind"]
