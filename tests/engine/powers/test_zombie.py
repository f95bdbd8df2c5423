"""Zombie's tokens never stay in the warp; its flares save one token a loss, or bring allies' tokens back."""

from engine.scenario import kinds
from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]


def game(blue_power="Zombie", red_power="Mind", red_hand=RED, blue_hand=BLUE, yellow_hand=None, **kw):
    hands = {"red": red_hand, "blue": blue_hand}
    return red_attacks_blue(red_power, blue_power, "Mutant", hands, yellow_hand, **kw)


def lose_blue_2(g, blue_card="A1"):
    """Red attacks blue-2 (4 blue tokens) with four tokens and an Attack 20."""
    challenge(g, "A20", blue_card, red_tokens=4)
    g.pass_windows()


def test_zombie_power_sends_the_defeated_defense_home_instead_of_to_the_warp():
    g = game()
    lose_blue_2(g)
    assert g.outcome["winner"] == "offense"
    assert g.outcome["totals"] == {"offense": 24, "defense": 5}
    # the four Zombie tokens come back to a base of blue's choice, not to the warp
    g.place("blue", {"blue-0": 3, "blue-4": 1})
    assert g.warp("blue") == 0
    assert g.tokens("blue-2") == {"red": 4}
    assert g.tokens("blue-0") == {"blue": 7}
    assert g.tokens("blue-4") == {"blue": 5}


def test_zombie_power_still_takes_consolation_for_each_token_involved():
    g = game()
    lose_blue_2(g, blue_card="C")
    g.place("blue", {"blue-1": 4})
    assert g.warp("blue") == 0
    # a Compromise against an Attack: one card from red's hand per Zombie token in the challenge
    assert len(g.hand("red")) == 6 - 4
    assert len(g.hand("blue")) == 6 + 4


def test_zombie_off_after_power_loss_its_tokens_go_to_the_warp():
    # blue keeps only blue-0 and blue-2: fewer than three home bases, so Zombie does not work
    g = game(tokens={"blue-1": {}, "blue-3": {}, "blue-4": {}})
    assert g.warp("blue") == 12
    lose_blue_2(g)
    assert g.outcome["winner"] == "offense"
    assert g.warp("blue") == 16
    assert g.tokens("blue-0") == {"blue": 4}


def test_zombie_off_when_cosmic_zapped_for_the_challenge():
    g = game(yellow_hand=["CosmicZap"], options={"edicts": True})
    g.launch({"red-0": 4}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "blue:Zombie"})
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows()
    assert g.warp("blue") == 4
    assert g.tokens("blue-0") == {"blue": 4}


def test_zombie_wild_brings_one_token_of_the_loss_back_to_a_base():
    g = game(blue_power="Filch", blue_hand=["A1", "Flare:Zombie", "C", "C", "C", "C", "C"],
             options={"flares": True})
    g.launch({"red-0": 4}, "blue-2")
    g.use("blue", "card:Flare:Zombie")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.place("blue", {"blue-3": 1})
    assert g.warp("blue") == 3
    assert g.tokens("blue-3") == {"blue": 5}
    assert "Flare:Zombie" in g.state["discard"]


def test_zombie_super_brings_an_allys_token_from_the_warp_into_the_challenge():
    def play(with_flare):
        g = game(blue_power="Filch", red_power="Zombie",
                 red_hand=["A10", "Flare:Zombie", "A4", "A5", "A6", "A7", "A9"],
                 blue_hand=["A9", "C", "C", "C", "C", "C", "C"],
                 options={"flares": True}, tokens={"yellow-4": {}})
        assert g.warp("yellow") == 4
        g.launch({"red-0": 2}, "blue-2")
        g.invite("red", ["yellow"])
        g.invite("blue", [])
        g.join("yellow", "offense", {"yellow-0": 1})
        if with_flare:
            g.use("red", "card:Flare:Zombie")
            assert g.tokens("cone:offense") == {"red": 2, "yellow": 2}
        g.play("red", "A10")
        g.play("blue", "A9")
        g.pass_windows()
        return g

    # without the flare 10 + 3 tokens ties 9 + 4: the defense wins ties
    plain = play(False)
    assert plain.outcome["totals"] == {"offense": 13, "defense": 13}
    assert plain.outcome["winner"] == "defense"
    # with it yellow brings a fourth token from the warp: 14 against 13
    g = play(True)
    assert g.outcome["totals"] == {"offense": 14, "defense": 13}
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2, "yellow": 2}
    assert g.warp("yellow") == 3


