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
FFG_PHASES = {1: "regroup", 2: "destiny", 3: "launch", 4: "alliance: the offense invites",
              5: "alliance: the defense invites", 6: "alliance", 7: "planning", 8: "reveal and resolution",
              9: "resolution: discard", 10: "end of the encounter"}

# RULES.md's word -> the Fantasy Flight word (RULES.md 9), longest first so "challenge card" wins
# over "challenge"; plural and capitalised forms follow the word.
_FFG = (("challenge cards", "encounter cards"), ("challenge card", "encounter card"),
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


def speak(text: str | None, ruleset: str) -> str | None:
    """``text`` (in RULES.md's words) in the words of an edition's table."""
    if not text or ruleset != "ffg":
        return text
    table = dict(_FFG)
    return _ffg_pattern().sub(
        lambda m: _with_article(m.group(1), _case_like(m.group(2), table[m.group(2).lower()])), text)


def stage_name(stage: int, ruleset: str) -> str:
    """What a table of this edition calls a stage of the challenge (``7``: "play challenge cards", "planning")."""
    names = FFG_PHASES if ruleset == "ffg" else STAGES
    return names.get(stage) or f"stage {stage}"


def title(kind: str) -> str:
    """What a decision of this kind asks, in RULES.md's words."""
    return TITLES.get(kind) or kind.replace("_", " ").capitalize()


def told(prompt: dict, ruleset: str) -> dict:
    """A prompt as a client of this edition shows it: a ``title``, and its options' labels in its words."""
    shown = {**prompt, "title": speak(title(prompt["kind"]), ruleset)}
    if ruleset != "mayfair":
        shown["options"] = [{**o, "label": speak(o["label"], ruleset)} if o.get("label") else o
                            for o in prompt["options"]]
    return shown


def terms(ruleset: str) -> dict:
    """Which word each part of the board goes by in this edition (``cone`` -> ``gate`` under ffg)."""
    return dict(rulesets.get(ruleset).words)
