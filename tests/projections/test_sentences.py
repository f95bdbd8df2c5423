"""The history people read (projections/sentences.py): a sentence for every event, in the edition's words,
never naming a card its reader may not see.

The events are the golden streams' (tests/golden/streams: games of both editions with most powers, flares,
edicts and artifacts, deals, rewards and timeouts), each told to every seat, to a watcher and to the admin.
"""

from __future__ import annotations

import json
import lzma
import re
from pathlib import Path

import pytest

from engine import cards
from events import catalog
from events.redaction import ADMIN, redact
from projections.sentences import SENTENCES, Table, card_name, narrated, sentence, tell

STREAMS = sorted((Path(__file__).resolve().parents[1] / "golden" / "streams").glob("*.jsonl.xz"))
# the types no golden game happens to hold, as the engine writes them
MADE = [{"type": "GameRewound", "payload": {"to_version": 40, "by": "admin", "players": None, "clock_shift": None}},
        {"type": "RevealUndone", "payload": {}},
        {"type": "AllyRemoved", "payload": {"player": "blue", "by": "red"}},
        {"type": "AllyRemoved", "payload": {"player": "blue", "by": None}},
        {"type": "MessageSent", "payload": {"player": "red", "to": None, "text": "Ally with me", "seen_by": None}},
        {"type": "MessageSent", "payload": {"player": "red", "to": "blue", "text": "Take the deal",
                                            "seen_by": ["red", "blue"]}},
        {"type": "SeatHandedToBot", "payload": {"player": "red", "level": "heuristic", "reason": "asked"}},
        {"type": "SeatHandedToBot", "payload": {"player": "red", "level": "random", "reason": "missed", "missed": 3}},
        {"type": "SeatTakenBack", "payload": {"player": "red"}}]
SHUFFLES = ("DeckFormed", "DeckReshuffled")
MAYFAIR_WORDS = re.compile(r"\b(tokens?|cones?|challenges?|compromises?|consolations?|edicts?|bases?|stages?)\b",
                           re.IGNORECASE)


def golden(path: Path) -> tuple[list[dict], Table]:
    events = [json.loads(line) for line in lzma.open(path, "rt", encoding="utf-8")]
    names = {e["payload"]["player"]: e["payload"]["name"] for e in events if e["type"] == "PlayerJoined"}
    return events, Table(ruleset=events[0]["payload"]["ruleset"], names=names)


@pytest.fixture(scope="module")
def games() -> list[tuple[list[dict], Table]]:
    found = [golden(path) for path in STREAMS]
    assert {table.ruleset for _, table in found} == {"mayfair", "ffg"}
    return found


def fallback(event: dict) -> bool:
    """Whether an event was told only by its type's name (the teller found nothing better)."""
    return sentence(event, ADMIN, Table()).endswith(" happened.")


def test_every_event_type_has_its_own_sentence():
    assert set(SENTENCES) == set(catalog.TYPES), "an event type without a sentence (or a sentence without a type)"


@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_every_event_type_of_both_editions_is_told_in_a_sentence(games, ruleset):
    told_types = set()
    for events, table in games:
        table = Table(ruleset=ruleset, names=table.names)
        for event in events + MADE:
            for viewer in (ADMIN, "red", None):
                text = sentence(event, viewer, table)
                assert text and text.strip() == text and not text.endswith(" happened."), (event, text)
                assert "{" not in text and "None" not in text, (event, text)
            told_types.add(event["type"])
    assert told_types == set(catalog.TYPES)


def test_an_ffg_games_sentences_use_its_words_and_a_mayfair_games_the_rulebooks(games):
    ffg_told = mayfair_told = 0
    for events, table in games:
        for event in events:
            text = sentence(event, ADMIN, table)
            if table.ruleset == "ffg":
                assert not MAYFAIR_WORDS.search(text), (event, text)
                ffg_told += 1
            else:
                mayfair_told += 1
    assert ffg_told > 500 and mayfair_told > 500
    examples = {"ConeAimed": {"planet": "blue-3"},
                "TokensMoved": {"moves": [["red", "red-1", "cone:offense", 2], ["red", "red-2", "cone:offense", 2]],
                                "reason": "launch"},
                "ChallengeResolved": {"outcome": {"kind": "attack", "winner": "offense",
                                                  "totals": {"offense": 16, "defense": 11}}}}
    names = {"red": "Ann", "blue": "Bob"}
    told = {ruleset: [tell({"type": t, "payload": p}, Table(ruleset, names)) for t, p in examples.items()]
            for ruleset in ("mayfair", "ffg")}
    assert told["mayfair"] == [
        "The cone is aimed at Bob's planet 3.",
        "Ann launches 4 tokens (2 from Ann's planet 1 and 2 from Ann's planet 2) to the offense side of the cone.",
        "The offense totals 16, the defense 11: the offense wins."]
    assert told["ffg"] == [
        "The gate is aimed at Bob's planet 3.",
        "Ann launches 4 ships (2 from Ann's planet 1 and 2 from Ann's planet 2) to the offense side of the gate.",
        "The offense totals 16, the defense 11: the offense wins."]


