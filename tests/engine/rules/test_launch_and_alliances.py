"""RULES.md 4, stages 3-6: the launch, both invitations and the alliances."""

import pytest

from engine.errors import RulesError
from engine.scenario import Scenario

FIVE = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"], "light_blue": ["Kamikaze"]}
HANDS = {"red": ["A20", "A15", "A14", "A13", "A12", "A11", "A10"],
         "yellow": ["A4", "A5", "A6", "A7", "A8", "A9", "C"]}


def five(**kw) -> Scenario:
    """Five players; red is the offense and the destiny card names yellow."""
    kw.setdefault("destiny", ["yellow.1"])
    return Scenario(players=5, powers=FIVE, hands=HANDS, first="red", **kw)


def launch_shape(g: Scenario) -> dict:
    return g.owe("red", "launch")["options"][0]["args"]


# Stage 3 -----------------------------------------------------------------------------------------

def test_the_offense_launches_one_to_four_tokens_from_any_of_its_bases_in_any_mix():
    g = five(tokens={"purple-2": {"purple": 4, "red": 2}, "red-4": {"red": 2}})
    shape = launch_shape(g)["tokens"]
    assert shape["sources"] == {"red-0": 4, "red-1": 4, "red-2": 4, "red-3": 4, "red-4": 2, "purple-2": 2}
    assert (shape["min"], shape["max"]) == (1, 4)
    g.launch({"red-0": 1, "red-4": 1, "purple-2": 2}, "yellow-3")
    assert g.tokens("cone:offense") == {"red": 4}
    assert g.tokens("red-0") == {"red": 3}
    assert g.tokens("red-4") == {"red": 1}
    assert g.tokens("purple-2") == {"purple": 4}  # red's base there is gone
    assert g.ch["planet"] == "yellow-3"


@pytest.mark.parametrize("tokens", [{}, {"red-0": 4, "red-1": 1}, {"red-0": 5}])
def test_the_offense_cannot_launch_none_or_more_than_four_tokens(tokens):
    g = five()
    owed = g.owe("red", "launch")
    with pytest.raises(RulesError):
        g.command("red", "launch", {"tokens": tokens, "planet": "yellow-0"}, prompt=owed["id"])
    assert g.tokens("cone:offense") == {}


def test_the_cone_points_only_at_a_planet_of_the_defenses_system():
    g = five()
    owed = g.owe("red", "launch")
    assert owed["options"][0]["args"]["planet"]["values"] == [f"yellow-{i}" for i in range(5)]
    with pytest.raises(RulesError, match="not a legal choice"):
        g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "blue-0"}, prompt=owed["id"])


def test_an_empty_planet_of_the_defense_can_be_attacked_and_is_defended_by_no_token():
    g = five(tokens={"yellow-2": {}, "yellow-0": {"yellow": 8}})
    g.launch({"red-0": 1}, "yellow-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("yellow", "A9")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 11, "defense": 9}
    assert g.tokens("yellow-2") == {"red": 1}
    assert g.warp("yellow") == 0


def test_other_players_tokens_on_the_target_planet_take_no_part_and_are_never_affected():
    g = five(tokens={"yellow-1": {"yellow": 2, "blue": 3}, "blue-0": {"blue": 1}, "yellow-0": {"yellow": 6}})
    g.launch({"red-0": 2}, "yellow-1")
    g.invite_none()
    g.play("red", "A10")
    g.play("yellow", "A9")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 12, "defense": 11}
    assert g.tokens("yellow-1") == {"red": 2, "blue": 3}
    assert g.warp("yellow") == 2
    assert g.warp("blue") == 0


def test_a_planet_with_only_other_players_tokens_can_be_attacked():
    g = five(tokens={"yellow-1": {"blue": 3}, "blue-0": {"blue": 1}, "yellow-0": {"yellow": 8}})
    g.launch({"red-0": 1}, "yellow-1")
    assert g.ch["planet"] == "yellow-1"


# Stages 4 and 5 ----------------------------------------------------------------------------------

def test_the_offense_invites_any_players_but_the_defense():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    owed = g.owe("red", "invite")
    assert owed["rule"] == "4.4"
    assert owed["options"][0]["args"]["players"]["values"] == ["blue", "purple", "light_blue"]
    with pytest.raises(RulesError):
        g.command("red", "invite", {"players": ["yellow"]}, prompt=owed["id"])


