"""The Fantasy Flight edition (``ruleset: "ffg"``, RULES.md 9, 003): the same turn, its own data and rules."""

from __future__ import annotations

import random

import pytest

from engine import cards, execute, prompts
from engine.context import Ctx
from engine.errors import RulesError
from engine.handcards import draw
from engine.revealed import card_kind
from engine.scenario import Scenario
from engine.simulate import legal_answer, new_game
from engine.state import clone
from engine.steps.resolve import outcome
from projections import views

FFG = {"ruleset": "ffg"}


def ffg_game(powers=None, hands=None, destiny=("blue.1",), **kw) -> Scenario:
    """Red against blue at blue-2 (yellow looks on), powers fixed (no choice), flares off unless asked."""
    return Scenario(players=3, powers=powers or {"red": ["Mind"], "blue": ["Filch"], "yellow": ["Clone"]},
                    hands=hands or {}, destiny=list(destiny), first="red", ruleset="ffg", **kw)


# --- creating a game --------------------------------------------------------------------------------

@pytest.mark.parametrize("seats", [3, 4, 5])
def test_an_ffg_game_seats_three_to_five_players_in_its_colours(seats):
    state, _ = new_game("seats", seats, {}, ruleset="ffg")
    assert state["ruleset"] == "ffg" and state["order"] == ["red", "blue", "yellow", "green", "purple"][:seats]


def test_two_players_play_ffg_only_with_the_honeymoon_and_six_not_at_all():
    state, _ = new_game("two", 2, {"honeymoon": True}, ruleset="ffg")
    assert state["status"] == "playing"
    with pytest.raises(RulesError, match="honeymoon"):
        new_game("two", 2, {}, ruleset="ffg")
    with pytest.raises(RulesError, match="2 to 5 players"):
        new_game("six", 6, {}, ruleset="ffg")


@pytest.mark.parametrize("option, value", [("punt", True), ("reverse_cone", True), ("edicts", False),
                                           ("special_destiny", False), ("war_cards", True), ("kickers", True),
                                           ("reverse_warp", True), ("simplified", True)])
def test_an_option_of_the_mayfair_format_only_is_refused_naming_it_and_the_ruleset(option, value):
    with pytest.raises(RulesError) as refused:
        new_game("refused", 3, {option: value}, ruleset="ffg")
    assert f"option {option} is not part of the ffg ruleset" in str(refused.value)


def test_the_options_that_make_sense_in_ffg_are_taken():
    state, _ = new_game("taken", 3, {"deal_seconds": 30, "decision_seconds": 60, "reinforcements": False,
                                     "powers_per_player": 2}, ruleset="ffg")
    options = state["options"]
    assert (options["deal_seconds"], options["decision_seconds"], options["reinforcements"]) == (30, 60, False)
    assert options["punt"] is False and options["reverse_cone"] is False  # held at the edition's values


# --- setup: two powers offered, one chosen; the deck and the destiny deck --------------------------

def choose_all(state: dict, log: list) -> dict:
    """Every player keeps the first power it is offered; the state once all have chosen."""
    for k, color in enumerate(state["order"]):
        owed = next(p for p in prompts(state) if p["player"] == color)
        events, state = execute(state, {"action": "choose", "player": color,
                                        "args": {"power": owed["info"]["offered"][0]}, "at": 1000 * (k + 1)})
        log += events
    return state


def test_each_player_is_offered_two_powers_and_chooses_holding_no_card():
    state, log = new_game("offers", 4, {}, ruleset="ffg")
    offers = {e["payload"]["player"]: e["payload"]["powers"] for e in log if e["type"] == "PowersOffered"}
    assert sorted(offers) == sorted(state["order"]) and all(len(p) == 2 for p in offers.values())
    offered = [name for names in offers.values() for name in names]
    assert len(set(offered)) == 8  # no power offered twice
    # RULES.md 9: nobody holds a card (nor a power) while choosing; the deck is not formed yet
    assert all(state["players"][c]["hand"] == [] and state["players"][c]["powers"] == [] for c in state["order"])
    assert state["deck"] == [] and not [e for e in log if e["type"] == "DeckFormed" and e["payload"]["deck"] == "deck"]
    owed = prompts(state)
    assert sorted(p["player"] for p in owed) == sorted(state["order"]) and {p["kind"] for p in owed} == {"choose_power"}
    red = next(p for p in owed if p["player"] == "red")
    assert red["options"][0]["args"]["power"]["values"] == offers["red"]


