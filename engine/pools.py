"""Which powers a game may deal: its edition's, with its options (read from `engine.registry` alone, so the
power modules may ask too: Reincarnator draws its new powers from the game's pool)."""

from __future__ import annotations

from engine.registry import POWERS

SIMPLIFIED_POWERS = ("Chronos", "Filch", "Laser", "Macron", "Mind", "Mutant")


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
