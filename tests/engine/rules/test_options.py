"""RULES.md 1: the options a game is created with, and what each changes."""

import pytest

from engine import cards, execute
from engine.catalog import SIMPLIFIED_POWERS
from engine.errors import NotOwed, RulesError
from engine.scenario import Scenario, kinds
from engine.simulate import new_game
from engine.state import power_active

THREE = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"]}
RED = ["A20", "A15", "A14", "A13", "A12", "A11", "A10"]
BLUE = ["A4", "A5", "A6", "A7", "A8", "A9", "C"]


def three(**kw) -> Scenario:
    kw.setdefault("powers", THREE)
    kw.setdefault("hands", {"red": RED, "blue": BLUE})
    kw.setdefault("destiny", ["blue.1"])
    return Scenario(players=3, first="red", **kw)


# Validation ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    ({"no_such_option": True}, "unknown option 'no_such_option'; known options: "),
    ({"reverse_cone": "yes"}, "option reverse_cone must be true or false, not 'yes'"),
    ({"powers_per_player": 3}, "option powers_per_player must be between 1 and 2, not 3"),
    ({"deal_seconds": "60"}, "option deal_seconds must be a whole number, not '60'"),
    ({"decision_seconds": 1}, "option decision_seconds must be between 5 and"),
])
def test_an_unknown_or_ill_typed_option_is_refused_naming_it(options, message):
    with pytest.raises(RulesError, match=message) as refused:
        execute(None, {"action": "create", "seats": 4, "seed": "s", "options": options})
    assert refused.value.rule == "1"


def test_options_are_recorded_in_full_in_the_first_event():
    events, _ = execute(None, {"action": "create", "seats": 4, "seed": "s", "options": {"punt": True}})
    options = events[0]["payload"]["options"]
    assert options["punt"] is True
    assert (options["reverse_cone"], options["flares"], options["deal_seconds"]) == (True, True, 60)


# Simplified ----------------------------------------------------------------------------------------

def test_the_simplified_game_deals_only_the_six_simple_powers_without_flares_or_reverse_cards():
    for k in range(5):
        state, log = new_game(f"simple-{k}", 5, {"simplified": True})
        assert {p for c in state["order"] for p in state["players"][c]["powers"]} <= set(SIMPLIFIED_POWERS)
        deck = next(e["payload"]["cards"] for e in log if e["type"] == "DeckFormed" and e["payload"]["deck"] == "deck")
        assert not [c for c in deck if cards.kind(c) == "flare"]
        destiny = state["destiny"] + state["destiny_discard"]
        assert not [c for c in destiny if c.endswith(".rev")]


def test_the_simplified_game_keeps_flares_out_even_when_asked_for():
    state, log = new_game("simple-flares", 4, {"simplified": True, "flares": True})
    assert state["options"]["flares"] is False
    deck = next(e["payload"]["cards"] for e in log if e["type"] == "DeckFormed" and e["payload"]["deck"] == "deck")
    assert not [c for c in deck if cards.kind(c) == "flare"]
    assert sum(1 for c in deck if cards.kind(c) == "edict") == 22  # edicts stay: only flares and reverse cards go


# Reinforcements ------------------------------------------------------------------------------------

def test_a_reinforcement_is_played_to_either_side_after_two_attacks_and_discarded_at_stage_9():
    g = three(hands={"red": RED, "blue": BLUE, "yellow": ["R+5", "A4", "A5", "A6", "A7", "A8", "C"]},
              options={"reinforcements": True})
    g.launch({"red-0": 1}, "blue-0")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.play("red", "A10")
    g.play("blue", "A9")
    owed = g._window_prompt("yellow")
    assert owed["info"]["window"] == "reveal"
    use = next(o for o in owed["options"] if o["action"] == "use")
    assert use["args"]["side"]["values"] == ["offense", "defense"]
    g.use("yellow", "card:R+5", {"side": "defense"})
    g.pass_windows()
    # offense 10 + 1 + 1 = 12; defense 9 + 4 + 5 = 18
    assert g.outcome["totals"] == {"offense": 12, "defense": 18}
    assert "R+5" in g.state["discard"]
    assert kinds(g.state["discard"]) == ["A10", "A9", "R+5"]


