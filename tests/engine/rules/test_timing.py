"""RULES.md 5: timing windows, the order players are asked in, responses, and no empty prompts."""

from engine.scenario import Scenario

FIVE = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"], "light_blue": ["Kamikaze"]}
ZAP = ["CosmicZap", "A4", "A5", "A6", "A7", "A8", "A9"]
HANDS = {"red": ["CosmicZap", "A20", "A15", "A14", "A13", "A12", "A11"], "blue": ZAP,
         "yellow": ["CosmicZap", "A10", "A12", "A10", "A14", "A15", "C"], "purple": ZAP,
         "light_blue": ["A6", "A7", "A8", "C", "C", "C", "C"]}


def zaps_everywhere() -> Scenario:
    """Five players; everyone but light_blue holds a Cosmic Zap (usable in any window); yellow defends."""
    g = Scenario(players=5, powers=FIVE, hands=HANDS, first="red", destiny=["yellow.1"], options={"edicts": True})
    g.auto_pass = False
    return g


def pass_window(g: Scenario) -> list[tuple[str, str]]:
    """Everyone passes the windows now open; returns (window, player) in the order asked."""
    asked = []
    for _ in range(100):
        windows = [p for p in g.prompts() if p["kind"] == "window"]
        if not windows:
            return asked
        assert len(windows) == 1  # one player at a time
        asked.append((windows[0]["info"]["window"], windows[0]["player"]))
        g.command(windows[0]["player"], "pass", prompt=windows[0]["id"])
    raise AssertionError("the window never closed")


def test_a_window_asks_non_main_players_clockwise_from_the_offenses_left_then_offense_then_defense():
    g = zaps_everywhere()
    pass_window(g)  # start and destiny windows
    g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "yellow-0"}, prompt=g.prompts()[0]["id"])
    assert pass_window(g) == [("launch", "blue"), ("launch", "purple"), ("launch", "red"), ("launch", "yellow")]


def test_before_the_defense_is_known_every_other_player_is_asked_before_the_offense():
    g = zaps_everywhere()
    asked = pass_window(g)
    assert asked[:4] == [("start", "blue"), ("start", "yellow"), ("start", "purple"), ("start", "red")]
    assert asked[4:8] == [("regroup", "blue"), ("regroup", "yellow"), ("regroup", "purple"), ("regroup", "red")]
    assert asked[8:] == [("destiny", "blue"), ("destiny", "purple"), ("destiny", "red"), ("destiny", "yellow")]


def test_a_window_at_regroup_lets_any_time_cards_be_played_there():
    """14.11: "any time" is not only between the other stages: a Cosmic Zap may be played at regroup."""
    g = zaps_everywhere()
    windows = set()
    for _ in range(30):
        owed = [p for p in g.prompts() if p["kind"] == "window"]
        if not owed:
            break
        windows.add(owed[0]["info"]["window"])
        g.command(owed[0]["player"], "pass", prompt=owed[0]["id"])
    assert "regroup" in windows


def test_a_player_may_pass_for_the_rest_of_a_stage_in_one_answer():
    """14.11: no flood of prompts: `pass_stage` keeps a player out of every window until the next stage.
    Stage 7 has two windows (before and after the cards are chosen): blue, passing for the stage in
    the first, is not asked in the second; at stage 8 it is asked again."""
    g = zaps_everywhere()
    pass_window(g)
    g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "yellow-0"}, prompt=g.prompts()[0]["id"])
    pass_window(g)
    for player in ("red", "yellow"):
        g.command(player, "invite", {"players": []}, prompt=g.prompts(player)[0]["id"])
    first = [p for p in g.prompts() if p["kind"] == "window"][0]
    while first["info"]["window"] != "planning":  # pass the alliance window
        g.command(first["player"], "pass", prompt=first["id"])
        first = [p for p in g.prompts() if p["kind"] == "window"][0]
    assert first["player"] == "blue" and [o["action"] for o in first["options"]][-2:] == ["pass", "pass_stage"]
    g.command("blue", "pass_stage", prompt=first["id"])
    planning = pass_window(g)
    assert ("planning", "blue") not in planning and planning
    for player, card in (("red", "A20"), ("yellow", "A10")):
        owed = g.prompts(player)[0]
        g.command(player, "play", {"card": next(c for c in owed["options"][0]["args"]["card"]["values"]
                                                if c.startswith(card))}, prompt=owed["id"])
    later = pass_window(g)
    assert ("committed", "blue") not in later and ("committed", "purple") in later  # still stage 7
    assert ("reveal", "blue") in later  # stage 8: asked again


