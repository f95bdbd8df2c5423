"""RULES.md 4, stages 7-9: challenge cards, the reveal, the outcome, consolation, rewards, the reverse cone."""

import pytest

from engine.errors import NotOwed, RulesError
from engine.scenario import Scenario, kinds

POWERS = {"red": ["Filch"], "blue": ["Clone"], "yellow": ["Laser"], "purple": ["Trader"]}
RED = ["A20", "A15", "A14", "A13", "A12", "A11", "A10"]
BLUE = ["A4", "A5", "A6", "A7", "A8", "A9", "C"]
YELLOW = ["A6", "A7", "A8", "C", "C", "C", "C"]
PURPLE = ["A6", "A7", "A8", "A9", "C", "C", "C"]
HANDS = {"red": RED, "blue": BLUE, "yellow": YELLOW, "purple": PURPLE}


def game(**kw) -> Scenario:
    """Four players; red is the offense against blue (or as the destiny cards say)."""
    kw.setdefault("destiny", ["blue.1"])
    kw.setdefault("hands", HANDS)
    return Scenario(players=4, powers=POWERS, first="red", **kw)


def challenge(g: Scenario, red_card: str, blue_card: str, *, launch=None, planet="blue-0",
              offense_allies=(), defense_allies=()) -> None:
    """Launch, invite the given allies (each joins with two tokens from its planet 0), play both cards."""
    g.launch(launch or {"red-0": 4}, planet)
    g.invite("red", list(offense_allies))
    g.invite("blue", list(defense_allies))
    for ally in sorted(set(offense_allies) | set(defense_allies), key=["yellow", "purple"].index):
        g.join(ally, "offense" if ally in offense_allies else "defense", {f"{ally}-0": 2})
    g.play("red", red_card)
    g.play("blue", blue_card)
    g.pass_windows()


# Stage 7 ------------------------------------------------------------------------------------------

def test_both_main_players_choose_their_challenge_cards_at_the_same_time():
    g = game()
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.pass_windows()
    owed = g.prompts()
    assert [(p["player"], p["kind"]) for p in owed] == [("red", "challenge_card"), ("blue", "challenge_card")]
    assert owed[1]["options"][0]["args"]["card"]["values"] == [c for c in g.hand("blue")]


def test_a_chosen_challenge_card_is_seen_only_by_its_owner_until_the_reveal():
    from events.catalog import get

    g = game()
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    g.play("blue", "A9")
    chosen = [e for e in g.log if e["type"] == "ChallengeCardChosen"]
    assert [e["payload"]["seen_by"] for e in chosen] == [["blue"]]
    assert get("ChallengeCardChosen").private == {"card": ("seen_by",)}
    # red is still asked, and nothing it is shown names blue's card
    red = g.prompts("red")[0]
    assert red["kind"] == "challenge_card" and "A9" not in str(red["info"])
    assert g.ch["revealed"] is None


def test_a_chosen_challenge_card_cannot_be_changed():
    g = game()
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    owed = g.owe("blue", "challenge_card")
    g.play("blue", "A9")
    with pytest.raises(NotOwed):
        g.command("blue", "play", {"card": g.hand("blue")[0]}, prompt=owed["id"])
    assert kinds(g.state["committed"]["defense"]) == ["A9"]


def test_a_main_player_may_play_only_a_challenge_card_from_its_hand():
    g = game(hands={**HANDS, "red": ["A20", "A15", "A14", "A13", "A12", "A11", "R+5"]},
             options={"reinforcements": True})
    g.launch({"red-0": 1}, "blue-0")
    g.invite_none()
    owed = g.owe("red", "challenge_card")
    assert "R+5" not in owed["options"][0]["args"]["card"]["values"]
    for card in ("R+5", "A4"):
        with pytest.raises(RulesError):
            g.command("red", "play", {"card": card}, prompt=owed["id"])


# Stage 8: Attack against Attack ------------------------------------------------------------------

def test_each_side_totals_its_card_and_its_tokens_including_allies_and_the_higher_total_wins():
    g = game()
    challenge(g, "A10", "A9", launch={"red-0": 3}, offense_allies=["yellow"], defense_allies=["purple"])
    # offense: 10 + 3 red + 2 yellow; defense: 9 + 4 blue on the planet + 2 purple
    assert g.outcome["totals"] == {"offense": 15, "defense": 15}
    assert g.outcome["winner"] == "defense"  # a tie goes to the defense


def test_when_the_offense_wins_its_side_lands_and_the_defending_side_goes_to_the_warp():
    g = game()
    challenge(g, "A20", "A4", launch={"red-0": 3}, offense_allies=["yellow"], defense_allies=["purple"])
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-0") == {"red": 3, "yellow": 2}
    assert (g.warp("blue"), g.warp("purple"), g.warp("red"), g.warp("yellow")) == (4, 2, 0, 0)
    assert g.tokens("cone:offense") == {} and g.tokens("cone:defense") == {}
    assert g.state["record"]["red"] == {"won": 1, "lost": 0}
    assert g.state["record"]["blue"] == {"won": 0, "lost": 1}


