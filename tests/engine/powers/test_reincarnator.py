"""Reincarnator (Fantasy Flight): whenever it loses, it becomes an alien drawn at random from those not in
the game, keeping its own power beside it.

Red attacks blue-2 (4 blue ships) with one ship and Attack 4 against blue's Attack 15: red loses. The
game's pool is narrowed (option ``power_pool``) so that the unused powers are known.
"""

from engine.scenario import Scenario
from projections import views

RED = ["A4", "N", "N", "A6", "A4", "A6", "A6", "A8"]
BLUE = ["A15", "N", "N", "N", "A20", "A12", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
POOL = ["Reincarnator", "Sorcerer", "Mind", "Virus", "Tripler", "Miser"]
POWER_LOST = {"red-1": {}, "red-2": {}, "red-3": {}}


def game(red="Reincarnator", yellow="Mind", hands=None, pool=POOL, options=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": ["Sorcerer"], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1", "red.2"], first="red", ruleset="ffg",
                    options={"power_pool": pool, **(options or {})}, **kw)


def lose(g: Scenario, before_cards=None) -> dict:
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    if before_cards:
        before_cards(g)
    g.play("red", "A4")
    g.play("blue", "A15")
    return g.resolved()


def changes(g: Scenario) -> list[dict]:
    return [e["payload"] for e in g.log if e["type"] == "PowersChanged"]


def test_reincarnator_power_becomes_the_one_unused_alien_after_a_loss():
    g = game(pool=["Reincarnator", "Sorcerer", "Mind", "Virus", "Miser"])  # Miser has a game setup: never drawn
    assert lose(g)["winner"] == "defense"
    g.pass_windows()
    assert changes(g) == [{"player": "red", "powers": ["Reincarnator", "Virus"], "gained": ["Virus"], "lost": [],
                           "reason": "Reincarnator"}]
    assert g.state["players"]["red"]["powers"] == ["Reincarnator", "Virus"]
    assert views.board(g.state)["players"]["red"]["powers"] == ["Reincarnator", "Virus"]


def test_reincarnator_power_draws_from_the_seed_and_sends_the_old_alien_out_for_good():
    g = game()
    lose(g)
    g.pass_windows()
    first = changes(g)[0]["gained"][0]
    assert first in ("Virus", "Tripler")
    again = game()  # the same seed and the same play draw the same alien
    lose(again)
    again.pass_windows()
    assert changes(again)[0]["gained"] == [first]
    # blue's turn: destiny points at red, which defends red-2 (4 ships) with Attack 4 against Attack 20
    g.launch({"blue-0": 4}, "red-2")
    g.invite_none()
    g.play("blue", "A20")
    g.play("red", "A4")
    assert g.resolved()["winner"] == "offense"
    g.pass_windows()
    other = "Tripler" if first == "Virus" else "Virus"
    assert changes(g)[1] == {"player": "red", "powers": ["Reincarnator", other], "gained": [other], "lost": [first],
                             "reason": "Reincarnator"}
    assert g.state["powers_out"] == [first] and views.board(g.state)["powers_out"] == [first]


def test_reincarnator_power_does_not_change_on_a_win():
    g = game()
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "N")
    assert g.resolved()["winner"] == "offense"
    g.pass_windows()
    assert changes(g) == [] and g.state["players"]["red"]["powers"] == ["Reincarnator"]


def test_reincarnator_off_when_a_cosmic_zap_cancels_the_reincarnation():
    g = game(hands={"yellow": ["A10", "CosmicZap", "N", "N", "A8", "A8", "A8", "A6"]})
    lose(g)
    g.pass_windows("yellow", "response")  # past the resolution and discard windows, to the stage 10 announcement
    g.use("yellow", "card:CosmicZap")  # answering the announced reincarnation
    g.pass_windows()
    assert changes(g) == [] and g.state["players"]["red"]["powers"] == ["Reincarnator"]


def test_reincarnator_off_by_power_loss():
    g = game(tokens=POWER_LOST)
    g.regroup("red", None)
    lose(g)
    g.pass_windows()
    assert changes(g) == []


def wild_game(**kw) -> Scenario:
    """Red (Tripler) loses; yellow holds Reincarnator's flare."""
    hands = {"yellow": ["A10", "Flare:Reincarnator", "N", "N", "A8", "A8", "A8", "A6"], **kw.pop("hands", {})}
    g = game(red="Tripler", hands=hands, options={"flares": True}, **kw)
    assert lose(g)["winner"] == "defense"
    return g


def test_reincarnator_wild_gives_the_flare_to_the_loser_who_becomes_another_alien():
    g = wild_game(pool=["Reincarnator", "Sorcerer", "Mind", "Virus", "Tripler"])
    g.use("yellow", "card:Flare:Reincarnator", {"player": "red"})
    assert changes(g) == [{"player": "red", "powers": ["Virus"], "gained": ["Virus"], "lost": ["Tripler"],
                           "reason": "Reincarnator Wild Flare"}]
    assert "Flare:Reincarnator" in g.hand("red") and "Flare:Reincarnator" not in g.hand("yellow")
    assert g.state["powers_out"] == ["Tripler"]


def test_reincarnator_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"blue": ["A15", "CardZap", "N", "N", "A20", "A12", "A8", "A8"]})
    g.use("yellow", "card:Flare:Reincarnator", {"player": "red"})
    g.use("blue", "card:CardZap")
    assert changes(g) == [] and g.state["players"]["red"]["powers"] == ["Tripler"]
    # the cancelled flare is discarded, as a Card Zap's every victim (RULES.md 9)
    assert "Flare:Reincarnator" not in g.hand("yellow") and "Flare:Reincarnator" in g.state["discard"]


def super_game(**kw) -> Scenario:
    hands = {"red": ["A4", "Flare:Reincarnator", "N", "A6", "A4", "A6", "A6", "A8"], **kw.pop("hands", {})}
    g = game(hands=hands, options={"flares": True}, **kw)
    assert lose(g)["winner"] == "defense"
    return g


def test_reincarnator_super_keeps_the_alien_it_is_after_a_loss():
    g = super_game()
    g.use("red", "card:Flare:Reincarnator")
    g.pass_windows()
    assert changes(g) == [] and g.state["players"]["red"]["powers"] == ["Reincarnator"]
    assert "Flare:Reincarnator" in g.hand("red")


def test_reincarnator_super_off_when_a_card_zap_cancels_it():
    g = super_game(hands={"blue": ["A15", "CardZap", "N", "N", "A20", "A12", "A8", "A8"]},
                   pool=["Reincarnator", "Sorcerer", "Mind", "Virus"])
    g.use("red", "card:Flare:Reincarnator")
    g.use("blue", "card:CardZap")
    g.pass_windows()
    assert [(c["gained"], c["lost"]) for c in changes(g)] == [(["Virus"], [])]
    assert g.state["players"]["red"]["powers"] == ["Reincarnator", "Virus"]
