"""Void removes the tokens it defeats from the game; its flares cancel an edict or work as an ally."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]


def game(red_power="Void", blue_power="Filch", yellow_power="Mind", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, **(hands or {})}
    return red_attacks_blue(red_power, blue_power, yellow_power, stacked, **kw)


def attack_with_a_defensive_ally(g):
    """Red attacks blue-2 with three tokens; yellow defends with two; Attack 20 beats Attack 1."""
    g.launch({"red-0": 3}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 2})
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows()


def test_void_power_removes_the_whole_losing_side_from_the_game():
    g = game()
    attack_with_a_defensive_ally(g)
    assert g.outcome["winner"] == "offense"
    assert g.outcome["totals"] == {"offense": 23, "defense": 7}
    assert g.tokens("blue-2") == {"red": 3}
    assert g.state["removed"]["blue"] == 4 and g.state["removed"]["yellow"] == 2
    assert g.warp("blue") == 0 and g.warp("yellow") == 0


def test_void_power_is_not_escaped_by_zombie():
    g = game(blue_power="Zombie")
    attack_with_a_defensive_ally(g)
    assert g.state["removed"]["blue"] == 4
    assert g.tokens("blue-0") == {"blue": 4}


def test_void_power_does_nothing_when_void_loses():
    g = game(hands={"red": ["A1", "A4", "A5", "A6", "A7", "A9", "A10"], "blue": ["A20", "C", "C", "C", "C", "C", "C"]})
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A1")
    g.play("blue", "A20")
    g.pass_windows()
    assert g.resolved()["winner"] == "defense"
    assert g.warp("red") == 3
    assert g.state["removed"]["red"] == 0


def test_void_off_after_power_loss_the_losers_go_to_the_warp():
    # red keeps only red-0 and red-4 as home bases: fewer than three, Void does not work
    g = game(tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    g.regroup("red", None)
    attack_with_a_defensive_ally(g)
    assert g.outcome["winner"] == "offense"
    assert g.warp("blue") == 4 and g.warp("yellow") == 2
    assert g.state["removed"]["blue"] == 0 and g.state["removed"]["yellow"] == 0


def test_void_wild_cancels_the_cosmic_zap_that_would_have_stopped_macron():
    def play(with_flare):
        yellow = ["Flare:Void" if with_flare else "A10", "A4", "A5", "A6", "A7", "A8", "A9"]
        g = game(red_power="Macron", yellow_power="Mutant", options={"edicts": True, "flares": True},
                 hands={"red": ["A12", "A4", "A5", "A6", "A7", "A9", "A10"],
                        "blue": ["A11", "CosmicZap", "C", "C", "C", "C", "C"], "yellow": yellow})
        g.launch({"red-0": 1}, "blue-2")
        g.use("blue", "card:CosmicZap", {"target": "red:Macron"})
        if with_flare:
            g.use("yellow", "card:Flare:Void", {"token_from": "yellow-3"})
        g.invite_none()
        g.play("red", "A12")
        g.play("blue", "A11")
        g.pass_windows()
        return g

    zapped = play(False)  # Macron's token counts 1: 12 + 1 against 11 + 4
    assert zapped.resolved()["totals"] == {"offense": 13, "defense": 15}
    assert zapped.resolved()["winner"] == "defense"
    g = play(True)  # the zap is cancelled: Macron's token counts 4
    assert g.outcome["totals"] == {"offense": 16, "defense": 15}
    assert g.outcome["winner"] == "offense"
    assert g.ch["zapped"] == []
    assert {"CosmicZap.1", "Flare:Void"} <= set(g.state["discard"])
    # FFG's Wild has a price: one of yellow's tokens outside the challenge went to the warp
    assert g.tokens("yellow-3") == {"yellow": 3} and g.warp("yellow") == 1
    assert zapped.warp("yellow") == 0


def test_void_super_makes_void_remove_the_losers_as_an_ally():
    g = game(red_power="Mind", yellow_power="Void", options={"flares": True},
             hands={"yellow": ["Flare:Void", "A4", "A5", "A6", "A7", "A8", "A9"]})
    g.launch({"red-0": 3}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.use("yellow", "card:Flare:Void")
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows()
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3, "yellow": 1}
    assert g.state["removed"]["blue"] == 4
    assert g.warp("blue") == 0


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_void_ffg_never_brings_a_player_below_five_ships_the_rest_go_to_the_warp():
    from engine.scenario import Scenario

    # blue has 7 ships in the game: 4 defending blue-2, 3 on blue-0 (the setup sends its other 13 to the warp;
    # they are taken out of the game here, as earlier Void wins would have done)
    g = Scenario(players=3, powers={"red": ["Void"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A20", "A4", "A5", "A6"], "blue": ["A1", "N", "A8", "A11"]},
                 tokens={"blue-0": {"blue": 3}, "blue-1": {}, "blue-3": {}, "blue-4": {}},
                 destiny=["blue.1"], first="red", ruleset="ffg")
    assert g.warp("blue") == 13
    g.state["warp"]["blue"], g.state["removed"]["blue"] = 0, 13
    attack_with_a_defensive_ally(g)
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 3}
    # blue: 2 leave the game (7 - 2 = 5 left), 2 go to the warp; yellow (20 ships) loses its 2 for good
    assert g.state["removed"]["blue"] == 13 + 2 and g.warp("blue") == 2
    assert g.state["removed"]["yellow"] == 2 and g.warp("yellow") == 0


def test_void_ffg_removes_the_whole_losing_side_when_it_wins():
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Void"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A20", "A4", "A5", "A6"], "blue": ["A1", "N", "A8", "A11"]},
                 destiny=["blue.1"], first="red", ruleset="ffg")
    attack_with_a_defensive_ally(g)
    assert g.state["removed"] == {"red": 0, "blue": 4, "yellow": 2}
    assert g.warp("blue") == 0 and g.warp("yellow") == 0


def test_void_ffg_spares_a_loss_it_inflicts_beyond_the_encounter_the_cudgels_extra_ships_go_to_the_warp():
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Void", "Cudgel"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A20", "A4", "A5", "A6"], "blue": ["A1", "N", "A8", "A11"]},
                 destiny=["blue.1"], first="red", ruleset="ffg", options={"powers_per_player": 2})
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows(until_player="blue", until_kind="losses")
    g.lose("blue", {"blue-0": 3})  # Cudgel: as many more as red had in the encounter, of blue's choice
    g.pass_windows()
    # the 4 defenders leave the game (Void), Cudgel's 3 extra ships go to the warp (under mayfair: removed too)
    assert g.state["removed"]["blue"] == 4 and g.warp("blue") == 3
    assert g.tokens("blue-0") == {"blue": 1} and g.tokens("blue-2") == {"red": 3}