def test_a_reinforcement_is_not_offered_to_a_player_outside_the_challenge():
    g = three(hands={"red": RED, "blue": BLUE, "yellow": ["R+5", "A4", "A5", "A6", "A7", "A8", "C"]},
              options={"reinforcements": True})
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A9")
    g.pass_windows()
    assert "R+5" in g.hand("yellow")
    assert g.outcome["totals"] == {"offense": 11, "defense": 13}


def test_a_reinforcement_is_not_offered_against_a_compromise():
    g = three(hands={"red": ["R+3"] + RED[:6], "blue": BLUE}, options={"reinforcements": True},
              tokens={"blue-2": {}, "blue-0": {"blue": 8}})  # no consolation: blue defends no token
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "C")
    g.pass_windows()
    assert "R+3" in kinds(g.hand("red"))
    assert g.outcome["kind"] == "compromise"


def test_without_the_option_there_are_no_reinforcements_to_play():
    state, log = new_game("no-reinforcements", 4, {"reinforcements": False})
    deck = next(e["payload"]["cards"] for e in log if e["type"] == "DeckFormed" and e["payload"]["deck"] == "deck")
    assert not [c for c in deck if cards.kind(c) == "reinforcement"]


# Honeymoon -------------------------------------------------------------------------------------------

def test_honeymoon_power_is_lost_as_soon_as_a_player_holds_fewer_than_four_home_bases():
    g = Scenario(players=2, powers={"red": ["Tripler"], "blue": ["Clone"]}, first="red", options={"honeymoon": True},
                 hands={"red": RED, "blue": BLUE}, tokens={"red-4": {}, "red-0": {"red": 1}, "red-1": {"red": 11}})
    assert power_active(g.state, "red", "Tripler")  # four home bases
    g.launch({"red-0": 1}, "blue-0")  # red-0 is emptied: three home bases left
    assert not power_active(g.state, "red", "Tripler")
    g.play("red", "A10")
    g.play("blue", "A9")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 11, "defense": 13}  # the 10 is not tripled


def test_honeymoon_power_is_kept_with_three_home_bases_in_a_larger_game_only():
    layout = {"red-3": {}, "red-4": {}, "red-0": {"red": 12}}
    assert power_active(three(tokens=layout, powers={**THREE, "red": ["Macron"]}).state, "red", "Macron")
    honeymoon = Scenario(players=2, powers={"red": ["Macron"], "blue": ["Clone"]}, first="red",
                         options={"honeymoon": True}, hands={"red": RED, "blue": BLUE}, tokens=layout)
    assert not power_active(honeymoon.state, "red", "Macron")


def test_the_turn_alternates_between_the_two_honeymoon_players():
    g = Scenario(players=2, powers={"red": ["Filch"], "blue": ["Clone"]}, first="red",
                 options={"honeymoon": True}, hands={"red": RED, "blue": BLUE})
    g.launch({"red-0": 1}, "blue-0")
    g.play("red", "A10")
    g.play("blue", "A9")
    g.pass_windows()
    assert g.state["turn"]["offense"] == "blue"
    assert g.ch["defense"] == "red"


# Punt --------------------------------------------------------------------------------------------

def test_punt_discards_the_hand_draws_a_new_one_and_ends_the_turn():
    fresh = ["C", "A5", "A6", "A7", "A8", "A9", "A11"]
    g = three(options={"punt": True}, deck=fresh)
    owed = g.owe("red", "punt")
    assert [o["action"] for o in owed["options"]] == ["play", "punt"]
    g.punt()
    assert kinds(g.hand("red")) == sorted(fresh)
    assert kinds(g.state["discard"]) == sorted(RED)
    assert g.state["turn"]["offense"] == "blue"
    assert not [e for e in g.log if e["type"] == "DestinyDrawn"]


def test_an_offense_declining_to_punt_takes_its_turn():
    g = three(options={"punt": True})
    g.take_turn()
    assert g.ch["defense"] == "blue"
    assert kinds(g.hand("red")) == sorted(RED)


def test_without_the_punt_option_nobody_is_asked_to_punt():
    g = three()
    assert "punt" not in [p["kind"] for p in g.prompts()]


