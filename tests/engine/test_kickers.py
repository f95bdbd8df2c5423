"""Kickers (RULES.md 7, rulebook 004): played face down with a challenge card, they multiply.

An Attack's value is multiplied; a Compromise's consolation is multiplied; with War cards, a
War's kicker multiplies the opponent's token loss (or the War player's own when it loses to a
Compromise) and a kicker against a War multiplies its player's consolation. A loss multiplied
beyond the tokens in the challenge comes from bases; a multiplier below 1 brings tokens back
from the warp. Only the main players are affected, never their allies.

Every scenario: red is the offense and challenges blue-2, where blue defends with 4 tokens
unless the layout says otherwise. The kicker deck is x-1, x0, x2, x2, x3.
"""

from tests.engine.scenarios import last_outcome, red_attacks_blue

RED = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
BLUE = ["A11", "A12", "A13", "A14", "A15", "A16", "A17"]
YELLOW = ["A18", "A19", "C", "C", "C", "C", "C"]


def kicker_game(red=(), blue=(), tokens=None):
    """Red and blue hold the named cards first, filled up with plain Attacks."""
    hands = {"red": list(red) + RED[len(red):], "blue": list(blue) + BLUE[len(blue):], "yellow": YELLOW}
    return red_attacks_blue("Mind", "Mutant", "Filch", hands, tokens=tokens,
                            options={"war_cards": True, "kickers": True})


def launch(g, red_tokens=3, yellow_defends=0):
    """Red launches at blue-2; yellow defends with some tokens if asked to."""
    g.launch({"red-0": red_tokens}, "blue-2")
    if not yellow_defends:
        g.invite_none()
        return
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.join("yellow", "defense", {"yellow-0": yellow_defends})


def play(g, player, card, kicker=None):
    """Commit a challenge card, with the kicker of that value (``Kx2``) from the hand if named."""
    extra = {}
    if kicker:
        extra["kicker"] = next(c for c in g.hand(player) if c.split(".")[0] == kicker)
    g.play(player, card, **extra)


def cards_gained(g, player, before):
    return [c for c in g.hand(player) if c not in before]


# Attacks -------------------------------------------------------------------------------------

def test_kicker_doubles_an_attack_and_turns_a_loss_into_a_win():
    g = kicker_game(red=["A8", "Kx2"], blue=["A12"])
    launch(g)
    play(g, "red", "A8", "Kx2")
    play(g, "blue", "A12")
    # 8 x 2 + 3 = 19 against 12 + 4 = 16 (without the kicker red would lose 11 to 16)
    assert last_outcome(g)["totals"] == {"offense": 19, "defense": 16}
    assert g.tokens("blue-2") == {"red": 3}
    assert "Kx2.1" in g.state["discard"] or "Kx2.2" in g.state["discard"]


def test_kicker_minus_one_makes_an_attack_count_against_its_side():
    g = kicker_game(red=["A10", "Kx-1"], blue=["A11"])
    launch(g)
    play(g, "red", "A10", "Kx-1")
    play(g, "blue", "A11")
    assert last_outcome(g)["totals"] == {"offense": -10 + 3, "defense": 11 + 4}
    assert g.warp("red") == 3


def test_kicker_zero_leaves_only_the_tokens():
    g = kicker_game(red=["A40"], blue=["A11", "Kx0"])
    launch(g)
    play(g, "red", "A40")
    play(g, "blue", "A11", "Kx0")
    assert last_outcome(g)["totals"] == {"offense": 43, "defense": 0 + 4}


# Compromises -----------------------------------------------------------------------------------

def test_kicker_doubles_a_compromises_consolation():
    g = kicker_game(red=["A10"], blue=["C", "Kx2"], tokens={"blue-2": {"blue": 2}})
    launch(g)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    play(g, "red", "A10")
    play(g, "blue", "C", "Kx2")
    assert last_outcome(g)["consolation"]["count"] == 2 * 2
    assert g.warp("blue") == 2 + 2  # the layout's two spare tokens plus the two lost
    gained = cards_gained(g, "blue", blue_before)
    assert len(gained) == 4 and set(gained) <= set(red_before)
    assert len(g.hand("red")) == 6 - 4


def test_kicker_below_one_on_a_compromise_gives_no_consolation():
    g = kicker_game(red=["A10"], blue=["C", "Kx-1"])
    launch(g)
    play(g, "red", "A10")
    play(g, "blue", "C", "Kx-1")
    assert last_outcome(g)["consolation"]["count"] == 0  # decision: never negative
    assert len(g.hand("red")) == 6
    assert g.warp("blue") == 4


# War cards -------------------------------------------------------------------------------------

