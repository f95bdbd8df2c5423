"""Observer keeps its allies (and itself as an ally) out of the warp; its flares feed allies or add a token."""

from tests.engine.scenarios import red_attacks_blue

LOSING_RED = ["A1", "A4", "A5", "A6", "A7", "A9", "A10"]
WINNING_BLUE = ["A20", "C", "C", "C", "C", "C", "C"]
YELLOW = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def game(red_power="Observer", yellow_power="Mutant", hands=None, **kw):
    stacked = {"red": LOSING_RED, "blue": WINNING_BLUE, "yellow": YELLOW, **(hands or {})}
    return red_attacks_blue(red_power, "Filch", yellow_power, stacked, **kw)


def offense_loses_with_yellow(g, before_cards=None):
    """Red and its ally yellow (two tokens each) attack blue-2 and lose: Attack 1 against Attack 20."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 2})
    if before_cards:
        before_cards(g)
    g.play("red", "A1")
    g.play("blue", "A20")
    return g.resolved()


def test_observer_power_sends_its_allies_home_instead_of_to_the_warp():
    g = game()
    assert offense_loses_with_yellow(g)["winner"] == "defense"
    g.place("yellow", {"yellow-3": 2})
    assert g.warp("yellow") == 0
    assert g.tokens("yellow-3") == {"yellow": 6}
    assert g.warp("red") == 2  # Observer's own tokens as a main player are not protected


def test_observer_power_protects_observer_as_an_ally():
    g = game(red_power="Mind", yellow_power="Observer")
    offense_loses_with_yellow(g)
    g.place("yellow", {"yellow-0": 2})
    assert g.warp("yellow") == 0
    assert g.tokens("yellow-0") == {"yellow": 4}
    assert g.warp("red") == 2


def test_observer_off_after_power_loss_allies_go_to_the_warp():
    g = game(tokens={"red-2": {}, "red-3": {}, "red-4": {}})  # red keeps two home bases
    g.regroup("red", None)
    offense_loses_with_yellow(g)
    assert g.warp("yellow") == 2
    assert g.tokens("yellow-0") == {"yellow": 2}


def test_observer_wild_lets_each_ally_draw_a_card():
    g = game(red_power="Mind", hands={"red": ["A1", "Flare:Observer", "A5", "A6", "A7", "A9", "A10"]},
             deck=["A30"], options={"flares": True})
    offense_loses_with_yellow(g, lambda g: g.use("red", "card:Flare:Observer"))
    assert "A30" in g.hand("yellow")
    assert len(g.hand("yellow")) == 8
    assert "Flare:Observer" in g.state["discard"]


def test_observer_super_adds_a_token_from_the_warp_to_the_launch():
    def play(with_flare):
        g = game(hands={"red": ["A10", "Flare:Observer", "A5", "A6", "A7", "A4", "A1"],
                        "blue": ["A9", "C", "C", "C", "C", "C", "C"]},
                 tokens={"red-4": {}}, options={"flares": True})
        g.regroup("red", None)
        g.launch({"red-0": 3}, "blue-2")
        if with_flare:
            g.use("red", "card:Flare:Observer")
            assert g.tokens("cone:offense") == {"red": 4}
        g.invite_none()
        g.play("red", "A10")
        g.play("blue", "A9")
        return g

    plain = play(False)  # 10 + 3 ties 9 + 4: the defense wins
    assert plain.resolved()["totals"] == {"offense": 13, "defense": 13}
    assert plain.resolved()["winner"] == "defense"
    g = play(True)
    assert g.resolved()["totals"] == {"offense": 14, "defense": 13}
    assert g.tokens("blue-2") == {"red": 4}
    assert g.warp("red") == 3
