"""Warp Break (RULES.md 6): any player, at the start of a challenge, takes up to 4 of its tokens from the warp."""

from tests.engine.scenarios import red_attacks_blue

PLAIN = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
BREAK = ["WarpBreak", "A11", "A12", "A13", "A14", "A15", "A16"]


def break_game(yellow_hand=BREAK, red_hand=PLAIN, tokens=None):
    # yellow starts with 6 tokens in the warp: yellow-0 is empty and yellow-1 holds 2
    layout = {"yellow-0": {}, "yellow-1": {"yellow": 2}} if tokens is None else tokens
    return red_attacks_blue("Filch", "Mutant", "Mind",
                            {"red": red_hand, "blue": PLAIN, "yellow": yellow_hand}, options={"edicts": True},
                            tokens=layout)


def test_warp_break_lets_any_player_take_four_tokens_from_the_warp():
    g = break_game()
    assert g.warp("yellow") == 6
    offer = next(o for o in g.options("yellow") if o["action"] == "use")
    assert offer["args"]["count"] == {"type": "count", "min": 1, "max": 4}
    g.use("yellow", "card:WarpBreak", {"count": 4})
    g.place("yellow", {"yellow-1": 2, "yellow-4": 2})
    assert g.warp("yellow") == 2
    assert g.tokens("yellow-1") == {"yellow": 4} and g.tokens("yellow-4") == {"yellow": 6}
    assert "WarpBreak.1" in g.state["discard"]


def test_warp_break_takes_fewer_if_the_player_chooses():
    g = break_game()
    g.use("yellow", "card:WarpBreak", {"count": 1})
    g.place("yellow", {"yellow-2": 1})
    assert g.warp("yellow") == 5
    assert g.tokens("yellow-2") == {"yellow": 5}


def test_warp_break_frees_the_offense_to_launch_a_full_cone():
    # red has only its last token on red-0 and 19 in the warp
    layout = {"red-0": {"red": 1}, "red-1": {}, "red-2": {}, "red-3": {}, "red-4": {}}
    g = break_game(yellow_hand=PLAIN, red_hand=BREAK, tokens=layout)
    g.use("red", "card:WarpBreak", {"count": 4})
    # one base only: nothing to choose, the tokens land there
    assert g.tokens("red-0") == {"red": 5} and g.warp("red") == 15
    g.regroup("red", "red-0")
    assert g.owe("red", "launch")["options"][0]["args"]["tokens"]["max"] == 4


def test_warp_break_offers_no_more_than_the_warp_holds_and_nothing_with_an_empty_warp():
    g = break_game(tokens={"yellow-0": {"yellow": 2}})
    offer = next(o for o in g.options("yellow") if o["action"] == "use")
    assert offer["args"]["count"]["max"] == 2
    g = break_game(tokens={})
    assert g.abilities("yellow") == []
    assert not [p for p in g.prompts() if p["kind"] == "window"]
