"""Kamikaze trades tokens for cards before the cards are chosen; its flares trade smaller or fight on."""

from tests.engine.scenarios import offered, red_attacks_blue

WEAK_RED = ["A4", "A5", "A6", "A7", "C", "C", "C"]
BLUE = ["A12", "C", "C", "C", "C", "C", "C"]
DECK = ["A30", "A18", "A19", "A17", "A16", "A13"]


def game(red_power="Kamikaze", hands=None, **kw):
    stacked = {"red": WEAK_RED, "blue": BLUE, **(hands or {})}
    return red_attacks_blue(red_power, "Filch", "Mutant", stacked, deck=DECK, **kw)


def test_kamikaze_power_sacrifices_tokens_for_the_card_that_wins():
    g = game()
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.use("red", "power:Kamikaze", {"tokens": {"red-1": 2}})
    assert g.warp("red") == 2
    assert g.tokens("red-1") == {"red": 2}
    assert {"A30", "A18", "A19", "A17"} <= set(g.hand("red"))
    assert len(g.hand("red")) == 7 + 4
    g.play("red", "A30")
    g.play("blue", "A12")
    result = g.resolved()
    assert result["totals"] == {"offense": 32, "defense": 16}
    assert result["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2}


def test_kamikaze_off_after_power_loss_the_weak_hand_loses():
    g = game(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps two home bases
    g.regroup("red", None)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    assert "power:Kamikaze" not in g.abilities("red")
    g.play("red", "A7")
    g.play("blue", "A12")
    result = g.resolved()
    assert result["totals"] == {"offense": 9, "defense": 16}
    assert result["winner"] == "defense"
    assert "A30" not in g.hand("red")
    assert not [e for e in g.log if e["type"] == "PowerUsed"]


def test_kamikaze_wild_lets_the_defense_buy_a_winning_card():
    g = game(red_power="Mind", hands={"red": ["A12", "A4", "A5", "A6", "A7", "A9", "A10"],
                                      "blue": ["A1", "Flare:Kamikaze", "C", "C", "C", "C", "C"]},
             options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.use("blue", "card:Flare:Kamikaze", {"tokens": {"blue-0": 2}})
    assert g.warp("blue") == 2
    assert {"A30", "A18", "A19", "A17"} <= set(g.hand("blue"))
    g.play("red", "A12")
    g.play("blue", "A30")
    result = g.resolved()
    assert result["totals"] == {"offense": 14, "defense": 34}
    assert result["winner"] == "defense"


def test_kamikaze_super_makes_each_sacrificed_token_add_two():
    def play(with_flare):
        g = game(hands={"red": ["A12", "Flare:Kamikaze", "A4", "A5", "A6", "A7", "C"],
                        "blue": ["A15", "C", "C", "C", "C", "C", "C"]}, options={"flares": True})
        g.launch({"red-0": 2}, "blue-2")
        g.invite_none()
        if with_flare:
            g.use("red", "card:Flare:Kamikaze")
        g.use("red", "power:Kamikaze", {"tokens": {"red-1": 3}})
        g.play("red", "A12")
        g.play("blue", "A15")
        return g.resolved()

    plain = play(False)  # 12 + 2 against 15 + 4
    assert plain["totals"] == {"offense": 14, "defense": 19}
    assert plain["winner"] == "defense"
    result = play(True)  # three sacrificed tokens add 2 each
    assert result["totals"] == {"offense": 20, "defense": 19}
    assert result["winner"] == "offense"


def test_kamikaze_wild_sacrifices_only_the_tokens_still_there_when_it_applies():
    """A response applied first may move the very tokens named (found by 10,000 random games): red
    sacrifices its one token on red-1, blue tries a Card Zap, red cancels the zap with Void's Wild paid
    with that same token; the sacrifice then finds nothing left, and draws nothing."""
    hands = {"red": ["A8", "Flare:Kamikaze", "Flare:Void"], "blue": ["A12", "CardZap"]}
    g = red_attacks_blue("Mind", "Filch", "Clone", hands, tokens={"red-1": {"red": 1}},
                         options={"flares": True, "edicts": True})
    g.regroup("red", None)  # (its other three tokens of red-1 are in the warp)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    offered(g, "red", "card:Flare:Kamikaze")  # the planning window
    g.use("red", "card:Flare:Kamikaze", {"tokens": {"red-1": 1}})
    g.use("blue", "card:CardZap.1")
    g.use("red", "card:Flare:Void", {"token_from": "red-1"})
    while any(p["kind"] == "response" for p in g.prompts()):
        g.command(next(p for p in g.prompts() if p["kind"] == "response")["player"], "pass")
    assert g.tokens("red-1") == {}  # the one token went once, for Void's Wild
    losses = [e["payload"] for e in g.log if e["type"] == "TokensMoved"
              and e["payload"]["reason"] in ("Void Wild Flare", "Kamikaze Wild Flare")]
    assert losses == [{"moves": [["red", "red-1", "warp", 1]], "reason": "Void Wild Flare"}]
    assert not [e for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Kamikaze Wild Flare"]
