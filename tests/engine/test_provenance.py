"""Provenance is honest (RULES.md 6): `source` only for what a file in the rulebooks gives.

A card labelled `source` must be found in one of ../shared/rulebooks/: a power by its name, a
flare by its power's name followed, in the same section, by "Wild Flare:" or "Super Flare:",
an edict by its name. `mayfair` and `ffg` mark published cards described here in our own words,
`house` cards designed here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine import catalog

# the shared documents sit next to the checkout (../shared); COSMIC_RULEBOOKS points elsewhere
RULEBOOKS = next((p for p in (Path(os.environ.get("COSMIC_RULEBOOKS", "")) if os.environ.get("COSMIC_RULEBOOKS") else None,
                              Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks",
                              Path("/work/shared/rulebooks")) if p is not None and p.is_dir()),
                 Path("/nonexistent"))
LABELS = {"source", "mayfair", "ffg", "house"}
SECTION = 3000  # characters after a power's name where its flares are printed


def rulebook_texts() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8", errors="replace") for path in sorted(RULEBOOKS.glob("*.txt"))}


def files_giving_flare(texts: dict[str, str], power: str, mode: str) -> list[str]:
    """Rulebook files where the power's name is followed, within its section, by its flare of ``mode``."""
    found = []
    for name, text in texts.items():
        for match in re.finditer(re.escape(power), text):
            if f"{mode.capitalize()} Flare:" in text[match.end():match.end() + SECTION]:
                found.append(name)
                break
    return found


pytestmark = pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the shared rulebooks are not next to this checkout")


def test_every_card_has_a_known_provenance_label():
    described = catalog.describe()
    labels = {p["provenance"] for p in described["powers"]} | {e["provenance"] for e in described["edicts"]} | \
        {f["provenance"] for p in described["powers"] for f in p["flares"].values()}
    assert labels <= LABELS


@pytest.mark.parametrize("power", [p for p in catalog.describe()["powers"]], ids=lambda p: p["name"])
def test_a_flare_labelled_source_is_printed_in_a_rulebook(power):
    texts = rulebook_texts()
    for mode, flare in power["flares"].items():
        if flare["provenance"] == "source":
            assert files_giving_flare(texts, power["name"], mode), \
                f"{power['name']}'s {mode} flare is labelled source, but no rulebook prints it"
    if power["provenance"] == "source":
        assert any(power["name"] in text for text in texts.values()), f"{power['name']} is in no rulebook"


def test_the_check_itself_tells_a_printed_flare_from_an_unprinted_one():
    texts = rulebook_texts()
    assert files_giving_flare(texts, "Hawk", "wild") and files_giving_flare(texts, "Peacenik", "super")
    assert not files_giving_flare(texts, "Sorcerer", "wild")
