"""GET /catalogue and ``cosmic catalogue``: every power of RULES.md 6 with its provenance and flares, every edict."""

from __future__ import annotations

import json

from engine import cards
from engine.catalog import describe
from engine.powers.base import PROVENANCES
from projections.catalogue import describe as catalogue_of
from tests.engine.test_catalogue_coverage import rules_table_powers

EDICT_NAMES = sorted(cards.EDICT_NAMES)  # the Mayfair edicts and the Fantasy Flight artifacts


def check_catalogue(listed: dict) -> None:
    """What a client must find in the catalogue, whichever way it asked for it."""
    powers = {p["name"]: p for p in listed["powers"]}
    assert set(rules_table_powers()) <= set(powers)
    for name, power in powers.items():
        assert power["provenance"] in PROVENANCES, name
        assert power["description"] and power["timing"], name
        assert isinstance(power["mandatory"], bool) and power["who"], name
        assert set(power["flares"]) == {"wild", "super"}, name
        for mode, flare in power["flares"].items():
            assert flare["power"] == name and flare["mode"] == mode
            assert flare["provenance"] in PROVENANCES and flare["description"], (name, mode)
    # the two War-card aliens say which option they need; the others need none
    assert {n for n, p in powers.items() if p["requires"]} == {"Hawk", "Peacenik"}
    assert all(powers[n]["requires"] == "war_cards" for n in ("Hawk", "Peacenik"))
    assert powers["Vulch"]["mandatory"] is True and powers["Vulch"]["who"] == ["any"]
    edicts = listed["edicts"]
    assert sorted(e["name"] for e in edicts) == EDICT_NAMES
    assert all(e["provenance"] in PROVENANCES and e["description"] for e in edicts)


def test_get_catalogue_lists_every_power_with_provenance_and_both_flares_and_every_edict(client):
    response = client.get("/catalogue")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    body = response.json
    check_catalogue(body)
    assert body["powers"] == describe()["powers"]
    assert "war_cards" in {o["name"] for o in body["options"]}


def test_cosmic_catalogue_json_prints_the_same_catalogue(capsys):
    from app.cli import main

    assert main(["catalogue", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    check_catalogue(printed)
    assert printed == json.loads(json.dumps(catalogue_of()))


def test_cosmic_catalogue_lists_one_line_per_power_and_edict(capsys):
    from app.cli import main

    assert main(["catalogue"]) == 0
    lines = capsys.readouterr().out.splitlines()
    listed = describe()
    assert len(lines) == len(listed["powers"]) + len(listed["edicts"]) + 1  # and the provenance counts
    vulch = next(line for line in lines if line.startswith("Vulch "))
    assert "mayfair" in vulch and "mandatory" in vulch
    hawk = next(line for line in lines if line.startswith("Hawk "))
    assert hawk.endswith("[flares: super source, wild source]")  # each flare's provenance (14.20)
    counts = dict(part.rsplit(" ", 1) for part in lines[-1].removeprefix("flares by provenance: ").split(", "))
    flares = [f["provenance"] for p in listed["powers"] for f in p["flares"].values()]
    assert {label: int(n) for label, n in counts.items()} == {label: flares.count(label) for label in set(flares)}
