"""RULES.md 9: every word a person reads of an ffg game or of the ffg catalogue is the edition's word.

The Mayfair vocabulary is built from the editions' word lists (`engine.rulesets.FFG_WORDS`, through
`projections.words.mayfair_vocabulary`): token, base, home / external base, cone, challenge (card), stage,
Compromise, consolation, edict, in the singular and plural, a numbered stage or phase, and lucre. These tests
scan every string of the ffg catalogue (but the machine keys a client never shows: ids, kinds, windows), and
every prompt title and option label, the board's pending titles and terms, and every sentence of the log of
a complete ffg game, for each reader; and the grammar of the words put in ("an encounter", "a ship").
"""

from __future__ import annotations

import contextlib
import io
import random
import re

import pytest

from engine.decide import prompts
from engine.simulate import legal_answer, new_game
from projections import views
from projections.catalogue import describe
from projections.log import log_view
from projections.sentences import Table, sentence
from projections.words import FFG_PHASES, mayfair_vocabulary, speak, told

MAYFAIR = mayfair_vocabulary()
# the article before a word the edition puts in: "a encounter" and "an ship" are what a careless swap writes
ARTICLE = re.compile(r"\ba (?:encounter|artifact)|\ban (?:ship|colony|colonies|gate|negotiate|phase|compensation|"
                     r"cosmic|foreign|home)\b", re.IGNORECASE)
# catalogue fields that are machine keys (ids, kinds, windows, editions), never shown as they are
MACHINE_FIELDS = {"kind", "windows", "who", "card", "mode", "power", "editions", "rulesets", "ruleset", "colors",
                  "requires", "type", "provenance"}


def mayfair_words_in(text: str) -> list[str]:
    return [m.group(0) for m in MAYFAIR.finditer(text)] + [m.group(0) for m in ARTICLE.finditer(text)]


