"""RULES.md 3 (setup) and 2 (components): colours, tokens, the two decks, hands and the first player."""

from collections import Counter

import pytest

from engine import cards, execute
from engine.catalog import FLARES, power_pool
from engine.errors import RulesError
from engine.options import MAYFAIR_COLORS
from engine.simulate import new_game

ATTACK_COUNTS = {1: 1, 4: 2, 5: 2, 6: 8, 7: 4, 8: 8, 9: 2, 10: 6, 11: 2, 12: 5, 13: 1, 14: 2, 15: 4, 16: 1,
                 17: 1, 18: 1, 19: 1, 20: 2, 30: 1, 40: 1}


def formed(log: list[dict], deck: str) -> list[str]:
    """A deck as it was built and shuffled at setup (``deck`` or ``destiny``)."""
    return next(e["payload"]["cards"] for e in log if e["type"] == "DeckFormed" and e["payload"]["deck"] == deck)


def destiny_deck(log: list[dict]) -> list[str]:
    return formed(log, "destiny")


def started(players: int, **options) -> tuple[dict, list[dict]]:
    return new_game(f"setup-{players}-{sorted(options.items())}", players, options)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_player_takes_a_colour_in_seat_order(players):
    state, _ = started(players)
    assert state["order"] == list(MAYFAIR_COLORS[:players])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_home_system_has_five_planets_with_four_tokens_each(players):
    state, _ = started(players)
    assert len(state["planets"]) == 5 * players
    for color in state["order"]:
        assert [state["planets"][f"{color}-{i}"] for i in range(5)] == [{color: 4}] * 5
        assert state["warp"][color] == 0
    assert state["cone"] == {"offense": {}, "defense": {}}


@pytest.mark.parametrize("players", [4, 5, 6])
def test_destiny_deck_holds_three_regular_and_one_reverse_card_per_colour_plus_both_wilds(players):
    state, log = started(players)
    colors = state["order"]
    expected = [f"{c}.{k}" for c in colors for k in ("1", "2", "3", "rev")] + ["wild", "wild.rev"]
    assert sorted(destiny_deck(log)) == sorted(expected)
    assert sorted(state["destiny"] + state["destiny_discard"]) == sorted(expected)


def test_the_reverse_wild_is_removed_from_a_three_player_destiny_deck():
    _, log = started(3)
    assert "wild.rev" not in destiny_deck(log)
    assert "wild" in destiny_deck(log)
    assert len(destiny_deck(log)) == 3 * 4 + 1


def test_with_reverse_cone_off_every_reverse_destiny_card_is_removed():
    _, log = started(5, reverse_cone=False)
    assert not [c for c in destiny_deck(log) if c.endswith(".rev")]
    assert len(destiny_deck(log)) == 5 * 3 + 1


def test_special_destiny_adds_the_three_instructional_cards():
    _, log = started(4, special_destiny=True)
    assert sorted(c for c in destiny_deck(log) if c.startswith("inst:")) == [
        "inst:fewest-warp", "inst:most-bases", "inst:most-cards"]


def test_the_destiny_deck_is_shuffled():
    orders = {tuple(destiny_deck(new_game(f"shuffle-{k}", 5, {})[1])) for k in range(4)}
    assert len(orders) > 1


def test_the_challenge_deck_holds_55_attacks_and_17_compromises():
    _, log = started(4, edicts=False, reinforcements=False, flares=False)
    deck = formed(log, "deck")
    assert len(deck) == 72
    attacks = Counter(cards.attack_value(c) for c in deck if cards.kind(c) == "attack")
    assert dict(attacks) == ATTACK_COUNTS
    assert sum(attacks.values()) == 55
    assert sum(1 for c in deck if cards.kind(c) == "compromise") == 17


def test_edicts_reinforcements_and_flares_join_the_deck_by_default():
    state, log = started(4)
    deck = formed(log, "deck")
    kinds = Counter(cards.kind(c) for c in deck)
    assert kinds["edict"] == 22
    assert sorted(cards.card(c)["value"] for c in deck if cards.kind(c) == "reinforcement") == [2, 2, 3, 3, 3, 5]
    own = {cards.flare_card(p) for color in state["order"] for p in state["players"][color]["powers"]
           if p in FLARES}
    flares = {c for c in deck if cards.kind(c) == "flare"}
    assert own <= flares  # each player's own power's flare is in the deck
    available = sum(1 for p in power_pool(state["options"]) if p in FLARES)
    assert len(flares) == min(available, 3 * 4)  # 002: three times as many flares as players


@pytest.mark.parametrize("players", [2, 3, 5])
def test_two_powers_each_still_means_three_flares_per_player(players):
    """002: three times as many flares as players, however many powers each holds (14.18)."""
    state, log = started(players, powers_per_player=2)
    flares = [c for c in formed(log, "deck") if cards.kind(c) == "flare"]
    own = {cards.flare_card(p) for color in state["order"] for p in state["players"][color]["powers"]
           if p in FLARES}
    assert len(flares) == 3 * players
    assert own <= set(flares)


@pytest.mark.parametrize("option, kind", [("edicts", "edict"), ("reinforcements", "reinforcement"),
                                          ("flares", "flare")])
def test_an_option_turned_off_keeps_its_cards_out_of_the_deck(option, kind):
    _, log = started(4, **{option: False})
    assert not [c for c in formed(log, "deck") if cards.kind(c) == kind]


