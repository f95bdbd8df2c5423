"""Every power, flare and edict the engine knows, gathered from their modules.

Power modules live in `engine/powers/` (``POWER``, ``WILD``, ``SUPER``), edict modules in
`engine/edicts/` (``EDICT``). Adding a power is adding a module: nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from engine import cards, edicts, powers
from engine.hooks import register_effect
from engine.powers.base import CardAbility, Edict, Flare, Power
from engine.state import active_powers

SIMPLIFIED_POWERS = ("Chronos", "Filch", "Laser", "Macron", "Mind", "Mutant")

POWERS: dict[str, Power] = {}
FLARES: dict[str, dict[str, Flare]] = {}
EDICTS: dict[str, Edict] = {}


def _modules(package) -> list:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name != "base")
    return [importlib.import_module(f"{package.__name__}.{name}") for name in names]


def _load() -> None:
    for module in _modules(powers):
        power = module.POWER
        POWERS[power.name] = power
        pair = {}
        for mode in ("wild", "super"):
            flare = getattr(module, mode.upper(), None)
            if flare is not None:
                pair[mode] = flare
                register_effect(flare.source, flare)
        if pair:
            FLARES[power.name] = pair
    for module in _modules(edicts):
        edict = module.EDICT
        EDICTS[edict.name] = edict
        register_effect(edict.source, edict)


_load()


def power_pool(options: dict) -> list[str]:
    """The powers that may be dealt under these options, in name order."""
    if options.get("simplified"):
        names = [n for n in SIMPLIFIED_POWERS if n in POWERS]
    else:
        names = [n for n, p in POWERS.items() if p.requires is None or options.get(p.requires)]
    if options.get("power_pool"):
        names = [n for n in names if n in options["power_pool"]]
    return sorted(names)


def flare_pool(options: dict) -> list[str]:
    """The flare cards that may go into the challenge deck under these options."""
    if not options.get("flares"):
        return []
    return [cards.flare_card(n) for n in power_pool(options) if n in FLARES]


def card_ability(state: dict, player: str, card_id: str) -> CardAbility | None:
    """What playing a card from a hand does: the Super or Wild flare, the edict, the reinforcement."""
    abilities = card_abilities(card_id)
    if abilities is None:
        return None
    if len(abilities) == 1:
        return abilities[0]
    wild, super_ = abilities  # a flare: the Super when it is the player's own power and that power works
    return super_ if (player, cards.flare_power(card_id)) in active_powers(state) else wild


@cache
def card_abilities(card_id: str) -> tuple | None:
    """What a card can do when played from a hand: ``(ability,)``, a flare's ``(wild, super)``, or None
    (a challenge card, a kicker, a flare whose power has no flare here)."""
    from engine.reinforcement import REINFORCEMENT

    kind = cards.kind(card_id)
    if kind == "flare":
        pair = FLARES.get(cards.flare_power(card_id))
        return (pair.get("wild"), pair.get("super")) if pair else None
    if kind == "edict":
        edict = EDICTS.get(cards.edict_name(card_id))
        return (edict,) if edict else None
    if kind == "reinforcement":
        return (REINFORCEMENT,)
    return None


@cache
def card_windows(card_id: str) -> frozenset[str]:
    """Every timing window in which a card could be played, whatever the player's powers ("*": any)."""
    return frozenset(window for ability in card_abilities(card_id) or () if ability is not None
                     for window in ability.windows)


def describe() -> dict:
    """The catalogue for clients: every power with its flares, every edict."""
    listed = []
    for name in sorted(POWERS):
        entry = POWERS[name].catalogue()
        entry["flares"] = {mode: flare.catalogue() for mode, flare in FLARES.get(name, {}).items()}
        listed.append(entry)
    return {"powers": listed, "edicts": [EDICTS[n].catalogue() for n in sorted(EDICTS)]}


def handler_for(source: str):
    """The power, flare effect, edict or reinforcement a recorded use refers to."""
    from engine.reinforcement import REINFORCEMENT

    kind, _, rest = source.partition(":")
    if kind == "power":
        return POWERS[rest]
    if kind == "flare":
        power, _, mode = rest.partition(":")
        return FLARES[power][mode]
    if kind == "edict":
        return EDICTS[rest]
    return REINFORCEMENT
