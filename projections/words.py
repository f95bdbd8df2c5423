"""The words a table of each edition uses, for what clients show: prompts, the board, the catalogue.

The engine speaks one vocabulary inside (RULES.md's: token, base, cone, challenge, Compromise,
consolation, edict). A game of the ``ffg`` edition is shown in that edition's words (ship, colony,
gate, encounter, Negotiate, compensation, artifact: RULES.md 9): every prompt gets a ``title`` in
them and its options' labels are told in them; the board says which word each part of the state
goes by (``terms``); the catalogue of the edition describes its cards in them. Machine keys
(prompt kinds, actions, field names, event types) never change: only what a person reads does.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine import rulesets

# What each kind of decision asks, in RULES.md's words (`speak` turns them into the edition's).
TITLES = {
    "choose_power": "Choose your alien power",
    "punt": "Play your turn, or punt",
    "regroup": "Regroup: bring a token back from the warp",
    "own_colour": "Your own colour came up: choose what to do",
    "choose_defense": "Choose the defense",
    "launch": "Launch: put tokens on the cone and aim it",
    "invite": "Invite allies",
    "alliance": "Join a side as an ally, or decline",
    "challenge_card": "Choose your challenge card",
    "window": "Use a card or a power now, or pass",
    "response": "Answer the card or power just used, or pass",
    "reaction": "Use your power in answer to what happened, or decline",
    "deal": "Make a deal",
    "give_cards": "Give the cards the deal promised",
    "take_base": "Take the base the deal gave you",
    "place_tokens": "Place your tokens on your bases",
    "choose_losses": "Choose the tokens you lose",
    "rewards": "Collect your rewards: cards or tokens from the warp",
    "second_challenge": "Challenge again, or end your turn",
    "card_offer": "Take the card offered to you, or turn it down",
    "fetch_reward": "The card you offered was taken: bring a token back from the warp or draw a card",
    "fetch_refused": "The card you offered was turned down: keep it, or leave it on the discard pile",
    "execute": "Choose the token your power sends to the warp",
    "replace": "Put one of your tokens from the warp in the place of the token sent away",
    "choose_hoard": "Choose which of your two hands is your hoard",
}

# The stages of a challenge by number (the engine's StageBegan events), in RULES.md's words (section 4), and
# the phases an ffg table calls them by (RULES.md 9: regroup, destiny, launch, alliance, planning, reveal,
# resolution).
STAGES = {1: "regroup", 2: "destiny", 3: "launch", 4: "offense invites", 5: "defense invites", 6: "alliances",
          7: "play challenge cards", 8: "reveal and resolve", 9: "discard", 10: "end of challenge"}
FFG_PHASES = {1: "regroup", 2: "destiny", 3: "launch", 4: "alliance (the offense invites)",
              5: "alliance (the defense invites)", 6: "alliance", 7: "planning", 8: "reveal and resolution",
              9: "resolution (the encounter cards are discarded)", 10: "end of the encounter"}

# The phase of the Fantasy Flight turn a numbered stage of RULES.md 4 falls in (RULES.md 9): what an ffg text
# says where RULES.md's says "stage 8" (its phases have names, not numbers; stage 8 is the reveal, and the
# resolution takes in the discard and the end of the encounter).
PHASE_OF_STAGE = {1: "regroup", 2: "destiny", 3: "launch", 4: "alliance", 5: "alliance", 6: "alliance", 7: "planning",
                  8: "reveal", 9: "resolution", 10: "resolution"}

# RULES.md's word -> the Fantasy Flight word (RULES.md 9), longest first so "challenge card" wins
# over "challenge"; plural and capitalised forms follow the word. (The deck RULES.md calls the challenge deck
# is the cosmic deck.)
_FFG = (("challenge decks", "cosmic decks"), ("challenge deck", "cosmic deck"),
        ("challenge cards", "encounter cards"), ("challenge card", "encounter card"),
        ("external bases", "foreign colonies"), ("external base", "foreign colony"),
        ("home bases", "home colonies"), ("home base", "home colony"),
        ("challenges", "encounters"), ("challenge", "encounter"), ("bases", "colonies"), ("base", "colony"),
        ("tokens", "ships"), ("token", "ship"), ("cone", "gate"), ("compromises", "negotiates"),
        ("compromise", "negotiate"), ("consolation", "compensation"), ("edicts", "artifacts"),
        ("edict", "artifact"), ("stages", "phases"), ("stage", "phase"))


@lru_cache(maxsize=1)
def _ffg_pattern():
    # the article before a word goes with it: "a challenge card" becomes "an encounter card"
    return re.compile(r"\b(?:(an?) )?(" + "|".join(re.escape(word) for word, _ in _FFG) + r")\b", re.IGNORECASE)


def _with_article(article: str | None, word: str) -> str:
    if not article:
        return word
    fitting = "an" if word[:1].lower() in "aeiou" else "a"
    return f"{fitting[0].upper() + fitting[1:] if article[0].isupper() else fitting} {word}"


def _case_like(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


# "stage 8", "(stage 8)", "this stage 7": a stage named by its number, with what stands before it
_NUMBERED_STAGE = re.compile(r"(\()?\b(?:(the|this|that) )?\b(stage) (\d+)\b", re.IGNORECASE)


def _phase(m: re.Match) -> str:
    """A numbered stage as an ffg text says it: "(stage 8)" -> "(reveal phase)", "stage 9" -> "the resolution
    phase", "this stage 7" -> "this planning phase"."""
    phase = f"{PHASE_OF_STAGE.get(int(m.group(4)), 'resolution')} phase"
    if m.group(1):
        return f"({m.group(2) + ' ' if m.group(2) else ''}{phase}"
    determiner = m.group(2) or ("The" if m.group(3)[0].isupper() else "the")
    return f"{determiner} {phase}"


