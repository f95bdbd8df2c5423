"""Vulch: whenever another player's edict is discarded, the Vulch takes it into its hand (RULES.md 6).

The stage: red (Tripler) attacks blue-2 with 1 token and an Attack 6, tripled: 18 + 1 = 19.
Blue (Macron) defends with 4 tokens worth 4 each and an Attack 4: 4 + 16 = 20.
Zapping blue's Macron makes it 4 + 4 = 8 (red wins); zapping red's Tripler too makes red
6 + 1 = 7 (blue wins again). Yellow watches.
"""

from engine.scenario import kinds
from tests.engine.scenarios import red_attacks_blue

RED = ["A6", "CosmicZap", "A7", "A8", "A9", "A10", "A20"]
BLUE = ["A4", "A5", "C", "C", "C", "C", "C"]
FILLER = ["A11", "A12", "A13", "A14", "A15", "A17", "A18"]


def scenario(yellow_power="Vulch", red_hand=None, blue_hand=None, yellow_hand=None, options=None, **kw):
    hands = {"red": red_hand or RED, "blue": blue_hand or BLUE, "yellow": yellow_hand or FILLER}
    return red_attacks_blue("Tripler", "Macron", yellow_power, hands, exact_hands=True,
                            options={"edicts": True, "flares": True, **(options or {})}, **kw)


def dealt(g, color):
    """The cards a player was dealt at setup (wherever they are now)."""
    return next(e["payload"]["cards"] for e in g.log
                if e["type"] == "CardsMoved" and e["payload"]["dst"] == f"hand:{color}")


def committed(g):
    """Red launches 1 token at blue-2, nobody is invited, both commit their Attacks."""
    g.launch({"red-0": 1}, "blue-2")
    g.invite_none()
    g.play("red", "A6")
    g.play("blue", "A4")


def edicts(cards):
    """The edicts among some cards, by name (copy numbers depend on how the hands were stacked)."""
    return [k for k in kinds(cards) if k in ("CardZap", "CosmicZap", "MobiusTubes", "Plague")]


def test_vulch_power_takes_the_zap_red_played_and_zaps_red_back():
    g = scenario()
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    # the zap red played is discarded and comes to the Vulch's hand at once, announced as a power use
    zap = next(c for c in g.hand("yellow") if c.startswith("CosmicZap"))
    taken = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "Vulch"]
    assert taken == [{"cards": [zap], "src": "discard", "dst": "hand:yellow", "seen_by": None, "reason": "Vulch"}]
    assert any(e["type"] == "PowerUsed" and e["payload"]["power"] == "Vulch" for e in g.log)
    assert not edicts(g.state["discard"])
    g.use("yellow", "card:CosmicZap", {"target": "red:Tripler"})
    outcome = g.resolved()
    # without the Vulch red would win 19 to 8; with its zap turned against red, 7 to 8
    assert outcome["totals"] == {"offense": 7, "defense": 8}
    assert outcome["winner"] == "defense"
    assert g.warp("red") == 1 and g.tokens("blue-2") == {"blue": 4}
    # the Vulch's own zap stays discarded
    assert zap in g.state["discard"] and not edicts(g.hand("yellow"))


def test_vulch_power_takes_edicts_discarded_with_a_new_hand():
    g = scenario(blue_hand=["Plague", "MobiusTubes", "Flare:Mind"], deck=["C"] * 7)
    # blue holds no challenge card when it becomes the defense: it discards its hand and draws 7
    g.owe("red", "launch")
    assert edicts(g.hand("yellow")) == ["MobiusTubes", "Plague"]
    assert g.state["discard"] == ["Flare:Mind"]
    assert len(g.hand("blue")) == 7


def test_vulch_power_a_card_zap_and_the_edict_it_cancelled_both_come_to_the_vulch():
    g = scenario(blue_hand=["A4", "CardZap", "C", "C", "C", "C", "C"])
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    g.use("blue", "card:CardZap")
    assert edicts(g.hand("yellow")) == ["CardZap", "CosmicZap"]
    assert not edicts(g.state["discard"])
    g.use("yellow", "card:CosmicZap", {"target": "blue:Macron"})
    outcome = g.resolved()
    # red's zap was cancelled, but the Vulch zapped Macron with it: 19 against 8
    assert outcome["totals"] == {"offense": 19, "defense": 8}
    assert outcome["winner"] == "offense"


def test_vulch_power_a_zapped_take_leaves_the_edict_and_the_zap_comes_to_the_vulch():
    g = scenario(blue_hand=["A4", "CosmicZap", "C", "C", "C", "C", "C"])
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    # blue cancels the Vulch's taking of red's zap: that zap stays discarded...
    g.use("blue", "card:CosmicZap")
    cancelled = [e["payload"]["target"]["ability"] for e in g.log if e["type"] == "UseCancelled"]
    assert cancelled == ["power:Vulch"]
    reds = [c for c in dealt(g, "red") if c.startswith("CosmicZap")]
    assert edicts(g.state["discard"]) == ["CosmicZap"] and g.state["discard"][-1] in reds
    # ...but blue's own zap, discarded after use, is the next edict the Vulch takes
    assert edicts(g.hand("yellow")) == ["CosmicZap"]
    assert g.hand("yellow")[-1] not in reds
    g.use("yellow", "card:CosmicZap", {"target": "red:Tripler"})
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 7, "defense": 8}
    assert outcome["winner"] == "defense"


