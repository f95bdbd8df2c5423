"""The Fantasy Flight edition, round two (issue 25 items 1-8; RULES.md 9): compensation counts ships lost to
the warp, a Cosmic Zap switches a power off for the encounter, the setup order, Card Zap discards what it
cancels, special destiny ties, Plague on oneself, Ionic Gas at the resolution, and an offense without an
encounter card. Each scenario is stacked over the engine; where the Mayfair edition keeps its own reading,
the same table under ``mayfair`` shows it did not move."""

from __future__ import annotations

from engine.scenario import Scenario, kinds
from tests.engine.rules.test_ffg import ffg_game


def consoled(g) -> list[str]:
    """The cards taken as consolation (compensation) so far."""
    return [c for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation"
            for c in e["payload"]["cards"]]


# --- 1. compensation: one card per own ship that went to the warp ------------------------------------

def zombie_negotiates(ruleset: str) -> Scenario:
    """Red (Zombie) sends 3 ships against blue-2 and plays a Negotiate; blue wins with an Attack 10."""
    negotiate = "N" if ruleset == "ffg" else "C"
    g = Scenario(players=3, powers={"red": ["Zombie"], "blue": ["Filch"], "yellow": ["Clone"]},
                 hands={"red": [negotiate, "A4"], "blue": ["A10", "A5", "A6", "A7", "A8"], "yellow": ["A9"]},
                 destiny=["blue.1"], first="red", exact_hands=True, ruleset=ruleset)
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", negotiate)
    g.play("blue", "A10")
    g.pass_windows()
    g.place("red", {"red-1": 3})  # the Zombie's ships go home instead of to the warp
    g.pass_windows()
    return g


def test_ffg_a_zombie_beaten_negotiating_takes_no_compensation_for_no_ship_of_it_went_to_the_warp():
    g = zombie_negotiates("ffg")
    assert g.outcome["winner"] == "defense" and g.warp("red") == 0
    assert g.tokens("red-0") == {"red": 1} and g.tokens("red-1") == {"red": 7}
    assert consoled(g) == []
    assert kinds(g.hand("red")) == ["A4"] and kinds(g.hand("blue")) == ["A5", "A6", "A7", "A8"]


def test_mayfair_a_zombie_beaten_compromising_still_takes_consolation_per_token_in_the_challenge():
    g = zombie_negotiates("mayfair")
    assert g.outcome["winner"] == "defense" and g.warp("red") == 0
    taken = consoled(g)
    assert len(taken) == 3 and kinds(g.hand("red")) == kinds(["A4"] + taken)
    assert len(g.hand("blue")) == 1


def void_defends(ruleset: str) -> Scenario:
    negotiate = "N" if ruleset == "ffg" else "C"
    g = Scenario(players=3, powers={"red": ["Mind"], "blue": ["Void"], "yellow": ["Clone"]},
                 hands={"red": [negotiate, "A4"], "blue": ["A10", "A5", "A6", "A7", "A8"], "yellow": ["A9"]},
                 destiny=["blue.1"], first="red", exact_hands=True, ruleset=ruleset)
    g.launch({"red-0": 3}, "blue-2")
    g.invite_none()
    g.play("red", negotiate)
    g.play("blue", "A10")
    g.pass_windows()
    return g


def test_ffg_a_negotiate_whose_ships_the_void_removes_from_the_game_takes_no_compensation():
    g = void_defends("ffg")
    assert g.outcome["winner"] == "defense"
    assert g.state["removed"]["red"] == 3 and g.warp("red") == 0 and g.tokens("red-0") == {"red": 1}
    assert consoled(g) == [] and kinds(g.hand("red")) == ["A4"]
    assert len(g.hand("blue")) == 4


