"""Card definitions as data: what each card id is, and the decks each ruleset builds.

Card ids name the card and, where a deck holds several copies, the copy: ``A8.3`` is the
third Attack 8, ``C.12`` a Compromise, ``R+3.2`` a reinforcement, ``CosmicZap.1`` an
edict, ``Flare:Macron`` a flare, ``War.4`` a War card, ``Kx2.1`` a kicker. The Fantasy Flight
deck (``ffg``) has ``N.1``..``N.15`` (Negotiates: Compromises by their rules), one ``Morph`` and
its artifacts, which are edicts by their rules (``IonicGas`` is its own). Destiny cards:
``red.1``..``red.3`` (regular), ``red.rev`` (reverse), ``wild`` (``wild.1``, ``wild.2`` under
``ffg``), ``wild.rev``, and the instructional (``ffg``: special) ``inst:most-bases``,
``inst:most-cards``, ``inst:fewest-warp``.

A scenario may name a card by its kind without the copy suffix (``A8``); `resolve_names`
picks the first unused copy.
"""

from __future__ import annotations

from functools import cache

CHALLENGE_KINDS = frozenset({"attack", "compromise", "war", "morph"})

MAYFAIR_ATTACKS = {1: 1, 4: 2, 5: 2, 6: 8, 7: 4, 8: 8, 9: 2, 10: 6, 11: 2, 12: 5, 13: 1, 14: 2,
                   15: 4, 16: 1, 17: 1, 18: 1, 19: 1, 20: 2, 30: 1, 40: 1}
MAYFAIR_COMPROMISES = 17
FFG_ATTACKS = {0: 1, 1: 1, 4: 4, 5: 1, 6: 7, 7: 1, 8: 7, 9: 1, 10: 4, 11: 1, 12: 2, 13: 1, 14: 2,
               15: 1, 20: 2, 23: 1, 30: 1, 40: 1}
FFG_NEGOTIATES = 15
REINFORCEMENTS = {2: 2, 3: 3, 5: 1}  # decision (RULES.md section 2)
EDICTS = {"CosmicZap": 4, "CardZap": 2, "MobiusTubes": 2, "WarpBreak": 2, "Plague": 2,
          "EmotionControl": 2, "ForceField": 2, "Quash": 2, "StellarGas": 2, "CosmicGas": 2}
# RULES.md 9: the eleven artifacts of the Fantasy Flight deck
FFG_ARTIFACTS = {"CardZap": 2, "CosmicZap": 2, "MobiusTubes": 2, "EmotionControl": 1, "ForceField": 1,
                 "IonicGas": 1, "Plague": 1, "Quash": 1}
EDICT_NAMES = frozenset(EDICTS) | frozenset(FFG_ARTIFACTS)
WAR_CARDS = 5
KICKERS = (-1, 0, 2, 2, 3)  # decision (RULES.md section 7)
INSTRUCTIONAL = ("most-bases", "most-cards", "fewest-warp")


def _copies(prefix: str, count: int) -> list[str]:
    """Ids for ``count`` copies of one card: no suffix when the deck holds a single copy."""
    if count == 1:
        return [prefix]
    return [f"{prefix}.{n}" for n in range(1, count + 1)]


def mayfair_challenge_cards() -> list[str]:
    """The 72 challenge cards of the Mayfair deck: 55 Attacks and 17 Compromises."""
    ids = []
    for value, count in MAYFAIR_ATTACKS.items():
        ids += _copies(f"A{value}", count)
    ids += _copies("C", MAYFAIR_COMPROMISES)
    return ids


def ffg_encounter_cards() -> list[str]:
    """The 55 encounter cards of the Fantasy Flight deck: 39 Attacks, 15 Negotiates, 1 Morph (RULES.md 9)."""
    ids = []
    for value, count in FFG_ATTACKS.items():
        ids += _copies(f"A{value}", count)
    return ids + _copies("N", FFG_NEGOTIATES) + ["Morph"]


def artifact_cards() -> list[str]:
    """The 11 artifacts of the Fantasy Flight deck."""
    ids = []
    for name, count in FFG_ARTIFACTS.items():
        ids += _copies(name, count)
    return ids


def reinforcement_cards() -> list[str]:
    """The reinforcement cards (+2 x2, +3 x3, +5 x1)."""
    ids = []
    for value, count in REINFORCEMENTS.items():
        ids += _copies(f"R+{value}", count)
    return ids


def edict_cards() -> list[str]:
    """The 22 Mayfair edicts."""
    ids = []
    for name, count in EDICTS.items():
        ids += _copies(name, count)
    return ids


def war_cards() -> list[str]:
    """The five War cards of 004."""
    return _copies("War", WAR_CARDS)


def kicker_cards() -> list[str]:
    """The kicker deck."""
    ids, seen = [], {}
    for value in KICKERS:
        seen[value] = seen.get(value, 0) + 1
    for value, count in seen.items():
        ids += _copies(f"Kx{value}", count)
    return ids


