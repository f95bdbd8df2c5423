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


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def ffg_negotiated():
    """An ffg game of four: red attacks blue-2 (Grudge); blue invites yellow, who declines; two Negotiates."""
    g = Scenario(players=4, powers={"red": ["Filch"], "blue": ["Grudge"], "yellow": ["Mutant"], "green": ["Mind"]},
                 hands={"red": ["N", "A4", "A5"], "blue": ["N", "A6", "A7"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite("red", [])
    g.invite("blue", ["yellow"])
    g.decline("yellow")
    g.play("red", "N")
    g.play("blue", "N")
    g.pass_windows()
    return g


def test_grudge_ffg_a_deal_made_counts_as_a_win_the_snubbing_player_loses_one_ship():
    from engine.scenario import terms

    g = ffg_negotiated()
    g.propose("blue", terms(defense_gives={"count": 1}))
    g.accept("red", 1)
    g.pass_windows()
    g.give("blue", [next(c for c in g.hand("blue") if c.startswith("A6"))])
    g.lose("yellow", {"yellow-3": 1})  # Mayfair reading: a deal costs nobody anything
    assert [e["payload"]["made"] for e in g.log if e["type"] == "DealConcluded"] == [True]
    assert g.warp("yellow") == 1 and g.tokens("yellow-3") == {"yellow": 3}
    assert g.warp("green") == 0 and g.warp("red") == 0 and g.warp("blue") == 0


def test_grudge_ffg_a_failed_deal_counts_as_a_loss_the_snubbing_player_loses_four_ships():
    g = ffg_negotiated()
    g.give_up("red")
    g.give_up("blue")
    g.lose("red", {"red-1": 3})
    g.lose("blue", {"blue-3": 3})
    g.lose("yellow", {"yellow-3": 4})
    assert [e["payload"]["made"] for e in g.log if e["type"] == "DealConcluded"] == [False]
    assert g.warp("yellow") == 4 and g.tokens("yellow-3") == {}
    assert g.warp("red") == 3 and g.warp("blue") == 3 and g.warp("green") == 0
