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