def flare_card(power: str) -> str:
    """The flare card of a power."""
    return f"Flare:{power}"


@cache
def card(card_id: str) -> dict:
    """The definition of a challenge-deck card: kind, value (attacks, reinforcements, kickers), name."""
    base = card_id.split(".")[0] if not card_id.startswith("Flare:") else card_id
    if card_id.startswith("Flare:"):
        return {"id": card_id, "kind": "flare", "name": card_id[6:], "value": None}
    if base.startswith("A") and base[1:].isdigit():
        return {"id": card_id, "kind": "attack", "value": int(base[1:]), "name": f"Attack {base[1:]}"}
    if base == "C":
        return {"id": card_id, "kind": "compromise", "value": None, "name": "Compromise"}
    if base == "N":  # the Fantasy Flight Negotiate: a Compromise by its rules
        return {"id": card_id, "kind": "compromise", "value": None, "name": "Negotiate"}
    if base == "Morph":
        return {"id": card_id, "kind": "morph", "value": None, "name": "Morph"}
    if base.startswith("R+"):
        return {"id": card_id, "kind": "reinforcement", "value": int(base[2:]), "name": f"Reinforcement {base}"}
    if base == "War":
        return {"id": card_id, "kind": "war", "value": None, "name": "War"}
    if base.startswith("Kx"):
        return {"id": card_id, "kind": "kicker", "value": int(base[2:]), "name": f"Kicker x{base[2:]}"}
    if base in EDICT_NAMES:
        return {"id": card_id, "kind": "edict", "value": None, "name": base}
    raise KeyError(f"unknown card {card_id!r}")


@cache  # (asked of every card in every hand at every step)
def kind(card_id: str) -> str:
    """The kind of a card: attack, compromise, war, morph, reinforcement, edict, flare, kicker."""
    return card(card_id)["kind"]


@cache  # (asked of every card in every hand at every step)
def is_challenge_card(card_id: str) -> bool:
    """Attack, Compromise, War (and the ffg Morph) are challenge cards; nothing else is."""
    return card(card_id)["kind"] in CHALLENGE_KINDS


def attack_value(card_id: str) -> int | None:
    """The printed value of an Attack card, None for any other card."""
    definition = card(card_id)
    return definition["value"] if definition["kind"] == "attack" else None


def edict_name(card_id: str) -> str | None:
    """The edict a card is (``CosmicZap``), or None."""
    definition = card(card_id)
    return definition["name"] if definition["kind"] == "edict" else None


def flare_power(card_id: str) -> str | None:
    """The power a flare card belongs to, or None."""
    definition = card(card_id)
    return definition["name"] if definition["kind"] == "flare" else None


@cache  # (asked of every card in every hand at every step)
def card_kind_name(card_id: str) -> str:
    """The card without its copy suffix: what a scenario may write (``A8``, ``CosmicZap``)."""
    return card_id if card_id.startswith("Flare:") else card_id.split(".")[0]


# Destiny cards -----------------------------------------------------------------------------

def destiny_cards(colors: list[str], *, reverse: bool, special: bool, ruleset: str = "mayfair") -> list[str]:
    """The destiny deck for the colours in play (RULES.md section 2; ``ffg``, section 9: 3 per colour,
    2 wild and the 3 special cards)."""
    if ruleset == "ffg":
        ids = [f"{color}.{n}" for color in colors for n in (1, 2, 3)]
        return ids + ["wild.1", "wild.2"] + [f"inst:{name}" for name in INSTRUCTIONAL]
    ids = []
    for color in colors:
        ids += [f"{color}.1", f"{color}.2", f"{color}.3"]
        if reverse:
            ids.append(f"{color}.rev")
    ids.append("wild")
    if reverse and len(colors) > 3:
        ids.append("wild.rev")
    if special:
        ids += [f"inst:{name}" for name in INSTRUCTIONAL]
    return ids


@cache
def destiny(card_id: str) -> dict:
    """What a destiny card says: ``kind`` colour/wild/instruction, its colour, reverse or not."""
    if card_id.startswith("inst:"):
        return {"id": card_id, "kind": "instruction", "color": None, "reverse": False,
                "instruction": card_id[5:]}
    name, _, suffix = card_id.partition(".")
    reverse = suffix == "rev"
    if name == "wild":
        return {"id": card_id, "kind": "wild", "color": None, "reverse": reverse, "instruction": None}
    return {"id": card_id, "kind": "color", "color": name, "reverse": reverse, "instruction": None}


def resolve_names(names: list[str], available: list[str]) -> list[str]:
    """Turn scenario card names (exact ids or kinds such as ``A8``) into distinct ids from ``available``.

    Raises ValueError naming the first card that cannot be supplied.
    """
    pool = list(available)
    chosen = []
    for name in names:
        if name in pool:
            pick = name
        else:
            pick = next((c for c in pool if card_kind_name(c) == name), None)
            if pick is None:
                raise ValueError(f"no card {name!r} left to stack")
        pool.remove(pick)
        chosen.append(pick)
    return chosen