def test_once_all_have_chosen_both_offered_flares_are_shuffled_into_the_deck_then_hands_of_eight_dealt():
    state, log = new_game("offers", 4, {}, ruleset="ffg")
    offered = [n for e in log if e["type"] == "PowersOffered" for n in e["payload"]["powers"]]
    state = choose_all(state, log)
    order = [e["type"] if e["type"] != "DeckFormed" else f"DeckFormed:{e['payload']['deck']}" for e in log
             if e["type"] in ("PowerChosen", "PowersDealt", "DeckFormed") or
             (e["type"] == "CardsMoved" and e["payload"]["reason"] == "deal")]
    assert order == ["DeckFormed:destiny"] + ["PowerChosen"] * 4 + ["PowersDealt", "DeckFormed:deck"] + \
        ["CardsMoved"] * 4
    every_card = state["deck"] + [c for color in state["order"] for c in state["players"][color]["hand"]]
    assert sorted(c for c in every_card if c.startswith("Flare:")) == sorted(f"Flare:{n}" for n in offered)
    assert all(len(state["players"][c]["hand"]) == 8 for c in state["order"])


def test_the_powers_are_dealt_in_the_open_once_every_player_has_chosen_its_own_in_secret():
    state, _ = new_game("choice", 3, {}, ruleset="ffg")
    chosen = {}
    for k, color in enumerate(state["order"]):
        offered = next(p for p in prompts(state) if p["player"] == color)["info"]["offered"]
        chosen[color] = offered[k % 2]
        events, state = execute(state, {"action": "choose", "player": color, "args": {"power": chosen[color]},
                                        "at": 1000 * (k + 1)})
        made = next(e for e in events if e["type"] == "PowerChosen")
        assert made["payload"] == {"player": color, "powers": [chosen[color]]}
        others_see = views.board(state)["players"][color]["powers"]
        if k < 2:  # still secret: nobody's power shows on the board
            assert others_see == [] and not any(e["type"] == "PowersDealt" for e in events)
    dealt = next(e for e in events if e["type"] == "PowersDealt")
    assert dealt["payload"]["powers"] == {c: [chosen[c]] for c in state["order"]}
    assert {p["kind"] for p in prompts(state)} != {"choose_power"}  # the first turn has begun
    assert any(e["type"] == "TurnBegan" for e in events)


def test_a_choice_nobody_makes_in_time_is_made_by_the_deadline_default():
    state, _ = new_game("late", 3, {"decision_seconds": 30}, ruleset="ffg")
    red = next(p for p in prompts(state) if p["player"] == "red")
    events, state = execute(state, {"action": "timeout", "prompt": red["id"], "at": red["deadline"]})
    chosen = next(e for e in events if e["type"] == "PowerChosen")["payload"]
    assert chosen["player"] == "red" and chosen["powers"][0] in red["info"]["offered"]
    assert state["players"]["red"]["chosen"] == chosen["powers"]


def test_the_deck_is_the_fantasy_flight_deck_and_hands_hold_eight():
    state, log = new_game("deck", 3, {"flares": False}, ruleset="ffg")
    state = choose_all(state, log)
    held = state["deck"] + [c for color in state["order"] for c in state["players"][color]["hand"]]
    kinds = {}
    for card in held:
        kinds[cards.kind(card)] = kinds.get(cards.kind(card), 0) + 1
    assert kinds == {"attack": 39, "compromise": 15, "morph": 1, "reinforcement": 6, "edict": 11}
    assert sorted(cards.attack_value(c) for c in held if cards.kind(c) == "attack") == sorted(
        v for v, n in cards.FFG_ATTACKS.items() for _ in range(n))
    assert {cards.card(c)["name"] for c in held if cards.kind(c) == "compromise"} == {"Negotiate"}
    assert sorted(cards.card_kind_name(c) for c in held if cards.kind(c) == "edict") == sorted(
        ["CardZap", "CardZap", "CosmicZap", "CosmicZap", "MobiusTubes", "MobiusTubes", "EmotionControl",
         "ForceField", "IonicGas", "Plague", "Quash"])
    assert all(len(state["players"][c]["hand"]) == 8 for c in state["order"])