def test_war_kicker_multiplies_the_attackers_loss_and_the_rest_comes_from_bases():
    g = kicker_game(red=["War", "Kx2"], blue=["A15"])
    launch(g, yellow_defends=2)
    play(g, "red", "War", "Kx2")
    play(g, "blue", "A15")
    # blue loses its 4 tokens on blue-2, then 4 more of its choice from its bases
    prompt = g.owe("blue", "choose_losses")
    assert prompt["info"]["count"] == 4
    assert "cone:defense" not in prompt["options"][0]["args"]["tokens"]["sources"]
    g.lose("blue", {"blue-0": 3, "blue-4": 1})
    assert g.warp("blue") == 8
    assert g.tokens("blue-0") == {"blue": 1} and g.tokens("blue-4") == {"blue": 3}
    assert g.warp("yellow") == 2  # allies are not affected by kickers
    # consolation counts the tokens lost from the challenge only (004: the extra ones were not in it)
    assert last_outcome(g)["consolation"]["count"] == 4
    assert len(g.hand("red")) == 5 - 4


def test_war_kicker_zero_gives_the_loser_its_tokens_back_from_the_warp():
    g = kicker_game(red=["War", "Kx0"], blue=["A15"])
    launch(g)
    play(g, "red", "War", "Kx0")
    play(g, "blue", "A15")
    # 4 x 0 = 0: blue loses the 4 on blue-2, then takes 4 back from the warp to its bases
    g.place("blue", {"blue-0": 1, "blue-1": 1, "blue-3": 2})
    assert g.warp("blue") == 0
    assert g.tokens("blue-2") == {"red": 3}
    assert (g.tokens("blue-0"), g.tokens("blue-3")) == ({"blue": 5}, {"blue": 6})
    assert last_outcome(g)["winner"] == "offense"


def test_war_kicker_minus_one_brings_back_as_many_tokens_as_the_warp_holds():
    # blue starts with 3 tokens in the warp (blue-0 holds only 1)
    g = kicker_game(red=["War", "Kx-1"], blue=["A15"], tokens={"blue-0": {"blue": 1}})
    assert g.warp("blue") == 3
    launch(g)
    play(g, "red", "War", "Kx-1")
    play(g, "blue", "A15")
    # 4 x -1 = -4: blue loses 4 (warp 7) then would take back 8; the warp holds only 7
    prompt = g.owe("blue", "place_tokens")
    assert prompt["info"]["count"] == 7
    g.place("blue", {"blue-0": 7})
    assert g.warp("blue") == 0
    assert g.tokens("blue-0") == {"blue": 8}


def test_war_kicker_against_a_compromise_multiplies_the_war_players_own_loss():
    g = kicker_game(red=["War", "Kx3"], blue=["C"])
    launch(g, red_tokens=2)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    play(g, "red", "War", "Kx3")
    play(g, "blue", "C")
    # red loses 2 x 3 = 6: its 2 on the cone, then 4 from its bases
    g.lose("red", {"red-0": 2, "red-1": 2})
    assert g.warp("red") == 6
    assert (g.tokens("red-0"), g.tokens("red-1")) == ({}, {"red": 2})
    assert g.tokens("blue-2") == {"blue": 4}
    # blue's consolation is not multiplied by red's kicker: one card per token it had
    gained = cards_gained(g, "blue", blue_before)
    assert len(gained) == 4 and set(gained) <= set(red_before)


def test_war_against_war_each_kicker_multiplies_the_other_sides_loss():
    g = kicker_game(red=["War", "Kx3"], blue=["War", "Kx2"])
    launch(g, red_tokens=3)
    play(g, "red", "War", "Kx3")
    play(g, "blue", "War", "Kx2")
    # red's x3 multiplies blue's loss: 4 -> 12; blue's x2 multiplies red's: 3 -> 6
    g.lose("red", {"red-1": 3})
    g.lose("blue", {"blue-0": 4, "blue-1": 4})
    assert g.warp("blue") == 12 and g.warp("red") == 6
    assert last_outcome(g)["extra_losses"] == {"blue": 8, "red": 3}


def test_kicker_against_a_war_multiplies_the_attackers_consolation():
    g = kicker_game(red=["War"], blue=["A15", "Kx2"], tokens={"blue-2": {"blue": 2}})
    launch(g)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    play(g, "red", "War")
    play(g, "blue", "A15", "Kx2")
    assert last_outcome(g)["winner"] == "offense"
    assert last_outcome(g)["consolation"]["count"] == 2 * 2
    gained = cards_gained(g, "blue", blue_before)
    assert len(gained) == 4 and set(gained) <= set(red_before)
    assert g.warp("blue") == 2 + 2


def test_kicker_against_a_war_multiplies_the_compromises_consolation():
    g = kicker_game(red=["War"], blue=["C", "Kx3"], tokens={"blue-2": {"blue": 1}})
    launch(g)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    play(g, "red", "War")
    play(g, "blue", "C", "Kx3")
    assert last_outcome(g)["winner"] == "defense"
    gained = cards_gained(g, "blue", blue_before)
    assert len(gained) == 3 and set(gained) <= set(red_before)
    assert g.tokens("blue-2") == {"blue": 1}
    assert g.warp("red") == 3
