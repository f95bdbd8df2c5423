"""The catalogue clients read (``GET /catalogue``, ``cosmic catalogue``): powers, flares, edicts, options.

Without an edition: every power and edict the engine knows, for both editions (each entry says
which, ``editions``), and the options. For one edition (``ruleset``): what a game of it may hold,
told in its words (`projections.words`): its powers and flares, its edicts (artifacts under ``ffg``),
the cards of its deck and of its destiny deck with their numbers of copies, its options, colours,
player counts and hand size, and the word each part of the board goes by (``terms``).
"""

from __future__ import annotations

from collections import Counter

from engine import cards, catalog, options, rulesets
from projections.words import speak, terms


def describe(ruleset: str | None = None) -> dict:
    """The catalogue, of every edition or of one (KeyError for an unknown edition)."""
    if ruleset is None:
        described = catalog.describe()
        described["options"] = options.describe()
        described["rulesets"] = list(options.RULESETS)
        return described
    edition = rulesets.get(ruleset)
    described = catalog.describe(ruleset)
    for power in described["powers"]:
        power["description"] = speak(power["description"], ruleset)
        for flare in power["flares"].values():
            flare["description"] = speak(flare["description"], ruleset)
    for edict in described["edicts"]:
        edict["description"] = speak(edict["description"], ruleset)
        edict["windows"] = list(catalog.EDICTS[edict["name"]].windows_in(ruleset))
    described.update(
        ruleset=ruleset, rulesets=list(options.RULESETS), options=options.describe(ruleset),
        colors=list(edition.colors), players={"min": edition.min_players, "max": edition.max_players},
        hand_size=edition.hand_size, terms=terms(ruleset), cards=deck_cards(ruleset),
        destiny=copies(cards.destiny_cards(list(edition.colors), reverse=ruleset == "mayfair", special=True,
                                           ruleset=ruleset)))
    return described


def deck_cards(ruleset: str) -> list[dict]:
    """The cards of the edition's deck but the flares (one per power dealt), with their copies; the
    Mayfair deck as the default options make it, War cards and kickers aside."""
    from engine.setup import cards_without_flares

    defaults = options.resolve(ruleset, {}, 3)
    listed = []
    for card_id, count in copies(cards_without_flares(defaults, ruleset)).items():
        definition = cards.card(card_id)
        listed.append({"card": card_id, "kind": definition["kind"], "name": speak(definition["name"], ruleset),
                       "value": definition["value"], "copies": count})
    return listed


def copies(card_ids: list[str]) -> dict:
    """``{card name: copies}`` of a list of card ids, in the order first met."""
    return dict(Counter(cards.card_kind_name(c) for c in card_ids))