def test_the_destiny_deck_holds_three_of_each_colour_two_wilds_and_the_three_special_cards():
    state, _ = new_game("destiny", 4, {}, ruleset="ffg")
    deck = state["destiny"] + state["destiny_discard"]
    assert sorted(deck) == sorted([f"{c}.{n}" for c in state["order"] for n in (1, 2, 3)] + ["wild.1", "wild.2"]
                                  + ["inst:most-bases", "inst:most-cards", "inst:fewest-warp"])


# --- the turn -------------------------------------------------------------------------------------------

def test_a_wild_destiny_card_names_any_other_player_never_the_offense():
    g = ffg_game(destiny=["wild.1"])
    owed = g.owe("red", "choose_defense")
    assert owed["options"][0]["args"]["player"]["values"] == ["blue", "yellow"]


def test_the_defense_draws_a_new_hand_only_at_the_planning_phase():
    """003: 'If defense has no encounter card [at planning] ... draw 8 new cards'; not when it is determined."""
    hands = {"red": ["A8"], "blue": ["CosmicZap", "Plague"]}
    g = ffg_game(hands=hands, exact_hands=True, deck=["A12", "N", "A4", "A6", "A7", "A9", "A10", "A11"])
    g.launch({"red-0": 2}, "blue-2")
    assert sorted(g.hand("blue")) == ["CosmicZap.1", "Plague"]  # still its hand after the destiny phase
    g.invite_none()
    g.pass_windows("blue", "challenge_card")
    new_hand = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "new hand"]
    assert new_hand[0]["src"] == "hand:blue" and sorted(new_hand[0]["cards"]) == ["CosmicZap.1", "Plague"]
    assert len(g.hand("blue")) == 8 and "A12.1" in g.hand("blue")  # the new hand: the top 8 of the deck


def test_a_morph_is_a_copy_of_the_opponents_revealed_attack():
    g = ffg_game(hands={"red": ["A12"], "blue": ["Morph"]})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "Morph")
    outcome = g.resolved()
    assert outcome["cards"] == {"offense": "attack", "defense": "attack"}
    # red: 12 + 2 ships = 14; blue: the Morph's 12 + its 4 ships on blue-2 = 16
    assert outcome["totals"] == {"offense": 14, "defense": 16} and outcome["winner"] == "defense"


def test_a_morph_against_a_negotiate_is_a_negotiate_and_a_deal_follows():
    g = ffg_game(hands={"red": ["N"], "blue": ["Morph"]})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "Morph")
    assert g.resolved()["kind"] == "deal"


def test_morph_against_morph_both_sides_lose():
    """The deck holds one Morph, so two meet only when a power brings a second card: the rule is checked
    on the resolution of a table where both sides committed a Morph."""
    g = ffg_game(hands={"red": ["A12"], "blue": ["A4"]})
    table = clone(g.state)
    table["committed"] = {"offense": ["Morph"], "defense": ["Morph"]}
    assert card_kind(table, "offense") == "morph" == card_kind(table, "defense")
    decided = outcome(table)
    assert decided["both_lose"] is True and decided["winner"] is None


def test_a_flare_returns_to_its_owners_hand_after_use_and_only_one_flare_per_encounter():
    """RULES.md 9: a used flare goes back to its owner's hand; a player plays at most one flare per encounter."""
    hands = {"red": ["A8", "Flare:Macron", "Flare:Tripler"], "blue": ["A10"], "yellow": ["A5"]}
    g = ffg_game(hands=hands, exact_hands=True, options={"flares": True})  # nobody else could act
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A8")
    g.play("blue", "A10")
    assert {"card:Flare:Macron", "card:Flare:Tripler"} <= set(g.abilities("red"))  # both Wilds, at the reveal
    g.use("red", "card:Flare:Tripler", {"side": "offense"})
    while any(p["kind"] == "response" for p in g.prompts()):  # nobody cancels it
        g.command(next(p for p in g.prompts() if p["kind"] == "response")["player"], "pass")
    assert "Flare:Tripler" in g.hand("red") and "Flare:Tripler" not in g.state["discard"]  # kept
    assert [a for a in g.abilities("red") if a.startswith("card:Flare:")] == []  # no second flare this encounter
    outcome = g.resolved()
    assert outcome["totals"]["offense"] == 8 * 3 + 2  # the Wild's effect stays in force: the 8 counts triple


