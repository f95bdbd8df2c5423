"""Grudge: players who decline the Grudge's invitation lose tokens once the challenge is decided."""

from engine.scenario import Scenario

STRONG = ["A20", "A4", "A5", "A6", "A7", "A8", "A9"]
WEAK = ["A1", "A4", "C", "C", "C", "C", "C"]


def grudge_game(blue_power="Grudge", blue_hand=None, red_hand=None, purple_power="Mind", options=None, **kw):
    """Red attacks blue-2; blue (the defense) invites yellow, who will decline; purple stands by."""
    hands = {"red": red_hand or WEAK, "blue": blue_hand or STRONG}
    powers = {"red": ["Filch"], "blue": [blue_power], "yellow": ["Mutant"], "purple": [purple_power]}
    return Scenario(players=4, powers=powers, hands=hands, destiny=["blue.1"], first="red", options=options, **kw)


def snubbed(g, red_card="A1", blue_card="A20"):
    """Red launches 2 tokens; blue invites yellow, who declines; the cards are played."""
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.decline("yellow")
    g.play("red", red_card)
    g.play("blue", blue_card)


def test_grudge_power_a_snubbing_player_loses_one_token_when_the_grudge_wins():
    g = grudge_game()
    snubbed(g)
    assert g.outcome["winner"] == "defense"
    g.lose("yellow", {"yellow-3": 1})
    assert g.warp("yellow") == 1
    assert g.tokens("yellow-3") == {"yellow": 3}
    assert g.warp("purple") == 0  # never invited: no grudge
    assert g.warp("red") == 2


def test_grudge_power_a_snubbing_player_loses_four_tokens_when_the_grudge_loses():
    g = grudge_game(blue_hand=WEAK, red_hand=STRONG)
    snubbed(g, red_card="A20", blue_card="A1")
    assert g.outcome["winner"] == "offense"
    owed = g.owe("yellow", "choose_losses")
    assert owed["info"]["count"] == 4
    g.lose("yellow", {"yellow-1": 2, "yellow-4": 2})
    assert g.warp("yellow") == 4
    assert g.tokens("blue-2") == {"red": 2} and g.warp("blue") == 4


def test_grudge_off_after_power_loss_nobody_pays():
    lost = {"blue-0": {}, "blue-1": {}, "blue-3": {}}  # blue keeps blue-2 and blue-4: fewer than three
    g = grudge_game(tokens=lost)
    snubbed(g)
    assert g.outcome["winner"] == "defense"
    g.pass_windows()
    assert not any(p["kind"] == "choose_losses" for p in g.prompts())
    assert g.warp("yellow") == 0
    assert g.state["turn"]["offense"] == "blue"  # red lost: its turn is over and nobody paid


def test_grudge_off_when_a_cosmic_zap_cancels_the_revenge():
    red_hand = ["CosmicZap", "A1", "A4", "C", "C", "C", "C"]
    g = grudge_game(red_hand=red_hand, options={"edicts": True})
    snubbed(g)
    g.pass_windows("red", "response")
    g.use("red", "card:CosmicZap")  # answering Grudge's announced revenge
    g.pass_windows()
    assert not any(p["kind"] == "choose_losses" for p in g.prompts())
    assert g.warp("yellow") == 0
    assert g.state["turn"]["offense"] == "blue"


def test_grudge_wild_the_winners_allies_gain_nothing_when_you_lose():
    blue_hand = ["Flare:Grudge", "A1", "A4", "C", "C", "C", "C"]
    g = grudge_game(blue_power="Mind", blue_hand=blue_hand, red_hand=STRONG, purple_power="Grudge",
                    options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 2})
    g.play("red", "A20")
    g.play("blue", "A1")
    g.use("blue", "card:Flare:Grudge")  # after the reveal, blue sees it will lose
    g.pass_windows()
    g.place("yellow", {"yellow-0": 2})  # yellow's tokens go home instead of landing
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 2}
    assert g.tokens("yellow-0") == {"yellow": 4}
    assert g.warp("yellow") == 0 and g.warp("blue") == 4


def test_grudge_wild_not_played_the_winners_allies_land_as_usual():
    g = grudge_game(blue_power="Mind", blue_hand=WEAK, red_hand=STRONG, purple_power="Grudge")
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 2})
    g.play("red", "A20")
    g.play("blue", "A1")
    assert g.tokens("blue-2") == {"red": 2, "yellow": 2}


def test_grudge_super_the_snubbing_player_loses_four_even_though_the_grudge_wins():
    blue_hand = ["Flare:Grudge", "A20", "A4", "C", "C", "C", "C"]
    g = grudge_game(blue_hand=blue_hand, options={"flares": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.decline("yellow")
    g.use("blue", "card:Flare:Grudge")  # in the alliance window, once yellow has declined
    g.play("red", "A1")
    g.play("blue", "A20")
    assert g.outcome["winner"] == "defense"
    assert g.owe("yellow", "choose_losses")["info"]["count"] == 4
    g.lose("yellow", {"yellow-0": 4})
    assert g.warp("yellow") == 4


def test_grudge_power_an_invitee_who_joins_the_other_side_has_declined_the_grudge_too():
    """14.7: yellow, invited by both, joins the offense: it turned the Grudge down."""
    g = grudge_game()
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", ["yellow"])
    g.invite("blue", ["yellow"])
    g.join("yellow", "offense", {"yellow-0": 1})
    g.play("red", "A1")
    g.play("blue", "A20")
    assert g.outcome["winner"] == "defense"
    owed = g.owe("yellow", "choose_losses")
    assert owed["info"] == {"count": 1, "reason": "Grudge"}
