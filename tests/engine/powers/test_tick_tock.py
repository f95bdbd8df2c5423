"""Tick-Tock (Fantasy Flight): a track of ten tokens; one leaves it whenever the defense wins or a deal is
made, and the last one wins the game.

Red attacks blue-2 (4 blue ships) with one ship; yellow looks on. The track is a public note on the alien
sheet (``notes["Tick-Tock"]["tokens"]``); where a test needs it nearly empty it is set there, as nine
earlier defense wins would have left it.
"""

from engine import fold
from engine.invariants import violations
from engine.scenario import Scenario, kinds, terms
from projections import views

RED = ["A4", "N", "N", "A6", "A4", "A6", "A6", "A8"]
BLUE = ["A15", "N", "N", "N", "A20", "A12", "A8", "A8"]
YELLOW = ["A10", "N", "N", "N", "A8", "A8", "A8", "A6"]
POWER_LOST = {"yellow-1": {}, "yellow-2": {}, "yellow-3": {}}  # two home colonies left


def game(yellow="Tick-Tock", blue="Sorcerer", red="Mind", hands=None, **kw) -> Scenario:
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return Scenario(players=3, powers={"red": [red], "blue": [blue], "yellow": [yellow]}, hands=stacked,
                    destiny=["blue.1"], first="red", ruleset="ffg", **kw)


def track(g: Scenario):
    return g.state["notes"].get("Tick-Tock", {}).get("tokens")


def cards_played(g: Scenario, red: str, blue: str, before_cards=None) -> None:
    """Red attacks blue-2 with one ship and invites no one; then red and blue play their challenge cards."""
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    if before_cards:
        before_cards(g)
    g.play("red", red)
    g.play("blue", blue)


def challenge(g: Scenario, red: str, blue: str, before_cards=None) -> dict:
    cards_played(g, red, blue, before_cards)
    return g.resolved()


def game_ended(g: Scenario):
    return next((e["payload"] for e in g.log if e["type"] == "GameEnded"), None)


def test_tick_tock_power_starts_with_ten_tokens_and_loses_one_when_the_defense_wins():
    g = game()
    assert track(g) == 10
    assert views.board(g.state)["notes"]["Tick-Tock"] == {"tokens": 10}
    assert challenge(g, "A4", "A15")["winner"] == "defense"
    assert track(g) == 9 and g.state["status"] == "playing"
    noted = [e["payload"] for e in g.log if e["type"] == "PlayerNoted" and e["payload"]["player"] == "Tick-Tock"]
    assert noted == [{"player": "Tick-Tock", "key": "tokens", "value": 10},
                     {"player": "Tick-Tock", "key": "tokens", "value": 9}]


def test_tick_tock_power_an_offense_win_removes_nothing():
    g = game()
    assert challenge(g, "A4", "N")["winner"] == "offense"
    assert track(g) == 10


def test_tick_tock_power_a_deal_removes_one():
    g = game()
    assert challenge(g, "N", "N")["kind"] == "deal"
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-3"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 1})
    assert g.ch["deal"]["made"] is True and g.tokens("blue-3") == {"blue": 4, "red": 1}
    assert track(g) == 9


def test_tick_tock_power_last_token_wins_jointly_with_the_deal_s_fifth_bases():
    four_each = {f"yellow-{i}": {"yellow": 2, "red": 1, "blue": 1} for i in range(4)}
    thin = {f"{c}-{i}": {c: 1} for c in ("red", "blue") for i in range(1, 5)}
    g = game(tokens={**four_each, **thin})
    g.state["notes"]["Tick-Tock"]["tokens"] = 1  # as nine defense wins or deals would have left it
    g.regroup("red", "red-0")
    g.launch({"red-0": 3}, "blue-0")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-2", defense_base="red-2"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 3})
    assert game_ended(g) is None
    g.take_base("blue", {"blue-0": 2})
    assert game_ended(g) == {"winners": ["red", "blue", "yellow"],
                             "reason": "Tick-Tock's last token; five external bases"}
    assert g.state["status"] == "finished" and g.state["winners"] == ["red", "blue", "yellow"]
    assert track(g) == 0 and violations(g.state) == []
    assert g.state["table"] == [] and g.state["committed"] == {"offense": [], "defense": []}