def test_a_losing_zombie_cannot_send_its_tokens_home_to_the_planet_it_just_lost():
    """14.8: the tokens leave the lost planet first; they return only to bases the Zombie still holds."""
    g = game()
    lose_blue_2(g)
    owed = g.owe("blue", "place_tokens")
    assert sorted(owed["options"][0]["args"]["tokens"]["sources"]) == ["blue-0", "blue-1", "blue-3", "blue-4"]


def test_a_zombie_with_three_home_bases_sends_the_lost_planets_tokens_to_the_other_two():
    three_bases = {"blue-3": {}, "blue-4": {}}
    g = game(tokens=three_bases)
    lose_blue_2(g)
    owed = g.owe("blue", "place_tokens")
    assert sorted(owed["options"][0]["args"]["tokens"]["sources"]) == ["blue-0", "blue-1"]
    g.place("blue", {"blue-0": 4})
    assert g.tokens("blue-2") == {"red": 4}
    assert g.tokens("blue-0") == {"blue": 8} and g.tokens("blue-1") == {"blue": 4}


def test_zombie_wild_brings_nothing_back_from_the_reverse_warps_fan():
    """002: tokens on the fan are inaccessible to the players (14.19)."""
    g = game(blue_power="Filch", blue_hand=["A1", "Flare:Zombie", "C", "C", "C", "C", "C"],
             options={"flares": True, "reverse_warp": True})
    g.launch({"red-0": 4}, "blue-2")
    g.use("blue", "card:Flare:Zombie")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A1")
    g.pass_windows()
    assert g.tokens("fan:red") == {"blue": 4}
    assert not [p for p in g.prompts("blue") if p["kind"] == "place_tokens"]


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_negotiation(red_power):
    """An ffg game: red attacks blue-2, both play Negotiates; blue has 4 ships in the warp."""
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": [red_power], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["N", "A4"], "blue": ["N", "A6", "A7"]}, exact_hands=True,
                 tokens={"blue-4": {}}, destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    return g


def test_zombie_ffg_a_deal_frees_ships_from_the_warp():
    from engine.scenario import terms

    g = ffg_negotiation("Zombie")
    assert g.warp("blue") == 4
    g.propose("red", {**terms(defense_gives={"count": 1}), "freed": {"blue": 3}})
    g.accept("blue", 1)
    g.pass_windows()
    g.place("blue", {"blue-0": 1, "blue-1": 2})  # blue puts its freed ships on its colonies
    g.pass_windows()
    g.give("blue", [next(c for c in g.hand("blue") if c.startswith("A6"))])
    assert [e["payload"]["made"] for e in g.log if e["type"] == "DealConcluded"] == [True]
    assert g.warp("blue") == 1 and g.tokens("blue-0") == {"blue": 5} and g.tokens("blue-1") == {"blue": 6}
    assert kinds(g.hand("red")) == ["A4", "A6"]


def test_zombie_ffg_without_the_zombie_a_deal_frees_nobody():
    import pytest

    from engine.errors import RulesError
    from engine.scenario import terms

    g = ffg_negotiation("Clone")
    with pytest.raises(RulesError, match="free ships from the warp"):
        g.propose("red", {**terms(defense_gives={"count": 1}), "freed": {"blue": 3}})
