"""Reserve (Fantasy Flight): low Attack cards serve it as reinforcements; a Negotiate cancels another's.

Red attacks blue-2 (4 blue ships) with two ships: Attack 6 against Attack 10, 8 to 14 before any
reinforcement. Reinforcement cards are in the deck.
"""

from engine.scenario import Scenario
from tests.engine.scenarios import offered

RED = ["A6", "A4", "A5", "A6", "A8", "N", "N", "N"]
BLUE = ["A10", "R+5", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A6", "A4"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}


def game(red="Reserve", yellow="Mind", hands=None, options=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Spiff"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg",
                    options={"reinforcements": True, **(options or {})}, **kw)


def reveal(g: Scenario) -> None:
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A6")
    g.play("blue", "A10")


def held(g: Scenario, player: str, name: str) -> str:
    return next(c for c in g.hand(player) if c.split(".")[0] == name)


def reserve_values(g: Scenario) -> list[str]:
    offered(g, "red", "power:Reserve")
    option = next(o for o in g.options("red") if o.get("ability") == "power:Reserve")
    return sorted(c.split(".")[0] for c in option["args"]["card"]["values"])


def test_reserve_power_plays_attacks_of_06_or_less_as_reinforcements():
    g = game()
    reveal(g)
    assert reserve_values(g) == ["A4", "A5", "A6"]  # the Attack 8 is too high
    four, five = held(g, "red", "A4"), held(g, "red", "A5")
    g.use("red", "power:Reserve", {"card": four, "side": "offense"})
    g.use("red", "power:Reserve", {"card": five, "side": "offense"})
    outcome = g.resolved()
    # 6 + 2 ships + 4 + 5 = 17 against 10 + 4 ships = 14
    assert outcome["totals"] == {"offense": 17, "defense": 14} and outcome["winner"] == "offense"
    g.pass_windows()
    assert {four, five} <= set(g.state["discard"])  # discarded with the encounter's cards


def test_reserve_power_discards_a_negotiate_to_cancel_another_players_reinforcement():
    g = game()
    reveal(g)
    g.use("blue", "card:R+5", {"side": "defense"})
    negotiate = held(g, "red", "N")
    g.use("red", "power:Reserve", {"negotiate": negotiate})  # red answers blue's reinforcement
    assert {"R+5", negotiate} <= set(g.state["discard"])
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 14}  # the +5 counts for nothing


def test_reserve_off_after_power_loss_no_attack_reinforces_and_no_reinforcement_is_cancelled():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    reveal(g)
    assert "power:Reserve" not in g.abilities("red")
    g.use("blue", "card:R+5", {"side": "defense"})
    assert not any(p["player"] == "red" and p["kind"] == "response" for p in g.prompts())
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 19} and outcome["winner"] == "defense"


def test_reserve_off_when_a_cosmic_zap_cancels_an_attack_played_as_reinforcement():
    g = game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A6", "A4"]})
    reveal(g)
    five = held(g, "red", "A5")
    g.use("red", "power:Reserve", {"card": five, "side": "offense"})
    g.use("yellow", "card:CosmicZap")
    assert five in g.hand("red")
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 14}


def wild_game(**kw) -> Scenario:
    """Yellow holds Reserve's flare (no Reserve in the game); blue reinforces its side with a +5."""
    hands = {"yellow": ["A10", "Flare:Reserve", "N", "N", "A8", "A8", "A6", "A4"], **kw.pop("hands", {})}
    g = game(red="Trader", hands=hands, options={"flares": True}, **kw)
    reveal(g)
    g.use("blue", "card:R+5", {"side": "defense"})
    return g


def test_reserve_wild_takes_the_reinforcement_another_player_discards():
    g = wild_game()
    assert g.resolved()["totals"] == {"offense": 8, "defense": 19}
    owed = g.owe("yellow", "reaction")  # stage 9: blue's +5 goes to the discard pile
    assert owed["info"]["card"] == "Flare:Reserve"
    g.answer("yellow", "reaction", "use", {"cards": ["R+5"]}, ability="card:Flare:Reserve")
    assert "R+5" in g.hand("yellow") and "R+5" not in g.state["discard"]
    assert "Flare:Reserve" in g.hand("yellow")


def test_reserve_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"red": ["A6", "CardZap", "A5", "A6", "A8", "N", "N", "N"]})
    g.resolved()
    g.answer("yellow", "reaction", "use", {"cards": ["R+5"]}, ability="card:Flare:Reserve")
    g.use("red", "card:CardZap")
    assert "R+5" in g.state["discard"] and "R+5" not in g.hand("yellow")


def test_reserve_super_lets_one_attack_of_up_to_09_reinforce():
    g = game(hands={"red": ["A6", "Flare:Reserve", "A5", "A8", "A8", "N", "N", "N"]}, options={"flares": True})
    reveal(g)
    assert reserve_values(g) == ["A5"]
    g.use("red", "card:Flare:Reserve")
    assert reserve_values(g) == ["A5", "A8", "A8"]
    eight = held(g, "red", "A8")
    g.use("red", "power:Reserve", {"card": eight, "side": "offense"})
    assert reserve_values(g) == ["A5"]  # one Attack above 06 only
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 16, "defense": 14} and outcome["winner"] == "offense"


def test_reserve_super_off_while_the_power_is_zapped():
    hands = {"red": ["A6", "Flare:Reserve", "A5", "A8", "A8", "N", "N", "N"],
             "yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A6", "A4"]}
    g = game(hands=hands, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.use("yellow", "card:CosmicZap", {"target": "red:Reserve"})
    g.invite_none()
    g.play("red", "A6")
    g.play("blue", "A10")
    assert g.abilities("red") == []  # neither the power nor the Super (a Wild now, played only on a discard)
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 8, "defense": 14} and outcome["winner"] == "defense"