def test_tick_tock_power_last_token_wins_alone_when_the_defense_wins():
    g = game()
    g.state["notes"]["Tick-Tock"]["tokens"] = 1
    challenge(g, "A4", "A15")
    assert game_ended(g) == {"winners": ["yellow"], "reason": "Tick-Tock's last token"}
    assert views.board(g.state)["winners"] == ["yellow"] and violations(g.state) == []


def test_tick_tock_off_when_a_cosmic_zap_switches_it_off_for_the_challenge():
    g = game(hands={"red": ["A4", "CosmicZap", "N", "A6", "A4", "A6", "A6", "A8"]})
    assert challenge(g, "A4", "A15", lambda g: g.use("red", "card:CosmicZap", {"target": "yellow:Tick-Tock"}))[
        "winner"] == "defense"
    assert track(g) == 10


def test_tick_tock_off_by_power_loss():
    g = game(tokens=POWER_LOST)
    # the scenario's layout takes the power away before the game setup, which then puts no track down
    assert track(g) is None
    g.state["notes"].setdefault("Tick-Tock", {})["tokens"] = 10
    challenge(g, "A4", "A15")
    assert track(g) == 10


def wild_game(**kw) -> Scenario:
    """Red holds Tick-Tock's flare; blue, the defense, holds no challenge card, so at the planning it draws a new
    hand from a deck of one card: the discard pile becomes the new deck."""
    hands = {"red": ["A4", "Flare:Tick-Tock", "N", "N"], "blue": ["CardZap", "MobiusTubes"],
             "yellow": ["A10", "N"], **kw.pop("hands", {})}
    g = game(yellow="Mind", hands=hands, exact_hands=True, options={"flares": True}, **kw)
    deck = g.state["deck"]
    g.state["discard"] += deck[:-1]  # all but one card of the deck already discarded
    del deck[:-1]
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    return g


def test_tick_tock_wild_plants_a_colony_when_the_deck_is_reshuffled():
    g = wild_game()
    asked = g.owe("red", "reaction")
    assert asked["options"][0]["args"]["tokens"]["max"] == 4
    g.answer("red", "reaction", "use", {"planet": "yellow-3", "tokens": {"red-1": 3}}, ability="card:Flare:Tick-Tock")
    g.pass_windows()  # nobody answers it with a Card Zap
    assert g.tokens("yellow-3") == {"yellow": 4, "red": 3} and g.tokens("red-1") == {"red": 1}
    assert g.state["external_bases"]["red"] == 1
    assert "Flare:Tick-Tock" in g.hand("red")  # a flare goes back to its holder's hand
    assert [e["payload"]["deck"] for e in g.log if e["type"] == "DeckReshuffled"] == ["deck"]
    assert len(g.hand("blue")) == 8


def test_tick_tock_wild_off_when_a_card_zap_cancels_it():
    g = wild_game(hands={"yellow": ["A10", "CardZap"]})
    g.answer("red", "reaction", "use", {"planet": "yellow-3", "tokens": {"red-1": 3}}, ability="card:Flare:Tick-Tock")
    g.use("yellow", "card:CardZap")
    assert g.tokens("yellow-3") == {"yellow": 4} and g.tokens("red-1") == {"red": 4}


def super_game(**kw) -> Scenario:
    """Blue is Tick-Tock and the defense, with its flare in hand."""
    hands = {"blue": ["A15", "Flare:Tick-Tock", "N", "N", "A20", "A12", "A8", "A8"], **kw.pop("hands", {})}
    return game(yellow="Mind", blue="Tick-Tock", hands=hands, options={"flares": True}, **kw)


