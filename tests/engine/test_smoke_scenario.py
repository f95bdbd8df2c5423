"""First scenario: a plain attack won by the offense."""

from engine.scenario import Scenario


def test_offense_wins_attack_and_lands():
    g = Scenario(players=3, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Mutant"]},
                 hands={"red": ["A20", "A4", "A5", "A6", "A7", "A8", "A9"],
                        "blue": ["A1", "C", "C", "C", "C", "C", "C"]},
                 destiny=["blue.1"], first="red")
    g.launch({"red-0": 4}, "blue-2")
    g.invite("red", [])
    g.invite("blue", [])
    g.play("red", "A20")
    g.play("blue", "A1")
    assert g.outcome["winner"] == "offense"
    assert g.outcome["totals"] == {"offense": 24, "defense": 5}
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("blue") == 4