def test_the_defense_invites_after_the_offense_and_may_invite_the_same_players():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["blue", "purple"])
    owed = g.owe("yellow", "invite")
    assert owed["rule"] == "4.5"
    assert owed["options"][0]["args"]["players"]["values"] == ["blue", "purple", "light_blue"]
    g.invite("yellow", ["purple", "light_blue"])
    assert g.ch["invited"] == {"offense": ["blue", "purple"], "defense": ["purple", "light_blue"]}


def test_nobody_may_be_invited_at_all():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", [])
    g.invite("yellow", [])
    assert g.ch["allies"] == {}
    assert g.owe("red", "challenge_card")


# Stage 6 -------------------------------------------------------------------------------------------

def test_invited_players_answer_clockwise_from_the_offenses_left():
    g = five(destiny=["blue.1"])
    g.launch({"red-0": 1}, "blue-0")
    g.invite("red", ["yellow", "purple", "light_blue"])
    g.invite("blue", ["yellow", "purple", "light_blue"])
    answered = []
    for player in ("yellow", "purple", "light_blue"):
        owed = g.owe(player, "alliance")
        assert [p["player"] for p in g.prompts()] == [player]  # one at a time, in seat order
        answered.append(player)
        g.decline(player) if player == "purple" else g.join(player, "offense", {f"{player}-0": 1})
    assert owed["info"]["invited_by"] == ["offense", "defense"]
    assert g.ch["allies"] == {"yellow": "offense", "light_blue": "offense"}
    assert g.ch["declined"] == ["purple"]


def test_an_ally_joins_only_a_side_that_invited_it():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["blue"])
    g.invite("yellow", ["purple"])
    blue = g.owe("blue", "alliance")
    assert [(o["action"], o.get("side")) for o in blue["options"]] == [("join", "offense"), ("decline", None)]
    with pytest.raises(RulesError):
        g.command("blue", "join", {"tokens": {"blue-0": 1}}, side="defense", prompt=blue["id"])
    g.join("blue", "offense", {"blue-0": 1})
    purple = g.owe("purple", "alliance")
    assert [(o["action"], o.get("side")) for o in purple["options"]] == [("join", "defense"), ("decline", None)]


def test_a_player_invited_by_both_sides_joins_one_of_them_only():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["blue"])
    g.invite("yellow", ["blue"])
    g.join("blue", "defense", {"blue-0": 2})
    assert g.ch["allies"] == {"blue": "defense"}
    assert g.tokens("cone:defense") == {"blue": 2}
    assert g.tokens("cone:offense") == {"red": 1}
    assert g.ch["answered"] == ["blue"]
    assert not [p for p in g.prompts("blue") if p["kind"] == "alliance"]


def test_an_ally_commits_one_to_four_tokens_from_any_of_its_bases():
    g = five(tokens={"red-2": {"red": 4, "blue": 2}, "blue-4": {"blue": 2}})
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["blue"])
    g.invite("yellow", [])
    owed = g.owe("blue", "alliance")
    shape = owed["options"][0]["args"]["tokens"]
    assert shape["sources"] == {"blue-0": 4, "blue-1": 4, "blue-2": 4, "blue-3": 4, "blue-4": 2, "red-2": 2}
    assert (shape["min"], shape["max"]) == (1, 4)
    for bad in ({"blue-0": 4, "blue-1": 1}, {}):
        with pytest.raises(RulesError):
            g.command("blue", "join", {"tokens": bad}, side="offense", prompt=owed["id"])
    g.join("blue", "offense", {"red-2": 2, "blue-4": 1})
    assert g.tokens("cone:offense") == {"red": 1, "blue": 3}
    assert g.tokens("red-2") == {"red": 4}


def test_a_player_nobody_invited_is_never_asked():
    g = five()
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["purple"])
    g.invite("yellow", [])
    g.decline("purple")
    assert g.ch["answered"] == ["purple"]
    assert g.owe("red", "challenge_card")


def test_an_invited_player_with_no_token_on_any_base_cannot_join():
    nothing = {f"blue-{i}": {} for i in range(5)}
    g = five(tokens=nothing)
    g.launch({"red-0": 1}, "yellow-0")
    g.invite("red", ["blue"])
    g.invite("yellow", [])
    assert g.ch["declined"] == ["blue"]
    assert g.owe("red", "challenge_card")
