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
from engine.pools import SIMPLIFIED_POWERS, power_pool  # noqa: F401  (the pool, asked of the catalogue)
from engine.registry import EDICTS, FLARES, POWERS, register_effect


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
        entry["flares"] = {mode: flare.catalogue(ruleset) for mode, flare in FLARES.get(name, {}).items()}
        listed.append(entry)
    edicts = [EDICTS[n].catalogue() for n in sorted(EDICTS) if ruleset is None or ruleset in EDICTS[n].editions]
    return {"powers": listed, "edicts": edicts}