def test_ffg_a_defense_negotiating_is_compensated_for_each_of_its_ships_lost_from_the_planet():
    g = ffg_game(hands={"red": ["A10", "A4"], "blue": ["N", "A5"], "yellow": ["A9"]}, exact_hands=True)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "N")
    g.pass_windows()
    # blue's 4 ships on blue-2 went to the warp: four cards owed, red holds only one (its A4)
    assert g.outcome["winner"] == "offense" and g.warp("blue") == 4 and g.tokens("blue-2") == {"red": 2}
    assert kinds(consoled(g)) == ["A4"]
    assert kinds(g.hand("blue")) == ["A4", "A5"] and g.hand("red") == []


# --- 6. Plague may strike any player, its own player included ------------------------------------------

def plague_offered_to_red(ruleset: str) -> tuple[Scenario, dict]:
    """Red, the offense, holds a Plague as the encounter begins; the window it may play it in."""
    g = Scenario(players=3, powers={"red": ["Masochist" if ruleset == "ffg" else "Mind"], "blue": ["Filch"],
                                    "yellow": ["Clone"]},
                 hands={"red": ["Plague", "A8", "A8", "N" if ruleset == "ffg" else "C"], "blue": ["A10"],
                        "yellow": ["A9"]},
                 destiny=["blue.1"], first="red", exact_hands=True, ruleset=ruleset,
                 options={} if ruleset == "ffg" else {"edicts": True})
    window = next(p for p in g.asked if p["player"] == "red" and p["kind"] == "window"
                  and any(o.get("ability", "").startswith("card:Plague") for o in p["options"]))
    return g, window


def test_ffg_a_masochist_may_plague_itself_losing_three_ships_and_a_card_of_each_kind():
    g, window = plague_offered_to_red("ffg")
    plague = next(o for o in window["options"] if o.get("ability", "").startswith("card:Plague"))
    assert plague["args"]["player"]["values"] == ["red", "blue", "yellow"]
    g.use("red", "card:Plague", {"player": "red"})
    g.lose("red", {"red-4": 3})
    assert g.warp("red") == 3 and g.tokens("red-4") == {"red": 1}
    # one Attack (the two are alike) and the Negotiate are discarded; the Plague itself went first
    assert kinds(g.hand("red")) == ["A8"]
    assert kinds(g.state["discard"]) == ["A8", "N", "Plague"]
    g.owe("red", "launch")  # red plays its encounter on


def test_mayfair_plague_is_still_played_on_another_player_only():
    g, window = plague_offered_to_red("mayfair")
    plague = next(o for o in window["options"] if o.get("ability", "").startswith("card:Plague"))
    assert plague["args"]["player"]["values"] == ["blue", "yellow"]


# --- 7. Ionic Gas is played in the resolution phase, before compensation and rewards --------------------

def test_ffg_ionic_gas_is_played_once_the_ships_have_moved_before_compensation_is_taken():
    g = ffg_game(hands={"red": ["A12", "A4", "A5"], "blue": ["N", "A6"], "yellow": ["IonicGas", "A9"]},
                 exact_hands=True)
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "N")
    for _ in range(20):  # pass every window up to yellow's first offer of the Ionic Gas
        owed = g.prompts()
        offered = [p for p in owed if p["player"] == "yellow" and "card:IonicGas" in g.abilities("yellow")]
        if offered:
            break
        g.command(owed[0]["player"], "pass")
    asked_in = [p["info"]["window"] for p in g.asked if p["player"] == "yellow" and p["kind"] == "window"
                and any(o.get("ability") == "card:IonicGas" for o in p["options"])]
    assert asked_in == ["before_compensation"]  # not at the reveal any more
    # the resolution has begun: red's ships have landed, blue's four went to the warp, nothing taken yet
    assert g.outcome["winner"] == "offense" and g.tokens("blue-2") == {"red": 2} and g.warp("blue") == 4
    assert consoled(g) == []
    g.use("yellow", "card:IonicGas")
    g.pass_windows()
    assert consoled(g) == [] and kinds(g.hand("red")) == ["A4", "A5"] and kinds(g.hand("blue")) == ["A6"]
    assert "IonicGas" in g.state["discard"]