def test_when_the_defense_wins_it_keeps_its_tokens_and_the_offense_side_goes_to_the_warp():
    g = game()
    challenge(g, "A10", "A9", launch={"red-0": 1}, offense_allies=["yellow"])
    assert g.outcome["winner"] == "defense"
    assert g.tokens("blue-0") == {"blue": 4}
    assert (g.warp("red"), g.warp("yellow")) == (1, 2)


def test_a_defensive_ally_takes_its_tokens_home_and_one_reward_per_token_card_or_token_from_the_warp():
    g = game(tokens={"purple-4": {"purple": 1}}, deck=["A30"])  # purple has 3 tokens in the warp
    challenge(g, "A10", "A9", launch={"red-0": 1}, defense_allies=["purple"])
    assert g.outcome["winner"] == "defense"
    owed = g.owe("purple", "place_tokens")
    assert owed["info"]["count"] == 2
    g.place("purple", {"purple-0": 1, "purple-4": 1})
    owed = g.owe("purple", "rewards")
    shape = owed["options"][0]["args"]["rewards"]
    assert shape["sources"] == {"cards": 2, "tokens": 2} and shape["min"] == shape["max"] == 2
    g.rewards("purple", cards=1, tokens=1)
    g.place("purple", {"purple-4": 1})  # the token from the warp goes to a base of its choice
    assert kinds(g.hand("purple")) == sorted(PURPLE + ["A30"])
    assert g.warp("purple") == 2
    assert g.tokens("purple-0") == {"purple": 3}
    assert g.tokens("purple-4") == {"purple": 3}


def test_a_defensive_ally_with_no_token_in_the_warp_takes_all_its_rewards_as_cards():
    g = game(deck=["A30", "A40"])
    challenge(g, "A10", "A9", launch={"red-0": 1}, defense_allies=["purple"])
    g.place("purple", {"purple-0": 2})
    g.pass_windows()
    assert kinds(g.hand("purple")) == sorted(PURPLE + ["A30", "A40"])


def test_offensive_allies_get_no_reward_when_the_offense_wins():
    g = game(deck=["A30", "A40"])
    challenge(g, "A20", "A4", offense_allies=["yellow"])
    assert kinds(g.hand("yellow")) == sorted(YELLOW)
    assert g.tokens("blue-0") == {"red": 4, "yellow": 2}


# Stage 8: Attack against Compromise ------------------------------------------------------------

def test_an_attack_beats_a_compromise_and_the_compromise_player_takes_one_card_per_token_it_lost():
    g = game()
    challenge(g, "A10", "C", launch={"red-0": 2}, defense_allies=["purple"])
    outcome = g.outcome
    assert (outcome["kind"], outcome["winner"]) == ("compromise", "offense")
    # blue lost its 4 tokens on blue-0; purple's 2 do not count towards blue's consolation
    assert outcome["consolation"] == {"player": "blue", "from": "red", "count": 4, "lost_tokens": True}
    taken = [e["payload"] for e in g.log if e["type"] == "CardsMoved" and e["payload"]["reason"] == "consolation"]
    assert len(taken) == 1 and len(taken[0]["cards"]) == 4
    assert taken[0]["seen_by"] == ["blue", "red"]
    assert len(g.hand("red")) == 6 - 4
    assert set(taken[0]["cards"]) <= set(g.hand("blue"))
    assert (g.warp("blue"), g.warp("purple")) == (4, 2)


def test_an_offense_playing_a_compromise_against_an_attack_loses_and_takes_consolation():
    g = game(hands={**HANDS, "red": ["C", "A15", "A14", "A13", "A12", "A11", "A10"]})
    challenge(g, "C", "A4", launch={"red-0": 3}, offense_allies=["yellow"])
    assert g.outcome["winner"] == "defense"
    assert g.outcome["consolation"]["count"] == 3  # red's own 3 tokens, not yellow's 2
    assert len(g.hand("red")) == 6 + 3
    assert len(g.hand("blue")) == 6 - 3
    assert (g.warp("red"), g.warp("yellow")) == (3, 2)


def test_consolation_is_capped_by_the_cards_the_winner_holds():
    g = game(hands={**HANDS, "red": ["A10", "A11"]}, exact_hands=True)
    challenge(g, "A10", "C")
    assert g.outcome["consolation"]["count"] == 4
    assert g.hand("red") == []
    assert kinds(g.hand("blue")) == sorted(["A4", "A5", "A6", "A7", "A8", "A9", "A11"])


def test_a_compromise_defending_no_token_takes_no_consolation():
    g = game(tokens={"blue-2": {}, "blue-0": {"blue": 8}})
    challenge(g, "A10", "C", planet="blue-2")
    assert g.outcome["consolation"]["count"] == 0
    assert len(g.hand("blue")) == 6


