"""Mobius Tubes (RULES.md 6): the offense, at the start of its challenge, frees every token in the warp."""

from tests.engine.scenarios import red_attacks_blue

# red starts with 2 tokens in the warp, blue with 3, yellow with 4
LAYOUT = {"red-0": {"red": 2}, "blue-0": {"blue": 1}, "yellow-0": {}}
PLAIN = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]


def tubes_game(red_hand, blue_hand=PLAIN, tokens=LAYOUT):
    return red_attacks_blue("Filch", "Mutant", "Mind", {"red": red_hand, "blue": blue_hand, "yellow": PLAIN},
                            options={"edicts": True}, tokens=tokens)


def test_mobius_tubes_returns_every_token_in_the_warp_to_its_owners_bases():
    g = tubes_game(["MobiusTubes", "A11", "A12", "A13", "A14", "A15", "A16"])
    assert (g.warp("red"), g.warp("blue"), g.warp("yellow")) == (2, 3, 4)
    assert g.abilities("red") == ["card:MobiusTubes.1"]
    g.use("red", "card:MobiusTubes")
    # every owner places its own tokens among its bases
    assert {p["player"] for p in g.prompts() if p["kind"] == "place_tokens"} == {"red", "blue", "yellow"}
    g.place("red", {"red-0": 2})
    g.place("blue", {"blue-0": 3})
    g.place("yellow", {"yellow-1": 1, "yellow-2": 3})
    assert (g.warp("red"), g.warp("blue"), g.warp("yellow")) == (0, 0, 0)
    assert g.tokens("red-0") == {"red": 4}
    assert g.tokens("blue-0") == {"blue": 4}
    assert g.tokens("yellow-1") == {"yellow": 5} and g.tokens("yellow-2") == {"yellow": 7}
    assert g.tokens("yellow-0") == {}  # not a base any more, so not a place to return to
    assert "MobiusTubes.1" in g.state["discard"]
    # with nothing in the warp, red has no regroup to make: the challenge goes on to the launch
    assert g.owe("red", "launch")


def test_mobius_tubes_gives_back_tokens_a_player_then_launches():
    # red has a single base left with one token: without the tubes it could launch only that one
    layout = {"red-0": {"red": 1}, "red-1": {}, "red-2": {}, "red-3": {}, "red-4": {}}
    g = tubes_game(["MobiusTubes", "A11", "A12", "A13", "A14", "A15", "A16"], tokens=layout)
    g.use("red", "card:MobiusTubes")
    assert g.warp("red") == 0 and g.tokens("red-0") == {"red": 20}
    launch = g.owe("red", "launch")
    assert launch["options"][0]["args"]["tokens"]["max"] == 4


def test_mobius_tubes_is_offered_only_to_the_offense_and_only_with_tokens_in_the_warp():
    # blue holds the tubes but is not the offense: nobody is asked at the start of red's challenge
    g = tubes_game(PLAIN, blue_hand=["MobiusTubes", "A11", "A12", "A13", "A14", "A15", "A16"])
    assert not [p for p in g.prompts() if p["kind"] == "window"]
    assert g.prompts()[0]["kind"] == "regroup"
    # red holds them with an empty warp: not offered either
    g = tubes_game(["MobiusTubes", "A11", "A12", "A13", "A14", "A15", "A16"], tokens={})
    assert g.abilities("red") == []
    assert g.prompts("red")[0]["kind"] == "launch"