def test_war_cards_and_kickers_join_the_deck_only_with_their_options():
    _, plain_log = started(4)
    assert not [c for c in formed(plain_log, "deck") if cards.kind(c) in ("war", "kicker")]
    _, log = started(4, war_cards=True, kickers=True)
    kinds = Counter(cards.kind(c) for c in formed(log, "deck"))
    assert kinds["war"] == 5
    assert sorted(cards.card(c)["value"] for c in formed(log, "deck") if cards.kind(c) == "kicker") == [-1, 0, 2, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_every_player_is_dealt_seven_cards(players):
    state, log = started(players)
    assert [len(state["players"][c]["hand"]) for c in state["order"]] == [7] * players
    deals = [e for e in log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "deal"]
    assert [e["payload"]["seen_by"] for e in deals] == [[c] for c in state["order"]]


def test_each_player_is_dealt_one_power_from_the_pool_and_powers_are_public():
    state, log = started(5)
    powers = {c: state["players"][c]["powers"] for c in state["order"]}
    assert all(len(names) == 1 for names in powers.values())
    assert len({names[0] for names in powers.values()}) == 5
    assert {n for names in powers.values() for n in names} <= set(power_pool(state["options"]))
    dealt = next(e for e in log if e["type"] == "PowersDealt")
    assert dealt["payload"]["powers"] == powers


def test_the_first_player_is_the_colour_cut_from_the_destiny_pile_wilds_cut_again():
    for k in range(20):
        state, log = new_game(f"cut-{k}", 5, {"special_destiny": True})
        chosen = next(e for e in log if e["type"] == "FirstPlayerChosen")["payload"]
        *again, last = chosen["cut"]
        assert cards.destiny(last)["kind"] == "color"
        assert cards.destiny(last)["color"] == chosen["player"] == state["first_player"]
        assert all(cards.destiny(c)["kind"] in ("wild", "instruction") for c in again)
        assert state["turn"]["offense"] == chosen["player"]


def test_the_first_turns_go_clockwise_from_the_first_player():
    state, _ = new_game("clockwise", 4, {}, setup={"first": "yellow"})
    assert state["turn"] == {"offense": "yellow", "number": 1, "challenge": 1, "succeeded": False}


def test_two_players_may_choose_the_honeymoon_and_otherwise_use_the_destiny_pile():
    """000: two players "may wish" to play the honeymoon; it is an option, not forced (14.14)."""
    plain, log = started(2)
    assert plain["options"]["honeymoon"] is False
    assert any(e["type"] == "DestinyDrawn" for e in log) or plain["ch"]["destiny"] is not None
    honeymoon, log = started(2, honeymoon=True)
    assert honeymoon["options"]["honeymoon"] is True
    assert honeymoon["ch"]["destiny"] is None and honeymoon["ch"]["defense"] is not None


def test_honeymoon_is_refused_with_more_than_two_players():
    with pytest.raises(RulesError, match="honeymoon"):
        new_game("honeymoon-3", 3, {"honeymoon": True})


@pytest.mark.parametrize("seats", [1, 7])
def test_a_game_has_two_to_six_players(seats):
    with pytest.raises(RulesError, match="2 to 6 players"):
        execute(None, {"action": "create", "seats": seats, "seed": "s"})


def test_a_game_cannot_start_before_every_seat_is_taken():
    events, state = execute(None, {"action": "create", "seats": 3, "seed": "s"})
    events, state = execute(state, {"action": "join", "name": "ann"})
    with pytest.raises(RulesError, match="1 of 3 seats"):
        execute(state, {"action": "start"})


def test_a_colour_can_be_taken_only_once():
    _, state = execute(None, {"action": "create", "seats": 3, "seed": "s"})
    _, state = execute(state, {"action": "join", "name": "ann", "color": "purple"})
    with pytest.raises(RulesError, match="purple is already taken"):
        execute(state, {"action": "join", "name": "bob", "color": "purple"})


def test_an_impossible_stacked_setup_is_refused_when_the_game_is_created():
    """14.21: more copies of a card than a deck holds is refused at creation, naming the card."""
    from engine import execute
    create = {"action": "create", "seats": 3, "seed": "s", "options": {}, "at": 0}
    with pytest.raises(RulesError, match=r"setup.hands.blue: no card 'A40' left to stack: a deck of this game holds 1 copy"):
        execute(None, {**create, "setup": {"hands": {"red": ["A40"], "blue": ["A40"]}}})
    with pytest.raises(RulesError, match="setup.deck_top: no card 'Flare:Nobody'"):
        execute(None, {**create, "setup": {"deck_top": ["Flare:Nobody"]}})
    with pytest.raises(RulesError, match="'mauve.1' is not a destiny card"):
        execute(None, {**create, "setup": {"destiny_top": ["mauve.1"]}})
    events, state = execute(None, {**create, "setup": {"hands": {"red": ["A20", "A20"]}}})  # two A20s exist
    assert state["status"] == "lobby"


def test_a_seat_may_be_set_up_with_no_power_at_all():
    """14.21: `powers: []` gives a seat no power (tutorials, tests)."""
    state, _ = new_game("no-powers", 3, {}, setup={"powers": {"red": [], "blue": ["Macron"]}})
    assert state["players"]["red"]["powers"] == []
    assert state["players"]["blue"]["powers"] == ["Macron"]
    assert len(state["players"]["yellow"]["powers"]) == 1