def test_a_player_with_nothing_usable_is_never_asked():
    g = zaps_everywhere()
    asked = pass_window(g)
    assert "light_blue" not in {player for _window, player in asked}


def test_any_time_cards_are_offered_in_every_window_of_the_challenge():
    g = zaps_everywhere()
    windows = [w for w, player in pass_window(g) if player == "red"]
    g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "yellow-0"}, prompt=g.prompts()[0]["id"])
    windows += [w for w, player in pass_window(g) if player == "red"]
    for player in ("red", "yellow"):
        g.command(player, "invite", {"players": []}, prompt=g.prompts(player)[0]["id"])
    windows += [w for w, player in pass_window(g) if player == "red"]
    for player, card in (("red", "A20"), ("yellow", "A10")):
        owed = g.prompts(player)[0]
        g.command(player, "play", {"card": next(c for c in owed["options"][0]["args"]["card"]["values"]
                                                if c.startswith(card))}, prompt=owed["id"])
    windows += [w for w, player in pass_window(g) if player == "red"]
    assert windows == ["start", "regroup", "destiny", "launch", "alliance", "planning", "committed", "reveal",
                       "resolution", "discard"]


def test_after_a_use_the_window_reopens_to_everyone():
    g = zaps_everywhere()
    pass_window(g)
    g.command("red", "launch", {"tokens": {"red-0": 1}, "planet": "yellow-0"}, prompt=g.prompts()[0]["id"])
    blue = g.prompts()[0]
    assert blue["player"] == "blue"
    g.command("blue", "pass", prompt=blue["id"])
    g.use("purple", "card:CosmicZap", {"target": "yellow:Laser"})
    assert g.state["ch"]["zapped"] == ["yellow:Laser"]
    # purple has nothing left; blue, who passed before, is asked again
    assert pass_window(g) == [("launch", "blue"), ("launch", "red"), ("launch", "yellow")]


def test_a_power_use_is_announced_and_zap_holders_may_respond_in_timing_order():
    hands = {**HANDS, "red": ["A20", "A15", "A14", "A13", "A12", "A11", "A10"],
             "purple": ["A4", "A5", "A6", "A7", "A8", "A9", "C"]}
    g = Scenario(players=5, powers={**FIVE, "red": ["Mind"]}, hands=hands, first="red", destiny=["yellow.1"],
                 options={"edicts": True})
    g.launch({"red-0": 1}, "yellow-0")
    g.use("red", "power:Mind", {"player": "light_blue"})
    used = [e["payload"] for e in g.log if e["type"] == "PowerUsed"]
    assert [(u["player"], u["power"]) for u in used] == [("red", "Mind")]
    asked = []
    while g.prompts()[0]["kind"] == "response":
        owed = g.prompts()[0]
        assert "HandRevealed" not in [e["type"] for e in g.log]  # not applied while zaps may answer
        asked.append(owed["player"])
        g.command(owed["player"], "pass", prompt=owed["id"])
    assert asked == ["blue", "yellow"]  # the holders of a Cosmic Zap, in timing order
    revealed = [e["payload"] for e in g.log if e["type"] == "HandRevealed"]
    assert [(r["player"], r["to"]) for r in revealed] == [("light_blue", ["red"])]


def test_mandatory_powers_apply_without_asking_and_no_prompt_is_ever_empty():
    g = Scenario(players=3, powers={"red": ["Macron"], "blue": ["Tripler"], "yellow": ["Warpish"]},
                 hands={"red": ["A10", "A11", "A12", "A13", "A14", "A15", "A20"],
                        "blue": ["A4", "A5", "A6", "A7", "A8", "A9", "C"]},
                 first="red", destiny=["blue.1"])
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.play("red", "A10")
    g.play("blue", "A9")
    assert [d["kind"] for d in g.asked if d["kind"] in ("window", "response")] == []
    # Macron's token counts 4; Tripler triples an Attack of 10 or less
    assert g.outcome["totals"] == {"offense": 14, "defense": 31}
