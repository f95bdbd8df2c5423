"""Cosmic Gas (RULES.md 6): after the reveal, no rewards are collected this challenge."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
BLUE = ["A20", "A11", "A12", "A13", "A14", "A15", "A16"]
# yellow starts with 2 tokens in the warp, so it could take rewards as tokens or cards
LAYOUT = {"yellow-0": {"yellow": 2}}


def gas_game(red_hand):
    return red_attacks_blue("Filch", "Mutant", "Mind",
                            {"red": red_hand, "blue": BLUE, "yellow": ["A17", "A18", "A19", "A30", "A40", "C", "C"]},
                            options={"edicts": True}, tokens=LAYOUT)


def defended_with_yellow(g):
    """Red attacks blue-2 with 2 tokens; yellow defends with 3; blue wins with its Attack 20."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-1": 3})
    g.play("red", "A4")
    g.play("blue", "A20")


def test_cosmic_gas_takes_the_defensive_allys_rewards_away():
    g = gas_game(["CosmicGas", "A4", "A5", "A6", "A7", "A8", "A9"])
    defended_with_yellow(g)
    g.use("red", "card:CosmicGas")
    # yellow's tokens still go home, but it is owed no rewards
    g.place("yellow", {"yellow-1": 3})
    g.pass_windows()
    assert not [p for p in g.prompts() if p["kind"] == "rewards"]
    assert g.tokens("yellow-1") == {"yellow": 4}
    assert g.warp("yellow") == 2 and len(g.hand("yellow")) == 7
    assert g.warp("red") == 2 and g.tokens("blue-2") == {"blue": 4}
    assert "CosmicGas.1" in g.state["discard"]


def test_without_cosmic_gas_the_defensive_ally_collects_three_rewards():
    g = gas_game(RED)
    defended_with_yellow(g)
    g.pass_windows()
    g.place("yellow", {"yellow-1": 3})
    g.rewards("yellow", cards=1, tokens=2)
    g.place("yellow", {"yellow-0": 2})
    assert g.warp("yellow") == 0 and len(g.hand("yellow")) == 8


def test_cosmic_gas_is_not_offered_without_allies():
    g = gas_game(["CosmicGas", "A4", "A5", "A6", "A7", "A8", "A9"])
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A20")
    # the reveal window passes without red being asked; the Attack 20 decides the challenge
    assert not [p for p in g.prompts() if p["kind"] == "window" and p["info"]["window"] == "reveal"]
    assert g.outcome["winner"] == "defense"
    assert "CosmicGas.1" in g.hand("red")
