"""Stellar Gas (RULES.md 6; 004): after the reveal, nobody takes consolation this challenge."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A10", "A4", "A5", "A6", "A7", "A8", "A9"]
BLUE = ["C", "A11", "A12", "A13", "A14", "A15", "A16"]
GAS = ["StellarGas", "A17", "A18", "A19", "A20", "A30", "A40"]


def gas_game(yellow_hand=GAS, red_hand=RED, war=False):
    return red_attacks_blue("Filch", "Mutant", "Mind", {"red": red_hand, "blue": BLUE, "yellow": yellow_hand},
                            options={"edicts": True, "war_cards": war})


def test_stellar_gas_denies_the_compromise_its_consolation():
    g = gas_game()
    challenge(g, "A10", "C")
    g.use("yellow", "card:StellarGas")
    g.pass_windows()
    # the Attack wins as usual: blue loses its 4 tokens on blue-2...
    assert g.tokens("blue-2") == {"red": 3} and g.warp("blue") == 4
    # ...but takes no card from red, whose hand stays at 6
    assert g.outcome["consolation"]["count"] == 4
    assert len(g.hand("red")) == 6 and len(g.hand("blue")) == 6
    assert not [e for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation"]
    assert "StellarGas.1" in g.state["discard"]


def test_stellar_gas_blocks_consolation_after_a_war_card_too():
    g = gas_game(red_hand=["War", "A4", "A5", "A6", "A7", "A8", "A9"], war=True)
    challenge(g, "War", "A11")
    g.use("yellow", "card:StellarGas")
    g.pass_windows()
    assert g.outcome["winner"] == "offense"
    assert g.warp("blue") == 4
    assert len(g.hand("red")) == 6 and len(g.hand("blue")) == 6


def test_without_stellar_gas_the_compromise_is_consoled():
    g = gas_game(yellow_hand=["A17", "A18", "A19", "A20", "A30", "A40", "C"])
    challenge(g, "A10", "C")
    g.pass_windows()
    assert len(g.hand("red")) == 6 - 4 and len(g.hand("blue")) == 6 + 4


def test_stellar_gas_is_not_offered_when_two_attacks_are_revealed():
    g = gas_game()
    challenge(g, "A10", "A11")
    assert g.abilities("yellow") == []
    g.pass_windows()
    assert "StellarGas.1" in g.hand("yellow")
