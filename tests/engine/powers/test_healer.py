"""Healer may send other players' lost tokens home for a card each; its flares cancel a zap or raise the fee."""

from tests.engine.scenarios import challenge, red_attacks_blue

RED = ["A20", "A4", "A5", "A6", "A7", "A9", "A10"]
BLUE = ["A1", "C", "A8", "A11", "A12", "A13", "A14"]
YELLOW = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def game(yellow_power="Healer", hands=None, **kw):
    stacked = {"red": RED, "blue": BLUE, "yellow": YELLOW, **(hands or {})}
    return red_attacks_blue("Mind", "Filch", yellow_power, stacked, **kw)


def blue_loses_blue_2(g, before_cards=None):
    """Red attacks blue-2 (4 blue tokens) with two tokens, Attack 20 against Attack 1."""
    challenge(g, "A20", "A1", red_tokens=2, after_launch=before_cards)
    return g.resolved()


def heal(g, players):
    return g.answer("yellow", "reaction", "use", {"players": players}, ability="power:Healer")


def test_healer_power_sends_the_losers_home_and_draws_a_card():
    g = game(deck=["A30"])
    assert blue_loses_blue_2(g)["winner"] == "offense"
    assert g.warp("blue") == 4
    heal(g, ["blue"])
    g.place("blue", {"blue-0": 2, "blue-1": 2})
    assert g.warp("blue") == 0
    assert g.tokens("blue-0") == {"blue": 6} and g.tokens("blue-1") == {"blue": 6}
    assert g.tokens("blue-2") == {"red": 2}
    assert len(g.hand("yellow")) == 8 and "A30" in g.hand("yellow")


def test_healer_power_may_decline():
    g = game()
    blue_loses_blue_2(g)
    g.answer("yellow", "reaction", "decline")
    assert g.warp("blue") == 4
    assert len(g.hand("yellow")) == 7


def test_healer_power_is_not_offered_for_its_own_losses():
    g = game(hands={"red": ["A1", "A4", "A5", "A6", "A7", "A9", "A10"], "blue": ["A20", "C", "C", "C", "C", "C", "C"]})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.play("red", "A1")
    g.play("blue", "A20")
    g.resolved()
    owed = g.owe("yellow", "reaction")
    # yellow may heal red, not itself
    assert owed["options"][0]["args"]["players"]["values"] == ["red"]
    heal(g, ["red"])
    assert g.warp("yellow") == 1


def test_healer_off_after_power_loss_no_healing_is_offered():
    g = game(tokens={"yellow-2": {}, "yellow-3": {}, "yellow-4": {}})  # yellow keeps two home bases
    blue_loses_blue_2(g)
    assert not [p for p in g.prompts() if p["kind"] == "reaction"]
    assert g.warp("blue") == 4
    assert len(g.hand("yellow")) == 7


def healer_wild_against_a_zap_on_macron(holder: str):
    """Blue zaps red's Macron for the challenge; ``holder`` holds Healer's flare (no Healer in the game)."""
    hands = {"red": ["A12", "A4", "A5", "A6", "A7", "A9", "A10"], "blue": ["A11", "CosmicZap", "C", "C", "C", "C", "C"],
             "yellow": ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]}
    hands[holder] = hands[holder][:-1] + ["Flare:Healer"]
    g = red_attacks_blue("Macron", "Filch", "Mutant", hands, options={"edicts": True, "flares": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("blue", "card:CosmicZap", {"target": "red:Macron"})
    return g


def test_healer_wild_cancels_a_cosmic_zap_played_on_its_holder():
    """FFG's Wild: a Cosmic Zap played on you is discarded without effect."""
    g = healer_wild_against_a_zap_on_macron("red")
    assert g.abilities("red") == ["card:Flare:Healer"]
    g.use("red", "card:Flare:Healer")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A11")
    # Macron's single token still counts 4: 12 + 4 against 11 + 4
    assert g.resolved()["totals"] == {"offense": 16, "defense": 15}
    assert g.resolved()["winner"] == "offense"
    cancelled = [e["payload"]["target"]["ability"] for e in g.log if e["type"] == "UseCancelled"]
    assert cancelled == ["card:CosmicZap.1"]


def test_healer_wild_cannot_cancel_a_zap_played_on_another_player():
    g = healer_wild_against_a_zap_on_macron("yellow")
    assert not [p for p in g.prompts() if p["kind"] == "response"]
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A11")
    assert g.resolved()["totals"] == {"offense": 13, "defense": 15}  # the zap stands: Macron's token counts 1
    assert "Flare:Healer" in g.hand("yellow")


def test_healer_super_draws_a_card_per_token_healed():
    g = game(hands={"yellow": ["Flare:Healer", "A5", "A6", "A7", "A8", "A9", "A10"]}, options={"flares": True})
    blue_loses_blue_2(g, lambda g: g.use("yellow", "card:Flare:Healer"))
    heal(g, ["blue"])
    g.place("blue", {"blue-3": 4})
    assert g.warp("blue") == 0
    assert len(g.hand("yellow")) == 6 + 4


def test_healer_cannot_reach_tokens_lost_onto_the_reverse_warps_fan():
    """002: tokens on the fan are inaccessible to the players (14.19)."""
    g = game(options={"reverse_warp": True})
    assert blue_loses_blue_2(g)["winner"] == "offense"
    assert g.tokens("fan:red") == {"blue": 4}
    assert not [p for p in g.prompts("yellow") if p["kind"] == "reaction"]
    assert len(g.hand("yellow")) == 7
