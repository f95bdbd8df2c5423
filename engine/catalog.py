"""Every power, flare and edict the engine knows, gathered from their modules.

Power modules live in `engine/powers/` (``POWER``, ``WILD``, ``SUPER``), edict modules in
`engine/edicts/` (``EDICT``). Adding a power is adding a module: nothing else changes. They are
entered in the tables of `engine.registry` (``POWERS``, ``FLARES``, ``EDICTS``, named here too);
what a card or a recorded use does is looked up in `engine.abilities`.
"""

from __future__ import annotations

import importlib
import pkgutil

from engine import cards, edicts, powers
from engine.registry import EDICTS, FLARES, POWERS, register_effect

SIMPLIFIED_POWERS = ("Chronos", "Filch", "Laser", "Macron", "Mind", "Mutant")


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


def power_pool(options: dict, ruleset: str = "mayfair") -> list[str]:
    """The powers that may be dealt under these options in this edition, in name order."""
    if options.get("simplified"):
        names = [n for n in SIMPLIFIED_POWERS if n in POWERS]
    else:
        names = [n for n, p in POWERS.items()
                 if ruleset in p.editions and (p.requires is None or options.get(p.requires))]
    if options.get("power_pool"):
        names = [n for n in names if n in options["power_pool"]]
    return sorted(names)


def flare_pool(options: dict, ruleset: str = "mayfair") -> list[str]:
    """The flare cards that may go into the challenge deck under these options."""
    if not options.get("flares"):
        return []
    return [cards.flare_card(n) for n in power_pool(options, ruleset) if n in FLARES]


def describe(ruleset: str | None = None) -> dict:
    """The catalogue for clients: every power with its flares, every edict (of one edition, if named)."""
    listed = []
    for name in sorted(POWERS):
        if ruleset is not None and ruleset not in POWERS[name].editions:
            continue
        entry = POWERS[name].catalogue(ruleset)
        entry["flares"] = {mode: flare.catalogue() for mode, flare in FLARES.get(name, {}).items()}
        listed.append(entry)
    edicts = [EDICTS[n].catalogue() for n in sorted(EDICTS) if ruleset is None or ruleset in EDICTS[n].editions]
    return {"powers": listed, "edicts": edicts}