def test_names_are_told_as_typed_and_told_apart():
    table = Table.of({"ruleset": "ffg", "players": {"red": {"name": "Base Camp"}, "blue": {"name": "Bo"},
                                                    "yellow": {"name": "Bo"}}})
    assert table.names == {"red": "Base Camp", "blue": "Bo (blue)", "yellow": "Bo (yellow)"}
    text = tell({"type": "TurnBegan", "payload": {"player": "red", "turn": 3}}, table)
    assert text == "Turn 3: Base Camp is the offense."  # a name is not "spoken" into the edition's words


def names_of_card(card_id: str, table: Table) -> list[str]:
    """How a sentence could name a card: its told name and its id."""
    told = card_name(card_id, table)
    core = told.replace(" (an edict)", "").replace(" (an artifact)", "").replace("the ", "")
    return [core, card_id]


def mentions(text: str, name: str) -> bool:
    return re.search(r"(?<![\w+:.])" + re.escape(name) + r"(?!\w|\.\d)", text) is not None


def card_ids(value) -> list[str]:
    """The card ids in a payload value (a card, a list of cards)."""
    values = value if isinstance(value, list) else [value]
    found = []
    for v in values:
        if isinstance(v, str):
            try:
                cards.card(v)
            except KeyError:
                continue
            found.append(v)
    return found


def test_a_seats_sentences_never_name_a_card_hidden_from_it(games):
    """Each private card field an event hides from a reader: no card in it is named in that reader's sentence,
    unless the reader's own view of the event shows the same card elsewhere. The admin's sentence of the same
    event does name it (so the check would see a leak)."""
    checked = 0
    for events, table in games:
        colours = sorted(table.names)
        for event in events:
            etype = catalog.TYPES.get(event["type"])
            if etype is None or not etype.private:
                continue
            for viewer in [*colours, None]:
                shown = redact(event, viewer)["payload"]
                hidden = [c for name in etype.private for c in card_ids(event["payload"].get(name))
                          if shown.get(name) != event["payload"].get(name)]
                if not hidden:
                    continue
                visible = {c for value in shown.values() for c in card_ids(value)}
                text = narrated(event, viewer, table)["text"]
                admin_text = sentence(event, ADMIN, table)
                for card in hidden:
                    if any(cards.card_kind_name(card) == cards.card_kind_name(v) for v in visible):
                        continue  # another copy of the same card is named openly in this event
                    for name in names_of_card(card, table):
                        assert not mentions(text, name), f"{viewer} reads {name!r} in {text!r} ({event})"
                    if event["type"] not in SHUFFLES:  # a shuffled deck is counted, never listed, even to the admin
                        assert any(mentions(admin_text, n) for n in names_of_card(card, table)), (event, admin_text)
                    checked += 1
    assert checked > 1000  # hidden draws, hands, face-down challenge cards


def test_a_seats_sentences_never_name_the_aliens_another_was_offered_or_chose_in_secret(games):
    checked = 0
    for events, table in games:
        for event in (e for e in events if e["type"] in ("PowersOffered", "PowerChosen")):
            owner = event["payload"]["player"]
            for viewer in [c for c in table.names if c != owner] + [None]:
                text = sentence(event, viewer, table)
                for power in event["payload"]["powers"]:
                    assert not mentions(text, power), (viewer, text)
                    checked += 1
            assert all(mentions(sentence(event, owner, table), power) for power in event["payload"]["powers"])
    assert checked > 50


def test_a_hidden_card_is_told_as_a_card_and_counted():
    table = Table("mayfair", {"red": "Ann", "blue": "Bob"})
    drawn = {"type": "CardsMoved", "payload": {"cards": ["A8.3", "C.2"], "src": "deck", "dst": "hand:red",
                                               "seen_by": ["red"], "reason": "reward"}}
    assert sentence(drawn, "red", table) == "Ann draws Attack 8 and Compromise (reward)."
    assert sentence(drawn, "blue", table) == "Ann draws 2 cards (reward)."
    chosen = {"type": "ChallengeCardChosen", "payload": {"player": "blue", "side": "defense", "card": "A12.1",
                                                         "seen_by": ["blue"]}}
    assert sentence(chosen, "red", table) == "Bob chooses a challenge card face down for the defense."
    assert sentence(chosen, "blue", table) == "Bob chooses Attack 12 face down for the defense."
    assert sentence(chosen, "red", Table("ffg", table.names)) == \
        "Bob chooses an encounter card face down for the defense."


@pytest.mark.parametrize("ruleset", ["mayfair", "ffg"])
def test_a_seat_handed_to_a_bot_and_taken_back_is_told_in_the_log(ruleset):
    table = Table(ruleset=ruleset, names={"red": "Ann"})
    asked = {"type": "SeatHandedToBot", "payload": {"player": "red", "level": "heuristic", "reason": "asked"}}
    missed = {"type": "SeatHandedToBot", "payload": {"player": "red", "level": "random", "reason": "missed",
                                                     "missed": 3}}
    back = {"type": "SeatTakenBack", "payload": {"player": "red"}}
    for viewer in (ADMIN, "red", "blue", None):
        assert sentence(asked, viewer, table) == "Ann hands the red seat to a heuristic bot."
        assert sentence(missed, viewer, table) == ("Ann let 3 decisions in a row run out of time: a random bot "
                                                   "plays the red seat now.")
        assert sentence(back, viewer, table) == "Ann takes the red seat back from its bot."
