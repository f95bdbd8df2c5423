"""Remora follows other players' draws and retrievals with one of its own; its flares cling to a player or double."""

from tests.engine.scenarios import red_attacks_blue

RED = ["A1", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A20", "C", "C", "C", "C", "C", "C"]
YELLOW = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
DECK = ["A18", "A19", "A17", "A16", "A13"]  # yellow's two rewards, then the followers' cards


def game(red_power="Remora", blue_power="Filch", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return red_attacks_blue(red_power, blue_power, "Mind", stacked, deck=DECK, **kw)


def yellow_earns_rewards(g, before_cards=None):
    """Yellow defends blue-2 beside blue with two tokens; blue wins and yellow draws two rewards."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 2})
    if before_cards:
        before_cards(g)
    g.play("red", "A1")
    g.play("blue", "A20")
    result = g.resolved()
    g.place("yellow", {"yellow-0": 2})  # the winning ally takes its tokens home, then its rewards
    return result


def follow(g, player="red"):
    return g.answer(player, "reaction", "use", ability="power:Remora")


def test_remora_power_draws_a_card_after_another_player_draws():
    g = game()
    assert yellow_earns_rewards(g)["winner"] == "defense"
    assert {"A18", "A19"} <= set(g.hand("yellow"))
    follow(g)
    assert "A17" in g.hand("red")
    assert len(g.hand("red")) == 7
    # Remora's own draw is not followed again
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]


def test_remora_power_retrieves_a_token_after_another_player_retrieves():
    g = game(red_power="Mind", blue_power="Remora", tokens={"red-4": {}, "blue-4": {}})
    g.regroup("red", "red-0")
    assert g.tokens("red-0") == {"red": 5}
    follow(g, "blue")
    g.place("blue", {"blue-1": 1})
    assert g.warp("blue") == 3
    assert g.tokens("blue-1") == {"blue": 5}


def test_remora_off_when_cosmic_zapped_nothing_is_followed():
    g = game(hands={"yellow": ["CosmicZap", "A5", "A6", "A7", "A8", "A9", "A10"]}, options={"edicts": True})
    yellow_earns_rewards(g, lambda g: g.use("yellow", "card:CosmicZap", {"target": "red:Remora"}))
    assert {"A18", "A19"} <= set(g.hand("yellow"))
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    assert "A17" not in g.hand("red")
    assert len(g.hand("red")) == 6


def test_remora_off_after_power_loss():
    g = game(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps two home bases
    g.regroup("red", None)
    yellow_earns_rewards(g)
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    assert len(g.hand("red")) == 6


def test_remora_wild_draws_a_card_each_time_the_named_player_draws():
    g = game(red_power="Mind", hands={"blue": ["A20", "Flare:Remora", "C", "C", "C", "C", "C"]},
             options={"flares": True})
    yellow_earns_rewards(g, lambda g: g.use("blue", "card:Flare:Remora", {"player": "yellow"}))
    assert {"A18", "A19"} <= set(g.hand("yellow"))
    assert "A17" in g.hand("blue")
    assert len(g.hand("blue")) == 7 - 2 + 1


def test_remora_super_follows_with_two_cards():
    g = game(hands={"red": ["A1", "Flare:Remora", "A5", "A6", "A7", "A9", "A10"]}, options={"flares": True})
    yellow_earns_rewards(g, lambda g: g.use("red", "card:Flare:Remora"))
    follow(g)
    assert {"A17", "A16"} <= set(g.hand("red"))
    assert len(g.hand("red")) == 7 - 2 + 2


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_yellow_retrieves(tokens):
    """An ffg game: red (Remora) loses 2 ships at blue-2; yellow, blue's ally, takes 2 ships back as rewards."""
    from engine.scenario import Scenario

    g = Scenario(players=3, powers={"red": ["Remora"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A1", "A4"], "blue": ["A20", "N"]}, exact_hands=True, tokens=tokens,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    if g.warp("red"):
        g.regroup("red", "red-0")
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": 2})
    g.play("red", "A1")
    g.play("blue", "A20")
    assert g.resolved()["winner"] == "defense"
    g.place("yellow", {"yellow-0": 2})
    g.rewards("yellow", cards=0, tokens=2)
    g.place("yellow", {"yellow-1": 2})
    return g


def test_remora_ffg_may_not_retrieve_a_ship_lost_in_this_encounter():
    g = ffg_yellow_retrieves({"yellow-4": {}})
    assert g.warp("red") == 2 and g.warp("yellow") == 2
    # red's only ships in the warp went there this encounter: it is not asked (Mayfair reading: it may follow)
    assert not [p for p in g.prompts("red") if p["kind"] == "reaction"]


def test_remora_ffg_retrieves_a_ship_that_was_in_the_warp_before_the_encounter():
    g = ffg_yellow_retrieves({"yellow-4": {}, "red-4": {}})
    assert g.warp("red") == 3 + 2  # 4 there before, 1 retrieved at the regroup, 2 lost now
    follow(g)
    g.place("red", {"red-1": 1})
    assert g.warp("red") == 4 and g.tokens("red-1") == {"red": 5}
