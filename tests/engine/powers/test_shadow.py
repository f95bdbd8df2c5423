"""Shadow (Fantasy Flight): whenever destiny points at another player, one of its ships goes to the warp.

Red is the offense and draws blue's colour (``blue.1``): it attacks blue-2 (4 blue ships) with two ships.
"""

from engine.scenario import Scenario

RED = ["A10", "A20", "N", "N", "A4", "A4", "A6", "A6"]
BLUE = ["A8", "N", "N", "N", "A6", "A6", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
POWER_LOST = {"yellow-1": {}, "yellow-2": {}, "yellow-3": {}}


def game(red="Mind", blue="Spiff", yellow="Shadow", hands=None, destiny=("blue.1",), **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": [blue], "yellow": [yellow]}, hands=stacked,
                    destiny=list(destiny), first="red", ruleset="ffg", **kw)


def attack_blue_2(g: Scenario, red_card: str = "A10", blue_card: str = "A8") -> dict:
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", red_card)
    g.play("blue", blue_card)
    return g.resolved()


def executions(g: Scenario) -> list[list]:
    return [m for e in g.log if e["type"] == "TokensMoved" and e["payload"]["reason"] == "Shadow"
            for m in e["payload"]["moves"]]


def test_shadow_power_executes_a_ship_of_the_colour_drawn_and_turns_the_encounter():
    g = game()
    owed = g.owe("yellow", "execute")
    assert [o.get("target") for o in owed["options"]] == ["blue"]  # mandatory: no "decline"
    assert owed["options"][0]["args"]["planet"]["values"] == [f"blue-{k}" for k in range(5)]
    g.answer("yellow", "execute", "execute", {"planet": "blue-2"}, target="blue")
    assert executions(g) == [["blue", "blue-2", "warp", 1]] and g.warp("blue") == 1
    outcome = attack_blue_2(g)
    # 10 + 2 ships = 12 against 8 + the 3 ships left on blue-2 = 11 (12 to 12 would have been the defense's)
    assert outcome["totals"] == {"offense": 12, "defense": 11} and outcome["winner"] == "offense"


def test_shadow_power_a_wild_destiny_card_lets_it_execute_any_other_players_ship_or_none():
    g = game(destiny=("wild.1",))
    owed = g.owe("yellow", "execute")
    assert sorted(o.get("target") or o["action"] for o in owed["options"]) == ["blue", "decline", "red"]
    g.answer("yellow", "execute", "execute", {"planet": "red-1"}, target="red")
    assert executions(g) == [["red", "red-1", "warp", 1]]


def test_shadow_power_executes_a_ship_of_the_offense_that_draws_its_own_colour():
    """Any other player's colour counts, the offense's own included: red draws red (and, with nothing else to
    do, draws again at once), then blue."""
    g = game(destiny=("red.1", "blue.1"))
    g.answer("yellow", "execute", "execute", {"planet": "red-3"}, target="red")
    assert executions(g) == [["red", "red-3", "warp", 1]]
    # blue's colour comes up next: blue loses a ship too
    g.answer("yellow", "execute", "execute", {"planet": "blue-1"}, target="blue")
    assert executions(g) == [["red", "red-3", "warp", 1], ["blue", "blue-1", "warp", 1]]


def test_shadow_power_spares_its_own_colour():
    g = game(destiny=("yellow.1",))
    g.owe("red", "launch")
    assert executions(g) == [] and not any(p["kind"] == "execute" for p in g.asked)


def test_shadow_power_a_special_destiny_card_executes_the_player_it_designates():
    """The special card naming whoever holds the most cards: blue and yellow hold 8 each, a tie settled by
    seating (blue sits at the offense's left: RULES.md 9); then blue loses a ship (its lone ship on blue-4)."""
    g = game(destiny=("inst:most-cards",), tokens={"blue-4": {"blue": 1}})
    g.answer("yellow", "execute", "execute", {"planet": "blue-4"}, target="blue")
    assert executions(g) == [["blue", "blue-4", "warp", 1]]
    assert g.tokens("blue-4") == {}


def test_shadow_off_after_power_loss_no_ship_is_executed():
    g = game(tokens=POWER_LOST)
    outcome = attack_blue_2(g)
    assert executions(g) == [] and g.warp("blue") == 0
    assert outcome["totals"] == {"offense": 12, "defense": 12} and outcome["winner"] == "defense"


def test_shadow_off_when_a_cosmic_zap_cancels_the_execution():
    g = game(hands={"blue": ["A8", "CosmicZap", "N", "N", "A6", "A6", "A8", "A8"]})
    g.pass_windows("blue", "response")
    g.use("blue", "card:CosmicZap")  # answering the announced execution
    outcome = attack_blue_2(g)
    assert executions(g) == [] and g.tokens("blue-2") == {"blue": 4}
    assert outcome["winner"] == "defense"


def wild_game(**kw) -> Scenario:
    """Blue (the defense) holds Shadow's flare; red's Attack 20 beats blue's Attack 8."""
    hands = {"blue": ["A8", "Flare:Shadow", "N", "N", "A6", "A6", "A8", "A8"], **kw.pop("hands", {})}
    g = game(yellow="Mind", hands=hands, options={"flares": True}, **kw)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A8")
    return g


def test_shadow_wild_takes_the_winning_ships_to_the_warp_with_the_defense():
    g = wild_game()
    g.use("blue", "card:Flare:Shadow")
    outcome = g.resolved()
    assert outcome["winner"] == "offense" and outcome["winners_to_warp"] == "Shadow Wild Flare"
    g.lose("blue", {"blue-0": 1})  # the ship blue sends from outside the encounter
    assert g.tokens("blue-2") == {} and g.tokens("blue-0") == {"blue": 3}
    assert g.warp("red") == 2 and g.warp("blue") == 5


def test_shadow_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"yellow": ["A10", "CardZap", "N", "N", "A8", "A8", "A8", "A6"]})
    g.use("blue", "card:Flare:Shadow")
    g.use("yellow", "card:CardZap")
    outcome = g.resolved()
    assert "winners_to_warp" not in outcome
    assert g.tokens("blue-2") == {"red": 2} and g.warp("red") == 0 and g.warp("blue") == 4


def super_game(**kw) -> Scenario:
    """Red is the Shadow and the offense, with two ships in the warp and its flare in hand."""
    hands = {"red": ["A10", "Flare:Shadow", "N", "N", "A4", "A4", "A6", "A6"], **kw.pop("hands", {})}
    g = game(red="Shadow", yellow="Mind", hands=hands, options={"flares": True},
             tokens={"red-4": {"red": 2}}, **kw)
    return g


def test_shadow_super_puts_one_of_its_ships_from_the_warp_where_the_executed_ship_stood():
    g = super_game()
    g.use("red", "card:Flare:Shadow")
    g.regroup("red", None)
    g.answer("red", "execute", "execute", {"planet": "blue-3"}, target="blue")
    g.answer("red", "replace", "replace")
    assert g.tokens("blue-3") == {"blue": 3, "red": 1}  # a foreign colony taken from the warp
    assert g.warp("red") == 1 and g.warp("blue") == 1


def test_shadow_super_off_while_the_power_is_zapped():
    g = super_game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]})
    g.use("yellow", "card:CosmicZap", {"target": "red:Shadow"})
    assert "card:Flare:Shadow" not in g.abilities("red")  # only the Wild now: a defense's card
    g.regroup("red", None)
    g.owe("red", "launch")
    assert executions(g) == [] and g.warp("red") == 2 and g.tokens("blue-3") == {"blue": 4}