def test_a_cosmic_quake_gives_every_player_a_new_hand_when_nothing_is_left_to_draw():
    """RULES.md 9: a card must be drawn, and neither the deck nor the discards hold one."""
    g = ffg_game(hands={"red": ["A8"], "blue": ["A4"]})
    table = clone(g.state)
    table["discard"] += table["deck"]  # every card still in the deck is out of play for this test...
    held = {c: list(table["players"][c]["hand"]) for c in table["order"]}
    table["deck"], table["discard"], table["aside"] = [], [], table["discard"]  # ...set aside
    ctx = Ctx(table, actor="system", time=1)
    assert draw(ctx, "red", 1, "reward") == []
    quake = [e["payload"] for e in ctx.events if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Cosmic Quake"]
    discarded = [p for p in quake if p["dst"] == "discard"]
    assert [p["src"] for p in discarded] == [f"hand:{c}" for c in table["order"]]
    in_play = sorted(c for hand in held.values() for c in hand)
    assert sorted(c for p in discarded for c in p["cards"]) == in_play
    # the discards become the deck: 24 cards, 8 to each player in seat order
    assert [len(ctx.state["players"][c]["hand"]) for c in table["order"]] == [8, 8, 8]
    assert sorted(c for c in ctx.state["aside"]) == sorted(g.state["deck"] + g.state["discard"])


# --- words ----------------------------------------------------------------------------------------------

def test_an_ffg_games_prompts_and_board_speak_the_fantasy_flight_words():
    g = ffg_game()
    g.owe("red", "launch")
    owed = views.own_prompts(g.state, "red")
    assert owed[0]["kind"] == "launch" and owed[0]["title"] == "Launch: put ships on the gate and aim it"
    board = views.board(g.state)
    assert board["terms"]["cone"] == "gate" and board["terms"]["base"] == "colony"
    assert board["pending"][0]["title"] == owed[0]["title"]


def test_random_ffg_games_end_with_every_ship_and_card_accounted_for():
    from engine.simulate import play_game
    for k in range(6):
        result = play_game(f"ffg-invariants:{k}", 3 + k % 3, {}, ruleset="ffg")
        assert result.error is None and result.violations == [], (result.error, result.violations)
        assert result.finished


def test_same_seed_same_ffg_game():
    def run(seed):
        state, log = new_game(seed, 4, {}, ruleset="ffg")
        rng = random.Random(seed)
        for k in range(200):
            if state["status"] != "playing":
                break
            events, state = legal_answer(state, rng.choice(prompts(state)), rng, 1000 * (k + 1))
            log += events
        return log
    assert run("again") == run("again")


def test_under_ffg_plague_is_played_in_the_regroup_phase_only():
    """The FFG artifact is played at the start of an encounter; the Mayfair edict any time."""
    g = ffg_game(hands={"yellow": ["Plague"]})
    windows_with_plague = []
    for _ in range(40):
        owed = g.prompts("yellow")
        window = next((p for p in owed if p["kind"] == "window"), None)
        if window and any(o.get("ability") == "card:Plague" for o in window["options"]):
            windows_with_plague.append(window["info"]["window"])
        waiting = [p for p in g.prompts() if p["kind"] == "window"]
        if g.ch and g.ch["stage"] >= 3 or not waiting:
            break
        g.command(waiting[0]["player"], "pass")
    assert windows_with_plague == ["regroup"]
    g.owe("red", "launch")
    assert "card:Plague" not in g.abilities("yellow")


def test_under_ffg_mobius_tubes_is_the_offenses_in_the_regroup_phase():
    g = ffg_game(hands={"red": ["MobiusTubes", "A8"], "blue": ["A4"], "yellow": ["A5"]}, exact_hands=True,
                 tokens={"red-0": {"red": 2}})  # red's other ships in the warp
    g.owe("red", "regroup")
    offered = [o.get("ability") for p in g.asked if p["kind"] == "window" for o in p["options"]]
    assert "card:MobiusTubes.1" not in offered  # not at the start of the encounter, as in mayfair
    g.regroup("red", "red-0")
    assert g.prompts("red")[0]["info"]["window"] == "regroup" and "card:MobiusTubes.1" in g.abilities("red")
