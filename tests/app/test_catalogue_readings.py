"""The FFG reading of a shared alien in the catalogue (docs/engine.md "FFG readings of the shared aliens")."""

from __future__ import annotations

import json

from engine.registry import POWERS
from projections.catalogue import describe
from projections.words import speak


def test_the_ffg_catalogue_describes_a_shared_alien_by_its_ffg_reading_and_the_mayfair_one_is_unchanged(client):
    ffg = {p["name"]: p for p in client.get("/catalogue?ruleset=ffg").json["powers"]}
    mayfair = {p["name"]: p for p in client.get("/catalogue?ruleset=mayfair").json["powers"]}
    both = {p["name"]: p for p in client.get("/catalogue").json["powers"]}
    read = sorted(name for name, power in POWERS.items() if "ffg" in power.readings)
    assert "Anti-Matter" in read
    for name in read:
        reading = POWERS[name].readings["ffg"]
        assert ffg[name]["description"] == speak(reading["description"], "ffg")
        assert mayfair[name]["description"] == POWERS[name].description
        assert both[name]["readings"]["ffg"]["description"] == reading["description"]
        for key in ("who", "windows", "timing", "mandatory"):
            if key in reading:
                assert ffg[name][key] == json.loads(json.dumps(reading[key]))
    assert both["Clone"]["readings"] == {} and ffg["Clone"]["description"] == speak(POWERS["Clone"].description,
                                                                                     "ffg")


def test_cosmic_catalogue_ruleset_ffg_prints_the_ffg_readings(capsys):
    from app.cli import main

    assert main(["catalogue", "--json", "--ruleset", "ffg"]) == 0
    printed = {p["name"]: p for p in json.loads(capsys.readouterr().out)["powers"]}
    assert printed["Anti-Matter"]["description"] == {p["name"]: p for p in describe("ffg")["powers"]}[
        "Anti-Matter"]["description"]
    assert "ships are subtracted" in printed["Anti-Matter"]["description"]