# --- 2. Cosmic Zap: the power is off for the rest of the encounter; a Super flare may be zapped -----------

RESERVE_HANDS = {"red": ["A6", "A4", "A5", "A6", "A8", "N", "N", "N"], "blue": ["A10", "N", "N", "A6", "A8"],
                 "yellow": ["CosmicZap", "A9"]}


def test_ffg_a_reserve_whose_reinforcement_is_zapped_cannot_reinforce_again_this_encounter():
    g = Scenario(players=3, powers={"red": ["Reserve"], "blue": ["Spiff"], "yellow": ["Mind"]},
                 hands=RESERVE_HANDS, exact_hands=True, destiny=["blue.1"], first="red", ruleset="ffg",
                 options={"reinforcements": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A6")
    g.play("blue", "A10")
    five = next(c for c in g.hand("red") if c.startswith("A5"))
    g.use("red", "power:Reserve", {"card": five, "side": "offense"})
    zapped_at = len(g.asked)
    g.use("yellow", "card:CosmicZap")
    assert [(e["payload"]["target"], e["payload"]["power"]) for e in g.log if e["type"] == "PowerZapped"] == \
        [("red", "Reserve")]
    assert g.resolved()["totals"] == {"offense": 6 + 2, "defense": 10 + 4}  # no reinforcement at all
    # red still held an A4 and an A6 it could have played: Reserve was never offered again
    assert not [p for p in g.asked[zapped_at:] for o in p["options"] if o.get("ability") == "power:Reserve"]
    assert five in g.hand("red") and "CosmicZap.1" in g.state["discard"]


def tripler_super(ruleset: str) -> Scenario:
    """Red (Tripler) plays an Attack 12 against blue's 10 and holds its own flare; yellow holds a Cosmic Zap."""
    g = Scenario(players=3, powers={"red": ["Tripler"], "blue": ["Filch"], "yellow": ["Mind"]},
                 hands={"red": ["A12", "Flare:Tripler", "A4"], "blue": ["A10", "A5"], "yellow": ["CosmicZap", "A9"]},
                 exact_hands=True, destiny=["blue.1"], first="red", ruleset=ruleset,
                 options={"flares": True} if ruleset == "ffg" else {"flares": True, "edicts": True})
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A12")
    g.play("blue", "A10")
    return g


def test_ffg_a_cosmic_zap_cancels_a_super_flare_which_goes_back_to_hand_and_does_not_count():
    g = tripler_super("ffg")
    g.use("red", "card:Flare:Tripler")  # the Super: its own Attack counts triple
    assert [p["kind"] for p in g.prompts("yellow")] == ["response"]
    g.use("yellow", "card:CosmicZap")
    moved = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["cards"] == ["Flare:Tripler"]]
    assert [(m["src"], m["dst"], m["reason"]) for m in moved] == [("table", "hand:red", "flare zapped")]
    assert "Flare:Tripler" in g.hand("red") and "Flare:Tripler" not in g.state["discard"]
    assert "CosmicZap.1" in g.state["discard"] and not [e for e in g.log if e["type"] == "PowerZapped"]
    # not red's flare of the encounter: it may be played again (still the Super: Tripler was not switched off)
    assert "card:Flare:Tripler" in g.abilities("red")
    g.command("red", "pass")
    # the Super never applied: the power alone makes an Attack above 10 a third of it (12 -> 4)
    assert g.resolved()["totals"] == {"offense": 4 + 2, "defense": 10 + 4}


def test_mayfair_a_cosmic_zap_does_not_answer_a_flare():
    g = tripler_super("mayfair")
    g.use("red", "card:Flare:Tripler")
    assert not [p for p in g.prompts() if p["kind"] == "response"]
    assert g.resolved()["totals"] == {"offense": 36 + 2, "defense": 10 + 4}


def test_mayfair_a_cosmic_zap_cancels_one_use_and_leaves_the_power_in_force():
    g = Scenario(players=3, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Mutant"]},
                 hands={"red": ["A8"], "blue": ["A10"], "yellow": ["CosmicZap", "A9"]}, destiny=["blue.1"],
                 first="red", options={"edicts": True})
    g.launch({"red-0": 1}, "blue-2")
    g.use("red", "power:Mind", {"player": "blue"})
    g.use("yellow", "card:CosmicZap")
    from engine.state import power_active
    assert [e["type"] for e in g.log].count("UseCancelled") == 1
    assert not [e for e in g.log if e["type"] == "PowerZapped"] and power_active(g.state, "red", "Mind")


# --- 8. an offense without an encounter card plays on to the planning phase -----------------------------

def plagued_offense(ruleset: str) -> Scenario:
    """Red, the offense, holds one Attack; in the regroup window yellow plagues red, which discards it."""
    g = Scenario(players=3, powers={"red": ["Mind"], "blue": ["Filch"], "yellow": ["Clone"]},
                 hands={"red": ["A8"], "blue": ["A10"], "yellow": ["Plague", "A9"]}, exact_hands=True,
                 destiny=["blue.1"], first="red", ruleset=ruleset,
                 options={} if ruleset == "ffg" else {"edicts": True})
    for _ in range(20):
        owed = g.prompts()
        if owed[0]["player"] == "yellow" and owed[0]["kind"] == "window" and owed[0]["info"]["window"] == "regroup":
            break
        g.command(owed[0]["player"], "pass")
    g.use("yellow", "card:Plague", {"player": "red"})
    g.lose("red", {"red-4": 3})
    return g


def test_ffg_an_offense_without_an_encounter_card_launches_and_its_encounter_ends_at_the_planning_phase():
    g = plagued_offense("ffg")
    assert g.hand("red") == [] and g.warp("red") == 3
    g.launch({"red-0": 2}, "blue-2")  # it plays on: the launch is asked
    g.invite("red", ["yellow"])
    g.invite("blue", [])
    g.join("yellow", "offense", {"yellow-0": 2})
    assert g.tokens("cone:offense") == {"red": 2, "yellow": 2}
    g.pass_windows()
    # the planning phase: no encounter card, no result; every ship on the gate goes home
    g.place("red", {"red-1": 2})
    g.place("yellow", {"yellow-1": 2})
    assert g.tokens("cone:offense") == {} and g.tokens("blue-2") == {"blue": 4}
    assert g.tokens("red-0") == {"red": 2} and g.tokens("red-1") == {"red": 6} and g.tokens("red-4") == {"red": 1}
    assert g.tokens("yellow-0") == {"yellow": 2} and g.tokens("yellow-1") == {"yellow": 6}
    assert g.warp("red") == 3 and g.warp("yellow") == 0 and g.warp("blue") == 0
    assert not [e for e in g.log if e["type"] == "ChallengeResolved"]
    ended = [e["payload"] for e in g.log if e["type"] in ("ChallengeEnded", "TurnEnded")]
    assert ended == [{"number": 1, "succeeded": False}, {"player": "red", "reason": "offense has no challenge card"}]
    assert g.state["turn"]["offense"] == "blue" and g.state["turn"]["number"] == 2
    assert kinds(g.hand("yellow")) == ["A9"] and kinds(g.hand("blue")) == ["A10"]


def test_mayfair_an_offense_without_a_challenge_card_ends_its_turn_at_the_next_boundary():
    g = plagued_offense("mayfair")
    g.pass_windows()
    assert not [p for p in g.asked if p["kind"] == "launch" and p["player"] == "red"]  # red never launched
    assert [e["payload"]["reason"] for e in g.log if e["type"] == "TurnEnded"] == ["offense has no challenge card"]
    assert g.state["turn"]["offense"] == "blue" and g.warp("red") == 3