def cards_then_super(g: Scenario, red: str, blue: str) -> None:
    """The cards played (`cards_played`), then blue uses its Super."""
    cards_played(g, red, blue)
    g.use("blue", "card:Flare:Tick-Tock")


def test_tick_tock_super_pays_a_ship_to_remove_a_second_token_on_a_defense_win():
    g = super_game()
    cards_then_super(g, "A4", "A15")
    assert g.resolved()["winner"] == "defense"
    g.lose("blue", {"blue-4": 1})
    assert track(g) == 8
    assert g.warp("blue") == 1 and g.tokens("blue-4") == {"blue": 3} and g.warp("red") == 1


def test_tick_tock_super_off_when_a_card_zap_cancels_it():
    g = super_game(hands={"yellow": ["A10", "CardZap", "N", "N", "A8", "A8", "A8", "A6"]})
    cards_then_super(g, "A4", "A15")
    g.use("yellow", "card:CardZap")
    g.resolved()
    g.pass_windows()
    assert track(g) == 9 and g.warp("blue") == 0


def test_tick_tock_power_the_track_goes_with_the_sheet_when_powers_are_swapped():
    hands = {"yellow": ["A10", "Flare:Sorcerer", "N", "N", "A8", "A8", "A8", "A6"]}
    g = game(yellow="Mind", blue="Tick-Tock", hands=hands, options={"flares": True})
    g.state["notes"]["Tick-Tock"]["tokens"] = 1
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.use("yellow", "card:Flare:Sorcerer")  # the main players trade powers: red is Tick-Tock now
    assert g.state["players"]["red"]["powers"] == ["Tick-Tock"]
    g.play("red", "A4")
    g.play("blue", "A15")
    g.resolved()
    assert game_ended(g) == {"winners": ["red"], "reason": "Tick-Tock's last token"}


def test_tick_tock_power_its_last_token_ends_the_game_even_while_other_reactions_are_being_collected():
    """Found by a 300-game ffg run (flares off, 5 players, seed 1:160): Tick-Tock's last token went at a
    defensive win while another power's reaction to the same resolution (Grudge's revenge) had been
    collected; a win that ended the game on the spot met the collection's clean-up, which scheduled the
    reaction on an agenda already cleared. The last token now only claims the win: the reaction is carried
    out, and the next boundary ends the game."""
    from engine.simulate import play_game

    result = play_game("1:160", 5, {"flares": False}, ruleset="ffg")
    assert result.error is None and result.violations == []
    assert result.finished and result.winner_powers == ["Tick-Tock"]


