"""The catalogue clients read (``GET /catalogue``, ``cosmic catalogue``): powers, flares, edicts, options, bots.

Without an edition: every power and edict the engine knows, for both editions (each entry says
which, ``editions``), and the options. For one edition (``ruleset``): what a game of it may hold,
told in its words (`projections.words`): its powers and flares, its edicts (artifacts under ``ffg``),
the cards of its deck and of its destiny deck with their numbers of copies, its options, colours,
player counts and hand size, and the word each part of the board goes by (``terms``); in both, what each
kind of card does (``kinds``, the text of a card's face) and what each stage is called (``stages``).
"""

from __future__ import annotations

from collections import Counter

from engine import cards, catalog, levels, options, rulesets
from projections.words import STAGES, speak, stage_name, terms


def describe(ruleset: str | None = None) -> dict:
    """The catalogue, of every edition or of one (KeyError for an unknown edition)."""
    if ruleset is None:
        described = catalog.describe()
        described["options"] = options.describe()
        described["bots"] = levels.describe()
        described["rulesets"] = list(options.RULESETS)
        described["kinds"] = card_texts(None)
        described["stages"] = stages(None)
        return described
    edition = rulesets.get(ruleset)
    described = catalog.describe(ruleset)
    for power in described["powers"]:
        power["description"] = speak(power["description"], ruleset)
        power["timing"] = speak(power["timing"], ruleset)
        for flare in power["flares"].values():
            flare["description"] = speak(flare["description"], ruleset)
    for edict in described["edicts"]:
        edict["description"] = speak(edict["description"], ruleset)
        edict["windows"] = list(catalog.EDICTS[edict["name"]].windows_in(ruleset))
    described.update(
        ruleset=ruleset, rulesets=list(options.RULESETS),
        options=[{**o, "meaning": speak(o["meaning"], ruleset)} for o in options.describe(ruleset)],
        bots=[{**b, "meaning": speak(b["meaning"], ruleset)} for b in levels.describe()],
        colors=list(edition.colors), players={"min": edition.min_players, "max": edition.max_players},
        hand_size=edition.hand_size, terms=terms(ruleset), cards=deck_cards(ruleset), kinds=card_texts(ruleset), stages=stages(ruleset),
        destiny=copies(cards.destiny_cards(list(edition.colors), reverse=ruleset == "mayfair", special=True,
                                           ruleset=ruleset)))
    return described


# What each kind of card does, in RULES.md's words (sections 2, 4, 7, 9): the text a client shows on the
# card's face under its kind. Edicts and flares have their own texts (``edicts``, each power's ``flares``).
# (No "a" before a word an edition changes: "a challenge card" would read "a encounter card".)
CARD_TEXTS = {
    "attack": "Against an Attack, each side adds its card's value to its tokens in the "
              "challenge (the defense counts its tokens on the planet and its allies'); the higher total wins, a "
              "tie goes to the defense. Against a Compromise it wins.",
    "compromise": "Against an Attack it loses, and its player takes consolation: one card at "
                  "random from the winner's hand for each of its own tokens lost. Against a Compromise, the main "
                  "players have a limited time to make a deal; without one, each loses 3 tokens to the warp.",
    "morph": "Revealed, it becomes a copy of the card the other side revealed. Morph against "
             "Morph: both sides lose.",
    "war": "It beats an Attack, whose player takes consolation from the War player's hand; it "
           "loses to a Compromise, whose player takes consolation although it loses no token; War against War: "
           "both sides lose.",
    "reinforcement": "Played by a player involved in the challenge once the challenge cards are revealed: adds its "
                     "value to the total of either side.",
    "kicker": "Played face down beside its player's challenge card: multiplies its Attack's value (or its consolation, or the "
              "tokens a War makes the other side lose) by the kicker's value; below 1, tokens come back from the "
              "warp instead.",
    "edict": "Played face up, it takes effect at once (its own text says when and what).",
    "flare": "Its Wild effect for any player, its Super effect for the player whose own power it matches.",
}


def card_texts(ruleset: str | None) -> dict:
    """What each kind of card does, in the words of an edition (RULES.md's without one)."""
    return {kind: speak(text, ruleset) if ruleset else text for kind, text in CARD_TEXTS.items()}


def stages(ruleset: str | None) -> dict:
    """What a table of an edition (RULES.md's words without one) calls each stage, by number."""
    return {str(n): stage_name(n, ruleset or "mayfair") for n in STAGES}


def deck_cards(ruleset: str) -> list[dict]:
    """The cards of the edition's deck but the flares (one per power dealt), with their copies; the
    Mayfair deck as the default options make it, War cards and kickers aside."""
    from engine.setup import cards_without_flares

    defaults = options.resolve(ruleset, {}, 3)
    listed = []
    for card_id, count in copies(cards_without_flares(defaults, ruleset)).items():
        definition = cards.card(card_id)
        listed.append({"card": card_id, "kind": definition["kind"], "name": speak(definition["name"], ruleset),
                       "value": definition["value"], "copies": count,
                       "description": speak(CARD_TEXTS[definition["kind"]], ruleset)})
    return listed


def copies(card_ids: list[str]) -> dict:
    """``{card name: copies}`` of a list of card ids, in the order first met."""
    return dict(Counter(cards.card_kind_name(c) for c in card_ids))