# Multiple powers ------------------------------------------------------------------------------------

def test_two_powers_per_player_are_dealt_and_both_are_in_force():
    state, _ = new_game("two-powers", 5, {"powers_per_player": 2})
    dealt = [p for c in state["order"] for p in state["players"][c]["powers"]]
    assert [len(state["players"][c]["powers"]) for c in state["order"]] == [2] * 5
    assert len(set(dealt)) == 10
    g = three(powers={"red": ["Macron", "Tripler"], "blue": ["Clone"], "yellow": ["Laser"]},
              options={"powers_per_player": 2})
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A9")
    g.pass_windows()
    assert g.outcome["totals"]["offense"] == 30 + 4  # Tripler triples the 10, Macron's token counts 4


def test_with_two_powers_a_flare_of_either_power_is_played_as_super_and_power_loss_stops_both():
    g = three(powers={"red": ["Mind", "Macron"], "blue": ["Clone"], "yellow": ["Laser"]},
              hands={"red": ["Flare:Macron"] + RED[:6], "blue": BLUE},
              options={"powers_per_player": 2, "flares": True})
    g.use("red", "card:Flare:Macron")  # Super (destiny window): up to four tokens, each worth 4
    played = [e["payload"] for e in g.log if e["type"] == "CardPlayed"]
    assert played[-1]["effect"] == "super"
    assert g.owe("red", "launch")["options"][0]["args"]["tokens"]["max"] == 4  # instead of Macron's one
    g.launch({"red-0": 3}, "blue-0")
    g.invite_none()
    g.play("red", "A20")
    g.play("blue", "A9")
    g.pass_windows()
    assert g.outcome["totals"] == {"offense": 20 + 12, "defense": 9 + 4}
    lost = three(powers={"red": ["Mind", "Macron"], "blue": ["Clone"], "yellow": ["Laser"]},
                 options={"powers_per_player": 2}, tokens={"red-1": {}, "red-2": {}, "red-3": {}})
    lost.regroup("red", None)
    assert lost.owe("red", "launch")["options"][0]["args"]["tokens"]["max"] == 4  # Macron off
    assert not any(power_active(lost.state, "red", p) for p in ("Mind", "Macron"))


# Deadlines -------------------------------------------------------------------------------------------

def test_with_decision_seconds_every_prompt_states_its_deadline():
    g = three(options={"decision_seconds": 60})
    owed = g.prompts()
    assert [(p["kind"], p["deadline"]) for p in owed] == [("launch", 60_000)]
    g.launch({"red-0": 1}, "blue-0")
    owed = g.owe("red", "invite")
    assert owed["deadline"] == g.clock + 60_000


def test_without_decision_seconds_prompts_wait_forever():
    g = three()
    assert [p["deadline"] for p in g.prompts()] == [None]
    with pytest.raises(RulesError, match="no deadline"):
        g.timeout(g.prompts()[0]["id"], at=10**12)


def test_a_timeout_applies_the_decisions_default():
    g = three(options={"decision_seconds": 60})
    owed = g.prompts()[0]
    with pytest.raises(RulesError, match="no deadline that has passed"):
        g.timeout(owed["id"], at=59_999)
    events = g.timeout(owed["id"], at=60_000)
    timed_out = [e["payload"] for e in events if e["type"] == "DecisionTimedOut"]
    assert timed_out == [{"player": "red", "prompt": owed["id"], "kind": "launch", "default": {"action": "launch"}}]
    assert events[0]["actor"] == "timer"
    assert sum(g.tokens("cone:offense").values()) == 1  # the default launch: one token
    assert g.ch["planet"] == "blue-0"


def test_a_stale_timeout_is_refused():
    g = three(options={"decision_seconds": 60})
    owed = g.prompts()[0]
    g.launch({"red-0": 1}, "blue-0")
    with pytest.raises(NotOwed, match="no longer owed"):
        g.timeout(owed["id"], at=10**9)


def test_a_stale_answer_naming_an_old_prompt_is_refused():
    g = three()
    owed = g.prompts()[0]
    g.launch({"red-0": 1}, "blue-0")
    with pytest.raises(NotOwed):
        g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "blue-0"}, prompt=owed["id"])
