"""The two editions the engine plays: one turn sequence, two data sets and a few rules that differ.

``mayfair`` is the game of RULES.md sections 2-8 (000/002); ``ffg`` the Fantasy Flight edition of
RULES.md section 9 (003). Everything a rule needs to know about the edition of a game is here,
read with `of` (a state) or `get` (a name): the colours, how many players, the hand size, which
options make sense, how powers are handed out, what happens to a used flare, where the defense
draws a new hand, what a wild destiny card may name, and the words a table of that edition uses.
The decks are in `engine.cards` (`challenge_cards`, `destiny_cards`), built per edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAYFAIR_COLORS = ("red", "blue", "yellow", "purple", "light_blue", "orange")
FFG_COLORS = ("red", "blue", "yellow", "green", "purple")
ALL_COLORS = tuple(dict.fromkeys(MAYFAIR_COLORS + FFG_COLORS))

# The words of the Mayfair format (RULES.md's own) and their Fantasy Flight counterparts (RULES.md 9).
MAYFAIR_WORDS = {
    "token": "token", "tokens": "tokens", "base": "base", "bases": "bases", "home base": "home base",
    "external base": "external base", "cone": "cone", "challenge": "challenge", "stage": "stage",
    "compromise": "Compromise", "consolation": "consolation", "edict": "edict",
    "challenge card": "challenge card", "warp": "warp", "flare": "flare", "power": "power",
    "attack": "Attack", "reward": "reward", "deal": "deal", "ally": "ally",
}
FFG_WORDS = {
    "token": "ship", "tokens": "ships", "base": "colony", "bases": "colonies", "home base": "home colony",
    "external base": "foreign colony", "cone": "gate", "challenge": "encounter", "stage": "phase",
    "compromise": "Negotiate", "consolation": "compensation", "edict": "artifact",
    "challenge card": "encounter card", "warp": "warp", "flare": "flare", "power": "alien power",
    "attack": "Attack", "reward": "reward", "deal": "deal", "ally": "ally",
}


@dataclass(frozen=True)
class Ruleset:
    """One edition of the game."""

    name: str
    source: str                      # the rulebook file(s) it comes from
    colors: tuple[str, ...]
    min_players: int
    max_players: int
    hand_size: int
    # options of engine.options that make no sense in this edition: refused when asked for, and
    # held at these values in every game of it
    fixed_options: dict = field(default_factory=dict)
    powers_offered: int = 1          # powers a player is offered for each one it keeps (ffg: chooses 1 of 2)
    flare_kept: bool = False         # a used flare goes back to its owner's hand (ffg) or is discarded
    flares_per_encounter: int | None = None  # flares a player may play in one challenge (ffg: 1)
    defense_redraws_at_destiny: bool = True  # mayfair: the defense draws a new hand when determined
    wild_names_own_system: bool = True       # mayfair: a wild destiny card may name the offense's own
    cosmic_quake: bool = False       # ffg: nothing left to draw: every player discards and draws a new hand
    # ffg: compensation counts the loser's own ships that went to the warp in the encounter; mayfair: its
    # tokens in the challenge (so a Zombie, whose tokens never reach the warp, is still consoled)
    compensation_by_warp: bool = False
    # ffg: among players tied for a special destiny card, the one nearest the offense's left defends (the
    # card's words); mayfair: the offense chooses among them (RULES.md 2)
    special_ties_by_seat: bool = False
    # ffg: a timing window of the resolution phase once the ships have moved, before compensation and
    # rewards (Ionic Gas is played there); mayfair has none
    compensation_window: str | None = None
    # ffg: an offense left without an encounter card plays on to the planning phase, where its encounter and
    # turn end (a power or flare may give it one first); mayfair: its turn ends at the next boundary (000)
    offense_plays_to_planning: bool = False
    words: dict = field(default_factory=dict)

    def word(self, mayfair_word: str) -> str:
        """This edition's word for one of RULES.md's (``token`` -> ``ship`` under ``ffg``)."""
        return self.words.get(mayfair_word, mayfair_word)


MAYFAIR = Ruleset(
    name="mayfair", source="000, 002", colors=MAYFAIR_COLORS, min_players=2, max_players=6, hand_size=7,
    words=MAYFAIR_WORDS,
)

FFG = Ruleset(
    name="ffg", source="003", colors=FFG_COLORS, min_players=2, max_players=5, hand_size=8,
    fixed_options={"simplified": False, "reverse_cone": False, "edicts": True, "special_destiny": True,
                   "war_cards": False, "kickers": False, "punt": False, "reverse_warp": False},
    powers_offered=2, flare_kept=True, flares_per_encounter=1, defense_redraws_at_destiny=False,
    wild_names_own_system=False, cosmic_quake=True, compensation_by_warp=True,
    special_ties_by_seat=True, compensation_window="before_compensation",
    offense_plays_to_planning=True, words=FFG_WORDS,
)

RULESETS: dict[str, Ruleset] = {MAYFAIR.name: MAYFAIR, FFG.name: FFG}


def get(name: str) -> Ruleset:
    """The edition of this name (KeyError for an unknown one; `engine.options.resolve` refuses it first)."""
    return RULESETS[name]


def of(state: dict) -> Ruleset:
    """The edition a game is played in (``mayfair`` for a game created before editions were named)."""
    return RULESETS[state.get("ruleset") or "mayfair"]
