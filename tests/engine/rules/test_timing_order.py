"""RULES.md 5: effects that one event triggers resolve in timing order.

Non-main players first (clockwise from the offense's left), then the offense, then the defense.
"""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]
YELLOW = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def test_a_non_main_healer_is_asked_before_the_defenses_vacuum_pulls_on_the_same_loss():
    g = red_attacks_blue("Mind", "Vacuum", "Healer", {"red": RED, "blue": BLUE, "yellow": YELLOW})
    challenge(g, "A20", "A1", red_tokens=2)
    assert g.resolved()["winner"] == "offense"
    assert g.warp("blue") == 4
    # blue's loss triggers both yellow's Healer and blue's own Vacuum: yellow comes first
    owed = g.owe("yellow", "reaction")
    assert owed["info"]["power"] == "Healer"
    powers_used = [e["payload"]["power"] for e in g.log if e["type"] == "PowerUsed"]
    assert "Vacuum" not in powers_used
    g.answer("yellow", "reaction", "decline")
    powers_used = [e["payload"]["power"] for e in g.log if e["type"] == "PowerUsed"]
    assert powers_used[-1] == "Vacuum"


def test_a_flare_in_force_answers_in_its_players_turn_of_the_timing_order_not_after_every_power():
    """RULES.md 5: what one event sets off resolves in timing order, whoever's power or played flare it is.
    Red, the offense, played Vacuum's Wild; blue, the defense, is the Healer. Red's tokens lost to the warp
    set off both: the offense's flare comes before the defense's power."""
    g = red_attacks_blue("Mind", "Healer", "Mind",
                         {"red": ["A4", "Flare:Vacuum", "A5", "A6", "A7", "A9", "A10"],
                          "blue": ["A20", "C", "A8", "A11", "A12", "A13", "A14"], "yellow": YELLOW},
                         options={"flares": True})
    challenge(g, "A4", "A20", after_launch=lambda g: g.use("red", "card:Flare:Vacuum"))
    assert g.resolved()["winner"] == "defense"
    owed = [(p["player"], p["kind"]) for p in g.prompts()]
    assert owed == [("red", "vacuum")]  # blue's Healer is asked once red's pull is carried out
    g.answer("red", "vacuum", "pull", {"tokens": {"yellow-0/yellow": 3}})
    assert g.warp("yellow") == 3
    assert [(p["player"], p["kind"]) for p in g.prompts()] == [("blue", "reaction")]