# a rule's title, "Stage 3, launch": "Launch phase: launch"
_STAGE_HEADING = re.compile(r"^Stage (\d+), ")


def _heading(m: re.Match) -> str:
    stage = int(m.group(1))
    if stage == 8:  # Mayfair's stage 8 holds both: "Stage 8, consolation" is told in the resolution
        return "Reveal and resolution phases: "
    return f"{PHASE_OF_STAGE.get(stage, 'resolution').capitalize()} phase: "


def speak(text: str | None, ruleset: str) -> str | None:
    """``text`` (in RULES.md's words) in the words of an edition's table."""
    if not text or ruleset != "ffg":
        return text
    table = dict(_FFG)
    text = _STAGE_HEADING.sub(_heading, text)
    text = _NUMBERED_STAGE.sub(_phase, text)
    return _ffg_pattern().sub(
        lambda m: _with_article(m.group(1), _case_like(m.group(2), table[m.group(2).lower()])), text)


@lru_cache(maxsize=1)
def mayfair_vocabulary() -> re.Pattern:
    """What a person must never read in an ffg game or catalogue: every word RULES.md 9 replaces (from the
    editions' word lists, `engine.rulesets`), in the singular and plural, "stage N" and "phase N" (the FFG phases
    have names, not numbers), and lucre (a Mayfair currency the FFG edition does not have)."""
    # (a word the FFG one only adds to, "power" -> "alien power", is the edition's too)
    replaced = {word for word, ffg in rulesets.FFG_WORDS.items() if word.lower() not in ffg.lower()}
    plurals = {f"{word}s" for word in replaced if not word.endswith("s")}
    words = sorted(replaced | plurals | {"lucre"}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b|\bphases? \d+", re.IGNORECASE)


def stage_name(stage: int, ruleset: str) -> str:
    """What a table of this edition calls a stage of the challenge (``7``: "play challenge cards", "planning")."""
    names = FFG_PHASES if ruleset == "ffg" else STAGES
    return names.get(stage) or f"stage {stage}"


def title(kind: str) -> str:
    """What a decision of this kind asks, in RULES.md's words."""
    return TITLES.get(kind) or kind.replace("_", " ").capitalize()


def told(prompt: dict, ruleset: str) -> dict:
    """A prompt as a client of this edition shows it: a ``title``, and its options' labels in its words.

    Under an edition other than RULES.md's, an option without a label gets one: its action in the edition's
    words ("challenge_again" is "encounter again" at an ffg table), so a client never shows a machine key
    that speaks Mayfair."""
    shown = {**prompt, "title": speak(title(prompt["kind"]), ruleset)}
    if ruleset != "mayfair":
        shown["options"] = [{**o, "label": speak(o.get("label") or o["action"].replace("_", " "), ruleset)}
                            for o in prompt["options"]]
        if prompt.get("info"):
            shown["info"] = _reasons_told(prompt["info"], ruleset)
    return shown


def _reasons_told(info, ruleset: str):
    """A prompt's ``info`` with every ``reason`` (words the engine wrote: "lost the challenge") in the edition's
    words; the rest of it (ids, kinds, places) is data and stays as it is."""
    if isinstance(info, dict):
        return {k: speak(v, ruleset) if k == "reason" and isinstance(v, str) else _reasons_told(v, ruleset)
                for k, v in info.items()}
    if isinstance(info, list):
        return [_reasons_told(v, ruleset) for v in info]
    return info


def terms(ruleset: str) -> dict:
    """Which word each part of the board goes by in this edition (``cone`` -> ``gate`` under ffg)."""
    return dict(rulesets.get(ruleset).words)
