"""Every card of the catalogue really works: each power, flare and edict has its module and its tests.

- every power in `engine.catalog.POWERS` has ``tests/engine/powers/test_<snake>.py`` defining
  tests named ``test_<snake>_power_...`` and ``test_<snake>_off_...`` (switched off by power loss
  or a Cosmic Zap) and, for each of its flares, ``test_<snake>_wild_...`` / ``test_<snake>_super_...``;
- every power of RULES.md section 6's table is in the catalogue, with a provenance, and with
  both flares (RULES.md: "Each power in the catalogue needs its Wild and Super flare"); the
  powers the ffg edition adds beyond that table (RULES.md 9) have a provenance and a description too;
- every edict of `engine.cards.EDICT_NAMES` (the Mayfair edicts and the FFG artifacts) has its module and ``tests/engine/edicts/test_<snake>.py``
  with ``test_<snake>_...`` tests (the two zaps may share ``test_zaps.py``).

Each test lists everything missing at once, so a failure is a to-do list.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine import cards
from engine.catalog import EDICTS, FLARES, POWERS
from engine.powers.base import PROVENANCES

TESTS = Path(__file__).parent
RULES = Path("/work/shared/RULES.md")
SHARED_EDICT_TESTS = {"cosmic_zap": "test_zaps.py", "card_zap": "test_zaps.py"}
# RULES.md section 6's table, for when the shared rules file is not at hand
RULES_TABLE_POWERS = (
    "Chronos", "Filch", "Laser", "Macron", "Mind", "Mutant", "Will", "Zombie", "Virus", "Loser", "Amoeba",
    "Anti-Matter", "Clone", "Oracle", "Pacifist", "Trader", "Sorcerer", "Tripler", "Vacuum", "Void",
    "Warpish", "Warrior", "Human", "Kamikaze", "Calculator", "Mirror", "Healer", "Remora", "Vulch",
    "Barbarian", "Cudgel", "Parasite", "Philanthropist", "Spiff", "Mite", "Grudge", "Hate", "Observer",
    "Chosen", "Deuce", "Diplomat", "Judge", "Hawk", "Peacenik",
)


def snake(name: str) -> str:
    """``Anti-Matter`` -> ``anti_matter``, ``MobiusTubes`` -> ``mobius_tubes``."""
    split = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"[^a-z0-9]+", "_", split.lower()).strip("_")


def defined_tests(path: Path) -> list[str]:
    """The names of the module-level test functions a file defines (empty if there is no file)."""
    if not path.exists():
        return []
    tree = ast.parse(path.read_text())
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def rules_table_powers() -> list[str]:
    """The first column of RULES.md section 6's power table (the list above without the file)."""
    if not RULES.exists():
        return list(RULES_TABLE_POWERS)
    text = RULES.read_text()
    section = text[text.index("### The power catalogue"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    names = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or not cells[0] or cells[0] == "power" or set(cells[0]) <= {"-", " "}:
            continue
        names.append(cells[0])
    return names


def missing_power_tests(name: str) -> list[str]:
    """What the test file of one power lacks."""
    key = snake(name)
    path = TESTS / "powers" / f"test_{key}.py"
    if not path.exists():
        return [f"{name}: no file tests/engine/powers/{path.name}"]
    found = defined_tests(path)
    wanted = [f"test_{key}_power_", f"test_{key}_off_"]
    wanted += [f"test_{key}_{mode}_" for mode in ("wild", "super") if mode in FLARES.get(name, {})]
    return [f"{name}: no {prefix}... test in {path.name}" for prefix in wanted
            if not any(f.startswith(prefix) for f in found)]


def test_every_power_in_the_catalogue_has_its_tests():
    missing = [line for name in sorted(POWERS) for line in missing_power_tests(name)]
    assert not missing, f"{len(missing)} missing power tests:\n" + "\n".join(missing)


def test_every_power_of_the_rules_table_is_in_the_catalogue_with_provenance():
    by_key = {snake(n): power for n, power in POWERS.items()}
    table = rules_table_powers()
    assert len(table) >= 40, "RULES.md section 6's table was not found"
    missing = []
    for name in table:
        power = by_key.get(snake(name))
        if power is None:
            missing.append(f"{name}: not in engine.catalog.POWERS (no module in engine/powers/)")
        elif power.provenance not in PROVENANCES:
            missing.append(f"{name}: provenance {power.provenance!r} is not one of {PROVENANCES}")
        elif not power.description:
            missing.append(f"{name}: no description")
    assert not missing, f"{len(missing)} powers of RULES.md 6 missing:\n" + "\n".join(missing)


def test_every_power_the_ffg_edition_adds_to_the_rules_table_has_provenance_and_description():
    """RULES.md 9: the Fantasy Flight base set has aliens beyond section 6's table (Fido, Shadow...); each of them
    in the catalogue is held to what the table's are (its tests: `test_every_power_in_the_catalogue_has_its_tests`)."""
    table = {snake(n) for n in rules_table_powers()}
    added = {n: p for n, p in POWERS.items() if "ffg" in p.editions and snake(n) not in table}
    assert added, "no power of the ffg edition beyond RULES.md 6's table"
    missing = [f"{n}: provenance {p.provenance!r} is not one of {PROVENANCES}" for n, p in sorted(added.items())
               if p.provenance not in PROVENANCES]
    missing += [f"{n}: no description" for n, p in sorted(added.items()) if not p.description]
    assert not missing, f"{len(missing)} ffg powers lacking:\n" + "\n".join(missing)


def test_every_power_has_both_flares_with_provenance():
    missing = []
    for name in sorted(POWERS):
        pair = FLARES.get(name, {})
        for mode in ("wild", "super"):
            flare = pair.get(mode)
            if flare is None:
                missing.append(f"{name}: no {mode.upper()} flare")
            elif flare.provenance not in PROVENANCES or not flare.description:
                missing.append(f"{name}: the {mode} flare lacks a provenance or a description")
    assert not missing, f"{len(missing)} flares missing:\n" + "\n".join(missing)


def test_every_edict_has_its_module_and_its_tests():
    missing = []
    for name in sorted(cards.EDICT_NAMES):
        key = snake(name)
        edict = EDICTS.get(name)
        if edict is None:
            missing.append(f"{name}: no module engine/edicts/{key}.py defining EDICT")
        elif edict.provenance not in PROVENANCES or not edict.description:
            missing.append(f"{name}: no provenance or description")
        own = TESTS / "edicts" / f"test_{key}.py"
        files = [own] + ([TESTS / "edicts" / SHARED_EDICT_TESTS[key]] if key in SHARED_EDICT_TESTS else [])
        if not any(f.startswith(f"test_{key}_") for path in files for f in defined_tests(path)):
            missing.append(f"{name}: no test_{key}_... test in tests/engine/edicts/{own.name}")
    assert not missing, f"{len(missing)} edicts missing:\n" + "\n".join(missing)


def test_snake_names_match_the_module_names():
    assert snake("Anti-Matter") == "anti_matter"
    assert snake("MobiusTubes") == "mobius_tubes"
    assert snake("Peacenik") == "peacenik"
