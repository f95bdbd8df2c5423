"""Secrets the Fantasy Flight aliens of issue 11 handle stay secret in every view and event feed.

Gambler's card kept face down (and then buried under the deck), the hand a Hacker looks through and the
cards it picks, the destiny deck a Dictator looks through: none of them may show in the board, in another
player's hand view or prompts, or in the events as redacted for another player or the public.
"""

from __future__ import annotations

import json

from engine.scenario import Scenario
from events.redaction import redact
from projections import views

OTHERS = ("blue", "yellow", None)


def visible(g: Scenario, viewer: str | None) -> str:
    """Everything ``viewer`` (a colour, or None for the public) may see of the game, as one text."""
    parts = [views.board(g.state)] + [redact(e, viewer)["payload"] for e in g.log]
    if viewer is not None:
        parts.append(views.hand(g.state, viewer))
    return json.dumps(parts)


def test_a_gambler_card_not_called_is_never_seen_by_another_player():
    hands = {"red": ["A4", "N", "N", "N", "A6", "A6", "A8", "A8"], "blue": ["A10", "N", "N", "N", "A6", "A6", "A8", "A8"]}
    g = Scenario(players=3, powers={"red": ["Gambler"], "blue": ["Spiff"], "yellow": ["Mind"]}, hands=hands,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "A4")
    g.play("blue", "A10")
    g.answer("red", "reaction", "use", {"claim": "A20"}, ability="power:Gambler")
    g.answer("blue", "call_bluff", "accept")
    g.resolved()
    g.pass_windows()
    assert g.state["deck"][0] == "A4.1"  # buried under the deck
    for viewer in OTHERS:
        assert '"A4.1"' not in visible(g, viewer), viewer
    assert '"A4.1"' in visible(g, "red")


def test_the_hand_a_hacker_looks_through_and_the_cards_it_picks_stay_between_the_two():
    hands = {"red": ["N", "A4", "A4", "A6", "A6", "A8", "A8", "A10"],
             "blue": ["A15", "N", "A5", "A6", "A7", "A8", "A9", "A11"],
             "yellow": ["A40", "A30", "CardZap", "N", "A8", "A8", "A8", "A6"]}
    g = Scenario(players=3, powers={"red": ["Hacker"], "blue": ["Spiff"], "yellow": ["Mind"]}, hands=hands,
                 destiny=["blue.1"], first="red", ruleset="ffg")
    g.launch({"red-0": 2}, "blue-2")
    g.invite_none()
    g.play("red", "N")
    g.play("blue", "A15")
    g.answer("red", "reaction", "use", {"from": "yellow"}, ability="power:Hacker")
    g.owe("red", "pick_compensation")
    assert '"A40"' not in visible(g, "blue") and '"A40"' not in visible(g, None)  # yellow's hand, in red's prompt
    g.answer("red", "pick_compensation", "take", {"cards": ["A40", "A30"]})
    assert '"A40"' not in visible(g, "blue") and '"A40"' not in visible(g, None)
    assert '"A40"' in visible(g, "red") and '"A40"' in visible(g, "yellow")


def test_the_destiny_deck_a_dictator_looks_through_is_shown_to_it_alone_and_never_in_order():
    g = Scenario(players=3, powers={"red": ["Mind"], "blue": ["Spiff"], "yellow": ["Dictator"]},
                 destiny=["blue.1"], first="red", ruleset="ffg")
    owed = g.owe("yellow", "choose_destiny")
    offered = owed["options"][0]["args"]["card"]["values"]
    assert offered == sorted(g.state["destiny"]) and offered != list(g.state["destiny"])
    assert views.own_prompts(g.state, "red") == [] and views.own_prompts(g.state, "blue") == []
    for viewer in ("red", "blue", None):
        assert '"blue.2"' not in visible(g, viewer), viewer
