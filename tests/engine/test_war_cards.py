"""War cards (RULES.md 7, rulebook 004): War beats Attack, loses to Compromise, and War against War both lose.

Every scenario: red is the offense and challenges blue's planet blue-2, where blue defends
with its 4 tokens; yellow stays out unless it is invited. Hands are stacked so that the
consolation cards can only come from the War player's hand.
"""

from tests.engine.scenarios import last_outcome, red_attacks_blue

RED = ["A4", "A5", "A6", "A7", "A8", "A9", "A10"]
BLUE = ["A11", "A12", "A13", "A14", "A15", "A16", "A17"]
YELLOW = ["A18", "A19", "C", "C", "C", "C", "C"]


def war_game(red_card, blue_card, tokens=None):
    """A three-player game with War cards; the named cards replace the first card of each main hand."""
    hands = {"red": [red_card] + RED[1:], "blue": [blue_card] + BLUE[1:], "yellow": YELLOW}
    return red_attacks_blue("Mind", "Mutant", "Filch", hands, options={"war_cards": True}, tokens=tokens)


def launch_and_invite(g, red_tokens=3, yellow_side=None, yellow_tokens=2):
    """Red launches at blue-2; yellow joins ``yellow_side`` if given, else nobody is invited."""
    g.launch({"red-0": red_tokens}, "blue-2")
    if yellow_side is None:
        g.invite_none()
        return
    g.invite("red", ["yellow"] if yellow_side == "offense" else [])
    g.invite("blue", ["yellow"] if yellow_side == "defense" else [])
    g.join("yellow", yellow_side, {"yellow-0": yellow_tokens})


def took_from(g, receiver, before_receiver, giver_before):
    """The cards a player gained, checked to come from the giver's hand as it was."""
    gained = [c for c in g.hand(receiver) if c not in before_receiver]
    assert set(gained) <= set(giver_before)
    return gained


def test_war_beats_an_attack_whatever_the_totals_and_the_loser_is_consoled():
    g = war_game("War", "A40")
    launch_and_invite(g, red_tokens=1, yellow_side="defense")
    red_before, blue_before = g.hand("red"), g.hand("blue")
    g.play("red", "War")
    g.play("blue", "A40")
    # 40 + 4 + 2 against a single token: the War still wins
    assert last_outcome(g)["kind"] == "war" and last_outcome(g)["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}
    assert g.warp("blue") == 4 and g.warp("yellow") == 2  # the Attack side's allies lose too
    # consolation: one card from the War player's hand per token blue itself lost (not yellow's)
    assert last_outcome(g)["consolation"] == {"player": "blue", "from": "red", "count": 4, "lost_tokens": True}
    gained = took_from(g, "blue", blue_before, red_before)
    assert len(gained) == 4
    assert len(g.hand("red")) == 6 - 4
    assert g.state["record"]["red"] == {"won": 1, "lost": 0}
    assert g.state["record"]["blue"] == {"won": 0, "lost": 1}


def test_war_on_defense_beats_the_attacking_offense_and_its_allies():
    g = war_game("A20", "War")
    launch_and_invite(g, red_tokens=4, yellow_side="offense", yellow_tokens=2)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    g.play("red", "A20")
    g.play("blue", "War")
    assert last_outcome(g)["winner"] == "defense"
    assert g.tokens("blue-2") == {"blue": 4}
    assert g.warp("red") == 4 and g.warp("yellow") == 2
    gained = took_from(g, "red", red_before, blue_before)
    assert len(gained) == 4  # red's own four tokens; yellow's two give nothing
    assert len(g.hand("blue")) == 6 - 4


def test_compromise_beats_war_and_takes_consolation_for_tokens_it_did_not_lose():
    g = war_game("War", "C")
    launch_and_invite(g, red_tokens=3)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    g.play("red", "War")
    g.play("blue", "C")
    assert last_outcome(g)["winner"] == "defense"
    assert last_outcome(g)["consolation"] == {"player": "blue", "from": "red", "count": 4, "lost_tokens": False}
    assert g.tokens("blue-2") == {"blue": 4}  # blue's tokens stay where they are
    assert g.warp("red") == 3 and g.warp("blue") == 0
    assert len(took_from(g, "blue", blue_before, red_before)) == 4
    assert len(g.hand("red")) == 2
    assert g.state["record"]["red"] == {"won": 0, "lost": 1}


def test_offensive_compromise_beats_war_lands_with_its_allies_and_is_consoled():
    g = war_game("C", "War")
    launch_and_invite(g, red_tokens=3, yellow_side="offense", yellow_tokens=2)
    red_before, blue_before = g.hand("red"), g.hand("blue")
    g.play("red", "C")
    g.play("blue", "War")
    assert last_outcome(g)["winner"] == "offense" and last_outcome(g)["succeeded"] is True
    assert g.tokens("blue-2") == {"red": 3, "yellow": 2}
    assert g.warp("blue") == 4
    assert len(took_from(g, "red", red_before, blue_before)) == 3  # red's own tokens only
    assert len(g.hand("blue")) == 6 - 3
    # a successful challenge: red may challenge again
    assert g.prompts("red")[0]["kind"] == "second_challenge"


def test_war_against_war_both_sides_lose_every_token_in_the_challenge():
    g = war_game("War", "War")
    launch_and_invite(g, red_tokens=3, yellow_side="offense", yellow_tokens=2)
    g.play("red", "War")
    g.play("blue", "War")
    assert last_outcome(g)["both_lose"] is True and last_outcome(g)["winner"] is None
    assert last_outcome(g)["succeeded"] is False
    assert g.tokens("blue-2") == {}
    assert (g.warp("red"), g.warp("yellow"), g.warp("blue")) == (3, 2, 4)
    assert last_outcome(g).get("consolation") is None
    assert (len(g.hand("red")), len(g.hand("blue"))) == (6, 6)  # no cards change hands
    assert g.state["record"]["red"] == {"won": 0, "lost": 1}
    assert g.state["record"]["blue"] == {"won": 0, "lost": 1}
    # a failed challenge: the turn passes to blue
    assert g.state["turn"]["offense"] == "blue"


def test_war_beats_attack_even_when_the_defense_has_no_tokens_to_lose():
    g = war_game("War", "A12", tokens={"blue-2": {}})
    launch_and_invite(g, red_tokens=2)
    red_hand = len(g.hand("red")) - 1
    g.play("red", "War")
    g.play("blue", "A12")
    assert last_outcome(g)["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2}
    assert last_outcome(g)["consolation"]["count"] == 0
    assert len(g.hand("red")) == red_hand