def test_vulch_power_own_discards_stay_in_the_discard_pile():
    g = scenario(yellow_hand=["CosmicZap"] + FILLER[:6])
    committed(g)
    g.use("yellow", "card:CosmicZap", {"target": "blue:Macron"})
    assert edicts(g.state["discard"]) == ["CosmicZap"] and not edicts(g.hand("yellow"))
    assert not any(e["type"] == "PowerUsed" and e["payload"]["power"] == "Vulch" for e in g.log)


def test_vulch_off_by_power_loss_the_zap_stays_discarded():
    g = scenario(tokens={"yellow-1": {}, "yellow-2": {}, "yellow-3": {}})
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    assert edicts(g.state["discard"]) == ["CosmicZap"] and not edicts(g.hand("yellow"))
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 19, "defense": 8}
    assert outcome["winner"] == "offense"
    assert g.tokens("blue-2") == {"red": 1}


def test_vulch_off_by_a_cosmic_zap_for_the_challenge():
    g = scenario(red_hand=["A6", "CosmicZap", "CosmicZap", "A7", "A8", "A9", "A10"])
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "yellow:Vulch"})
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    # neither zap goes to the zapped Vulch
    assert edicts(g.state["discard"]) == ["CosmicZap", "CosmicZap"]
    assert not edicts(g.hand("yellow"))
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 19, "defense": 8}
    assert outcome["winner"] == "offense"


def test_vulch_wild_takes_a_discarded_zap_and_turns_the_challenge():
    g = scenario(yellow_power="Mind", yellow_hand=["Flare:Vulch"] + FILLER[:6])
    committed(g)
    g.use("red", "card:CosmicZap", {"target": "blue:Macron"})
    zap = g.state["discard"][-1]  # nobody is the Vulch: red's zap lies on the discard pile
    assert edicts([zap]) == ["CosmicZap"]
    g.use("yellow", "card:Flare:Vulch", {"edict": zap})
    assert zap in g.hand("yellow") and not edicts(g.state["discard"])
    assert "Flare:Vulch" in g.state["discard"]  # a flare is discarded after one use (mayfair)
    g.use("yellow", "card:CosmicZap", {"target": "red:Tripler"})
    outcome = g.resolved()
    assert outcome["totals"] == {"offense": 7, "defense": 8}
    assert outcome["winner"] == "defense"


def test_vulch_super_takes_back_every_discarded_edict_its_own_included():
    g = scenario(yellow_hand=["CosmicZap", "Flare:Vulch"] + FILLER[:5])
    committed(g)
    g.use("yellow", "card:CosmicZap", {"target": "blue:Macron"})
    assert edicts(g.state["discard"]) == ["CosmicZap"]
    g.use("yellow", "card:Flare:Vulch")
    played = [e["payload"] for e in g.log if e["type"] == "CardPlayed" and e["payload"]["card"] == "Flare:Vulch"]
    assert played[0]["effect"] == "super"
    assert edicts(g.hand("yellow")) == ["CosmicZap"] and not edicts(g.state["discard"])
    g.use("yellow", "card:CosmicZap", {"target": "red:Tripler"})
    outcome = g.resolved()
    # both powers zapped by one card: 7 against 8 (19 against 8 with Macron alone zapped)
    assert outcome["totals"] == {"offense": 7, "defense": 8}
    assert outcome["winner"] == "defense"


def test_vulch_power_takes_the_edicts_of_a_punted_hand_before_the_turn_passes():
    g = scenario(red_hand=["Plague", "CosmicZap", "A4", "A5", "A6", "A7", "A8"], deck=["C"] * 7,
                 options={"punt": True})
    g.punt()
    g.pass_windows()  # once the Vulch holds the zap it may answer its own second take: it passes
    assert edicts(g.hand("yellow")) == ["CosmicZap", "Plague"]
    assert not edicts(g.state["discard"])
    assert len(g.hand("red")) == 7 and g.state["turn"]["offense"] == "blue"


# --- the FFG reading (RULES.md 9; docs/engine.md "FFG readings of the shared aliens") -------------------

def test_vulch_ffg_keeps_its_artifacts_through_a_new_hand_and_draws_eight_besides():
    from engine.scenario import Scenario

    deck = ["A1", "A4", "A5", "A6", "A7", "A8", "A9", "N"]
    g = Scenario(players=3, powers={"red": ["Vulch"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["CosmicZap", "Quash", "Flare:Mind"], "blue": ["A10", "N"]}, exact_hands=True,
                 deck=deck, destiny=["blue.1"], first="red", ruleset="ffg", options={"flares": True})
    g.pass_windows()  # the start of red's turn: no encounter card, a new hand
    assert kinds(g.hand("red")) == sorted(["CosmicZap", "Quash"] + deck)  # the flare went with the old hand
    kept = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] ==
            "kept through a new hand"]
    assert [kinds(e["cards"]) for e in kept] == [["CosmicZap", "Quash"]] and kept[0]["seen_by"] is None
    assert kinds(g.state["discard"]) == ["Flare:Mind"]