def strings(value, key=None):
    """Every string value of a JSON document (not the keys, which are machine keys), with its field's name."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)
    elif isinstance(value, str):
        yield key, value


def test_the_vocabulary_is_the_mapping_s_and_catches_what_a_careless_text_says():
    for said in ("3 tokens", "a base", "home bases", "the cone", "a challenge card", "stage 9", "Compromise",
                 "consolation", "an edict", "challenge deck", "phase 8", "lucre"):
        assert MAYFAIR.search(said), said
    for said in ("3 ships", "a colony", "home colonies", "the gate", "an encounter card", "the resolution phase",
                 "Negotiate", "compensation", "an artifact", "cosmic deck", "alien power", "based on"):
        assert not MAYFAIR.search(said), said
    assert mayfair_words_in("a encounter") and mayfair_words_in("an ship") and not mayfair_words_in("a use")


def test_speak_names_numbered_stages_by_their_ffg_phase():
    assert speak("the reveal (stage 8), as a main player", "ffg") == "the reveal (reveal phase), as a main player"
    assert speak("stage 9 (discard)", "ffg") == "the resolution phase (discard)"
    assert speak("At stage 9, take the challenge card", "ffg") == "At the resolution phase, take the encounter card"
    assert speak("as an ally in stage 6", "ffg") == "as an ally in the alliance phase"
    assert speak("this stage 7", "ffg") == "this planning phase"
    assert speak("flares are shuffled into the challenge deck", "ffg") == "flares are shuffled into the cosmic deck"
    # Mayfair's words stay Mayfair's
    assert speak("the reveal (stage 8) of a challenge card", "mayfair") == "the reveal (stage 8) of a challenge card"


def test_the_ffg_catalogue_speaks_only_the_edition_s_words():
    catalogue = describe("ffg")
    found = [(key, text) for key, text in strings(catalogue) if key not in MACHINE_FIELDS and mayfair_words_in(text)]
    assert found == []
    timings = {p["name"]: p["timing"] for p in catalogue["powers"]}
    assert timings["Clone"] == "the resolution phase (discard)"
    assert timings["Will"] == "destiny (destiny phase)"
    assert {o["name"]: o["meaning"] for o in catalogue["options"]}["flares"] == "flares are shuffled into the cosmic deck"
    assert catalogue["stages"] == {str(n): name for n, name in FFG_PHASES.items()}


def test_cosmic_catalogue_ffg_prints_only_the_edition_s_words():
    from app.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["catalogue", "--ruleset", "ffg"]) == 0
    printed = out.getvalue()
    assert "Anti-Matter" in printed and "the reveal (reveal phase)" in printed
    assert [line for line in printed.splitlines() if mayfair_words_in(line)] == []


def test_the_encounter_again_choice_of_an_ffg_game_is_labelled_in_its_words():
    prompt = {"id": "p", "player": "red", "kind": "second_challenge", "info": {},
              "options": [{"action": "challenge_again", "args": {}}, {"action": "end_turn", "args": {}}]}
    shown = told(prompt, "ffg")
    assert shown["title"] == "Encounter again, or end your turn"
    assert [o["label"] for o in shown["options"]] == ["encounter again", "end turn"]
    # a Mayfair prompt is shown as it always was: no label is made up
    assert [o.get("label") for o in told(prompt, "mayfair")["options"]] == [None, None]


def test_the_reasons_a_prompt_gives_are_told_in_the_edition_s_words():
    prompt = {"id": "p", "player": "red", "kind": "reaction", "options": [{"action": "decline", "args": {}}],
              "info": {"power": "Reincarnator", "context": {"reason": "lost the challenge", "from": "cone:offense"}}}
    assert told(prompt, "ffg")["info"] == {"power": "Reincarnator",
                                          "context": {"reason": "lost the encounter", "from": "cone:offense"}}
    assert told(prompt, "mayfair")["info"] == prompt["info"]


def test_stage_sentences_name_the_ffg_phase_and_keep_the_mayfair_stage():
    event = {"type": "StageBegan", "payload": {"stage": 7, "name": "play challenge cards"}}
    assert sentence(event, None, Table(ruleset="ffg")) == "Planning."
    assert sentence(event, None, Table(ruleset="mayfair")) == "Stage 7: play challenge cards."


def test_a_turn_ended_by_an_offense_out_of_cards_is_told_in_the_edition_s_words():
    event = {"type": "TurnEnded", "payload": {"player": "red", "reason": "offense has no challenge card"}}
    told_ffg = sentence(event, None, Table(ruleset="ffg"))
    assert "turn ends" in told_ffg and not mayfair_words_in(told_ffg), told_ffg
    assert "challenge card" in sentence(event, None, Table(ruleset="mayfair"))


@pytest.mark.parametrize("seed", ["words-1", "words-2"])
def test_a_complete_ffg_game_shows_no_mayfair_word(seed):
    state, log = new_game(seed, 4, {}, "ffg")
    rng, clock, read, found, kinds = random.Random(seed), 0, 0, [], set()

    def read_text(where, text):
        nonlocal read
        read += 1
        found.extend((where, word, text) for word in mayfair_words_in(text))

    for _ in range(4000):
        if state["status"] != "playing":
            break
        board = views.board(state)
        for owed in board["pending"]:
            read_text("pending title", owed["title"])
        for word in board["terms"].values():
            read_text("board terms", word)
        for colour in state["order"]:
            for prompt in views.own_prompts(state, colour):
                kinds.add(prompt["kind"])
                read_text("prompt title", prompt["title"])
                for key, text in strings(prompt.get("info")):
                    if key == "reason":
                        read_text("prompt reason", text)
                for option in prompt["options"]:
                    assert option.get("label"), (prompt["kind"], option["action"])  # nothing shown as a key
                    read_text("option label", option["label"])
        clock += 1000
        events, state = legal_answer(state, rng.choice(prompts(state)), rng, clock)
        log += events
    assert state["status"] == "finished"
    table = Table.of(state)
    for viewer in [None, *state["order"]]:
        for entry in log_view(log, viewer, table=table):
            read_text(f"log {entry['type']}", entry["text"])
    assert {"launch", "challenge_card", "window"} <= kinds and read > 5000  # a whole game was read
    assert found == []