def test_tick_tock_power_last_token_wins_once_the_resolution_is_carried_out():
    """The defense's win takes the track's last token, and in the same breath Grudge (the defense) makes yellow,
    who declined its invitation, lose a ship of its choice. The win waits for that rule to be carried out: the
    game goes on through yellow's decision and ends at the next boundary of the turn sequence, with the
    resolution's whole outcome on the final board."""
    g = game(blue="Grudge")
    g.state["notes"]["Tick-Tock"]["tokens"] = 1
    g.launch({"red-0": 1}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.decline("yellow")
    g.play("red", "A4")
    g.play("blue", "A15")
    assert g.resolved()["winner"] == "defense"
    # the last token is gone and the win is claimed, but Grudge's revenge comes first
    assert track(g) == 0 and game_ended(g) is None and g.state["status"] == "playing"
    assert g.state["notes"]["yellow"] == {"won": "Tick-Tock's last token"}
    assert violations(g.state) == []
    g.lose("yellow", {"yellow-1": 1})
    assert game_ended(g) == {"winners": ["yellow"], "reason": "Tick-Tock's last token"}
    assert g.state["status"] == "finished" and g.state["winners"] == ["yellow"]
    assert g.tokens("yellow-1") == {"yellow": 3} and g.warp("yellow") == 1  # Grudge's revenge
    assert g.tokens("blue-2") == {"blue": 4} and g.warp("red") == 1  # the beaten offense's ship
    assert kinds(g.state["discard"]) == ["A15", "A4"]
    assert g.state["committed"] == {"offense": [], "defense": []} and g.state["table"] == []
    assert violations(g.state) == [] and fold(g.log) == g.state


def test_tick_tock_power_last_token_of_a_deal_wins_with_the_ships_home():
    """A deal's last token: the win is declared once the deal is over, the main players' ships back home, not
    while red's two ships the base did not take still stand on the cone."""
    g = game()
    g.state["notes"]["Tick-Tock"]["tokens"] = 1
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-3"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 1})
    assert game_ended(g) is None and g.tokens("cone:offense") == {"red": 2}
    g.place("red", {"red-2": 2})  # the two ships left on the cone go home
    assert game_ended(g) == {"winners": ["yellow"], "reason": "Tick-Tock's last token"}
    assert g.state["cone"] == {"offense": {}, "defense": {}}
    assert g.tokens("red-0") == {"red": 1} and g.tokens("red-2") == {"red": 6}
    assert g.tokens("blue-3") == {"blue": 4, "red": 1} and g.tokens("blue-2") == {"blue": 4}
    assert g.state["external_bases"]["red"] == 1 and track(g) == 0
    assert kinds(g.state["discard"]) == ["N", "N"] and g.state["committed"] == {"offense": [], "defense": []}
    assert violations(g.state) == [] and fold(g.log) == g.state


def test_tick_tock_power_a_failed_deal_removes_nothing():
    g = game()
    challenge(g, "N", "N")
    g.pass_windows()
    g.give_up("red")
    g.give_up("blue")
    assert g.ch["deal"]["made"] is False
    g.lose("red", {"red-1": 3})
    g.lose("blue", {"blue-2": 3})
    assert track(g) == 10


def test_tick_tock_super_a_deal_made_pays_a_ship_to_remove_a_second_token():
    g = super_game()
    cards_then_super(g, "N", "N")
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-3"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 1})
    g.lose("blue", {"blue-4": 1})
    assert track(g) == 8
    assert g.warp("blue") == 1 and g.tokens("blue-4") == {"blue": 3}
    assert g.tokens("blue-3") == {"blue": 4, "red": 1} and g.state["cone"] == {"offense": {}, "defense": {}}


def test_tick_tock_super_pays_for_a_deal_made_after_the_offense_s_grudge_in_timing_order():
    """A deal made is one fact, heard once the deal is over by everything that counts it: red's Grudge (yellow
    declined its invitation: a deal made costs yellow a ship) and blue's Super of Tick-Tock (blue pays a ship
    to take one more token off the track). Both answer the same moment, so they take effect in timing order
    (RULES.md 5): the offense's power first, then the defense's flare."""
    g = super_game(red="Grudge")
    g.launch({"red-0": 1}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.decline("yellow")
    g.play("red", "N")
    g.play("blue", "N")
    g.use("blue", "card:Flare:Tick-Tock")
    g.pass_windows()
    g.propose("red", terms(offense_base="blue-3"))
    g.accept("blue", 1)
    g.take_base("red", {"cone:offense": 1})
    losses = [(p["player"], p["info"]["reason"]) for p in g.prompts() if p["kind"] == "choose_losses"]
    assert losses == [("yellow", "Grudge")]
    g.lose("yellow", {"yellow-1": 1})
    assert [(p["player"], p["info"]["reason"]) for p in g.prompts()] == [("blue", "Tick-Tock Super Flare")]
    g.lose("blue", {"blue-4": 1})
    assert track(g) == 8 and g.warp("yellow") == 1 and g.warp("blue") == 1
    assert g.tokens("blue-3") == {"blue": 4, "red": 1} and g.state["cone"] == {"offense": {}, "defense": {}}