# The reverse cone ------------------------------------------------------------------------------------

def test_reverse_cone_offense_wins_its_allies_go_home_with_rewards_instead_of_landing():
    g = game(destiny=["blue.rev"], options={"reverse_cone": True}, deck=["A30", "A40"])
    challenge(g, "A20", "A4", launch={"red-0": 3}, offense_allies=["yellow"], defense_allies=["purple"])
    assert g.ch["reverse"] is True
    assert g.outcome["winner"] == "offense"
    assert g.tokens("blue-0") == {"red": 3}  # the offense still lands
    g.place("yellow", {"yellow-1": 2})
    g.pass_windows()
    assert kinds(g.hand("yellow")) == sorted(YELLOW + ["A30", "A40"])
    assert g.tokens("yellow-1") == {"yellow": 6}
    assert (g.warp("blue"), g.warp("purple")) == (4, 2)  # losing allies still go to the warp


def test_reverse_cone_defense_wins_its_allies_land_on_the_defended_planet():
    g = game(destiny=["blue.rev"], options={"reverse_cone": True})
    challenge(g, "A10", "A9", launch={"red-0": 1}, offense_allies=["yellow"], defense_allies=["purple"])
    assert g.outcome["winner"] == "defense"
    assert g.tokens("blue-0") == {"blue": 4, "purple": 2}
    assert "rewards" not in [p["kind"] for p in g.prompts()]
    assert (g.warp("red"), g.warp("yellow")) == (1, 2)
    assert len(g.hand("purple")) == 7


# Stage 9 --------------------------------------------------------------------------------------------

def test_both_challenge_cards_go_to_the_discard_pile_at_stage_9():
    g = game()
    challenge(g, "A20", "A4")
    g.end_turn()
    assert kinds(g.state["discard"]) == ["A20", "A4"]
    assert g.state["committed"] == {"offense": [], "defense": []}


# Power loss ---------------------------------------------------------------------------------------

def test_a_player_with_fewer_than_three_home_bases_loses_its_power_and_regains_it_at_three():
    from engine.state import power_active

    g = Scenario(players=3, powers={"red": ["Macron"], "blue": ["Clone"], "yellow": ["Laser"]},
                 hands={"red": RED, "blue": BLUE, "yellow": YELLOW}, first="red", destiny=["red.1", "blue.1"],
                 tokens={"red-2": {}, "red-3": {}, "red-4": {}, "red-0": {"red": 8}, "red-1": {"red": 8}})
    g.regroup("red", None)
    assert not power_active(g.state, "red", "Macron")
    g.reestablish("red-2", {"red-0": 2})
    assert power_active(g.state, "red", "Macron")
    g.challenge_again()
    g.regroup("red", None)
    shape = g.owe("red", "launch")["options"][0]["args"]["tokens"]
    assert (shape["min"], shape["max"]) == (1, 1)  # Macron's one-token rule is back in force


# Winning ---------------------------------------------------------------------------------------------

def four_external_bases(color: str) -> dict:
    """``color`` holds one token on planets 1-4 of the other systems... four external bases."""
    return {"yellow-1": {"yellow": 4, color: 1}, "yellow-2": {"yellow": 4, color: 1},
            "purple-1": {"purple": 4, color: 1}, "purple-2": {"purple": 4, color: 1}}


def test_a_player_with_five_external_bases_wins_at_once():
    g = game(tokens={**four_external_bases("red"), "red-0": {"red": 4}, "red-1": {"red": 0}})
    challenge(g, "A20", "A4", launch={"red-0": 1})
    assert g.state["status"] == "finished"
    assert g.state["winners"] == ["red"]
    ended = [e for e in g.log if e["type"] == "GameEnded"]
    assert [e["payload"] for e in ended] == [{"winners": ["red"], "reason": "five external bases"}]
    assert g.prompts() == []


def test_players_reaching_five_external_bases_together_share_the_win():
    layout = {"yellow-1": {"yellow": 4, "red": 1}, "yellow-2": {"yellow": 4, "red": 1},
              "purple-1": {"purple": 4, "red": 1}, "purple-2": {"purple": 4, "red": 1},
              "red-1": {"red": 0, "yellow": 1}, "red-2": {"red": 4, "yellow": 1},
              "red-3": {"red": 4, "yellow": 1}, "purple-3": {"purple": 4, "yellow": 1},
              "yellow-0": {"yellow": 2}, "yellow-3": {}}
    g = game(tokens=layout)
    challenge(g, "A20", "A4", launch={"red-0": 1}, offense_allies=["yellow"])
    assert g.state["winners"] == ["red", "yellow"]


def test_four_external_bases_do_not_win():
    g = game(tokens={**four_external_bases("red"), "red-1": {"red": 0}})
    challenge(g, "A10", "A9", launch={"red-0": 1})
    assert g.state["status"] == "playing"
