"""Fodder (Fantasy Flight): after two Attacks are revealed, piles its in-between Attacks onto its own.

Red attacks blue-2 (4 blue ships) with two ships; yellow looks on.
"""

from engine.scenario import Scenario
from tests.engine.scenarios import offered

RED = ["A6", "A8", "A8", "A10", "A4", "A20", "N", "N"]
BLUE = ["A15", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A6", "A6"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}


def game(red="Fodder", yellow="Mind", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Sorcerer"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg", **kw)


def cards_named(g: Scenario, player: str, *names: str) -> list[str]:
    """Ids of cards of these kinds in a player's hand (one per name, in hand order)."""
    held, found = g.hand(player), []
    for name in names:
        found.append(next(c for c in held if c.split(".")[0] == name and c not in found))
    return found


def option_of(g: Scenario, player: str, ability: str) -> dict:
    """The option of ``ability`` once ``player`` is asked in a window where it is offered."""
    offered(g, player, ability)
    return next(o for o in g.options(player) if o.get("ability") == ability)


def reveal(g: Scenario, red_card: str, blue_card: str, red_ships: int = 2) -> None:
    g.launch({"red-0": red_ships}, "blue-2")
    g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)


def test_fodder_power_adds_the_attacks_between_its_card_and_its_opponents():
    g = game()
    reveal(g, "A6", "A15")
    power = option_of(g, "red", "power:Fodder")
    assert sorted(c.split(".")[0] for c in power["args"]["cards"]["values"]) == ["A10", "A8", "A8"]
    chosen = cards_named(g, "red", "A8", "A10")
    g.use("red", "power:Fodder", {"cards": chosen})
    assert set(chosen) <= set(g.state["discard"])
    outcome = g.resolved()
    # 6 + 8 + 10 + 2 ships = 26 against 15 + 4 ships = 19
    assert outcome["totals"] == {"offense": 26, "defense": 19} and outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2}


def test_fodder_power_is_not_offered_unless_both_reveal_attacks():
    g = game()
    reveal(g, "A6", "N")
    assert "power:Fodder" not in g.abilities("red")


def test_fodder_off_after_power_loss_the_defense_wins():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    reveal(g, "A6", "A15")
    assert "power:Fodder" not in g.abilities("red")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 19} and outcome["winner"] == "defense"


def test_fodder_off_when_a_cosmic_zap_cancels_its_use():
    g = game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A6", "A6"]})
    reveal(g, "A6", "A15")
    chosen = cards_named(g, "red", "A8", "A10")
    g.use("red", "power:Fodder", {"cards": chosen})
    g.use("yellow", "card:CosmicZap")
    assert set(chosen) <= set(g.hand("red"))  # nothing was discarded
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 19} and outcome["winner"] == "defense"


def wild_game(**kw) -> Scenario:
    """Yellow holds Fodder's flare; red plays Attack 10 with two ships, blue Attack 8 with four: 12 to 12."""
    hands = {"red": ["A10", "A8", "A8", "N", "A4", "A20", "N", "N"],
             "yellow": ["Flare:Fodder", "N", "N", "N", "A8", "A8", "A6", "A6"], **kw.pop("hands", {})}
    g = game(red="Trader", hands=hands, options={"flares": True}, **kw)
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.decline("yellow")
    g.play("red", "A10")
    g.play("blue", "A8")
    return g


def test_fodder_wild_joins_the_side_that_invited_it_after_the_reveal():
    g = wild_game()
    g.use("yellow", "card:Flare:Fodder", {"side": "offense", "planet": "yellow-0"})
    joined = [e["payload"] for e in g.log if e["type"] == "TokensMoved" and e["payload"]["reason"] == "Fodder Wild Flare"]
    assert joined == [{"moves": [["yellow", "yellow-0", "cone:offense", 1]], "reason": "Fodder Wild Flare"}]
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 13, "defense": 12} and outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2, "yellow": 1}  # the late ally lands with the offense


def test_fodder_wild_is_not_offered_to_a_player_who_was_not_invited():
    g = wild_game()
    flare = option_of(g, "yellow", "card:Flare:Fodder")
    assert flare["args"]["side"]["values"] == ["offense"]  # blue did not invite yellow


def test_fodder_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"blue": ["A8", "CardZap", "N", "N", "A6", "A6", "A15", "N"]})
    g.use("yellow", "card:Flare:Fodder", {"side": "offense", "planet": "yellow-0"})
    g.use("blue", "card:CardZap")
    assert g.ch["allies"] == {} and g.tokens("yellow-0") == {"yellow": 4}
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 12, "defense": 12} and outcome["winner"] == "defense"


def super_game(**kw) -> Scenario:
    hands = {"red": ["A10", "Flare:Fodder", "A4", "A6", "A8", "A12", "A20", "N"], **kw.pop("hands", {})}
    g = game(hands=hands, options={"flares": True}, **kw)
    return g


def test_fodder_super_adds_every_attack_below_the_opponents_whatever_its_own():
    g = super_game()
    reveal(g, "A10", "A15")
    power = option_of(g, "red", "power:Fodder")
    assert [c.split(".")[0] for c in power["args"]["cards"]["values"]] == ["A12"]  # without the Super
    g.use("red", "card:Flare:Fodder")
    power = option_of(g, "red", "power:Fodder")
    assert sorted(c.split(".")[0] for c in power["args"]["cards"]["values"]) == ["A12", "A4", "A6", "A8"]
    g.use("red", "power:Fodder", {"cards": cards_named(g, "red", "A4", "A6", "A8", "A12")})
    outcome = g.resolved()
    # 10 + 4 + 6 + 8 + 12 + 2 ships = 42 against 15 + 4 = 19
    assert outcome["totals"] == {"offense": 42, "defense": 19}


def test_fodder_super_off_while_the_power_is_zapped():
    g = super_game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A6", "A6"]})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Fodder"})
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A15")
    # the zapped Fodder's flare is a Wild (for a player who declined to ally): nothing for red now
    assert g.abilities("red") == []
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 12, "defense": 19} and outcome["winner"] == "defense"
