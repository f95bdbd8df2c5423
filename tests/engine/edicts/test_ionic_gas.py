"""Ionic Gas (an artifact of the Fantasy Flight deck, RULES.md 9): no compensation and no rewards this encounter."""

from engine.scenario import Scenario
from tests.engine.scenarios import offered


def ffg_table(hands: dict) -> Scenario:
    """Red attacks blue at blue-2 in an ffg game; yellow looks on (or allies); powers that stay out of the way."""
    return Scenario(players=3, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Clone"]}, hands=hands,
                    destiny=["blue.1"], first="red", ruleset="ffg")


def test_ionic_gas_in_the_resolution_phase_leaves_the_negotiate_without_compensation():
    g = ffg_table({"red": ["A12"], "blue": ["N"], "yellow": ["IonicGas"]})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "N")
    offered(g, "yellow", "card:IonicGas")  # in the resolution phase, before compensation and rewards
    g.use("yellow", "card:IonicGas")
    outcome = g.resolved()
    g.pass_windows()
    assert outcome["winner"] == "offense" and outcome["consolation"]["counted"] == "warp"  # 4 ships, none taken
    assert not [e for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation"]
    assert g.warp("blue") == 4  # blue's ships were lost all the same


def test_ionic_gas_leaves_the_defensive_allies_without_rewards():
    g = ffg_table({"red": ["A4"], "blue": ["A12"], "yellow": ["IonicGas"]})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 2})
    g.play("red", "A4")
    g.play("blue", "A12")
    outcome = g.resolved()
    g.place("yellow", {"yellow-0": 2})  # the ally's ships come home...
    offered(g, "yellow", "card:IonicGas")  # then, before compensation and rewards, the gas
    g.use("yellow", "card:IonicGas")
    g.pass_windows()
    assert outcome["winner"] == "defense"
    assert not g.prompts("yellow") or all(p["kind"] != "rewards" for p in g.prompts("yellow"))
    assert not [e for e in g.log if e["payload"].get("reason") == "reward"]  # ...with no reward
    assert g.tokens("yellow-0") == {"yellow": 4}


def test_ionic_gas_is_in_the_fantasy_flight_deck_only():
    from engine.options import resolve
    from engine.setup import cards_without_flares
    assert "IonicGas" in cards_without_flares(resolve("ffg", {}, 3), "ffg")
    assert "IonicGas" not in cards_without_flares(resolve("mayfair", {}, 3), "mayfair")
