"""The Fantasy Flight edition over HTTP: create, choose the powers, play to the end; its catalogue; the CLI."""

from __future__ import annotations

import json

from engine.catalog import POWERS
from tests.app.conftest import ApiGame, bearer


def test_an_ffg_game_is_created_its_powers_chosen_in_secret_and_played_to_the_end(client):
    game = ApiGame(client, 3, "ffg-api", ruleset="ffg").join_all(3)
    assert set(game.tokens) == {"red", "blue", "yellow"}
    game.start()
    assert game.last["status"] == "playing"
    pending = game.last["pending"]
    assert sorted(p["player"] for p in pending) == ["blue", "red", "yellow"]
    assert {p["kind"] for p in pending} == {"choose_power"} and {p["title"] for p in pending} == {"Choose your alien power"}
    offers = {}
    for color in game.tokens:
        owed = client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"]
        assert [p["player"] for p in owed] == [color]  # a seat sees its own offer only
        offers[color] = owed[0]["info"]["offered"]
        assert len(offers[color]) == 2
    board = client.get(game.url()).json
    assert board["terms"]["cone"] == "gate" and all(p["powers"] == [] for p in board["players"].values())
    for color in game.tokens:
        answer = client.post(game.url("/actions"), json={"action": "choose", "args": {"power": offers[color][0]}},
                             headers=game.as_(color))
        assert answer.status_code == 200, answer.json
        game.last = answer.json
    board = client.get(game.url()).json
    assert {c: p["powers"] for c, p in board["players"].items()} == {c: [offers[c][0]] for c in game.tokens}
    game.moves()
    assert game.last["status"] == "finished"


def test_a_mayfair_only_option_is_refused_for_an_ffg_game_naming_it(client):
    answer = client.post("/games", json={"seats": 3, "ruleset": "ffg", "options": {"punt": True}})
    assert answer.status_code == 422
    assert "option punt is not part of the ffg ruleset" in answer.json["detail"]


def test_the_catalogue_of_the_ffg_edition_lists_its_cards_powers_and_options_in_its_words(client):
    listed = client.get("/catalogue?ruleset=ffg").json
    assert listed["ruleset"] == "ffg" and listed["hand_size"] == 8
    assert listed["colors"] == ["red", "blue", "yellow", "green", "purple"]
    assert listed["players"] == {"min": 2, "max": 5}
    # the 37 powers it shares with the Mayfair catalogue and those only the FFG base set has (Fido, Shadow...)
    ffg_powers = sorted(name for name, power in POWERS.items() if "ffg" in power.editions)
    assert sorted(p["name"] for p in listed["powers"]) == ffg_powers and len(ffg_powers) >= 37
    assert all("ffg" in p["editions"] for p in listed["powers"])
    assert "Chronos" not in {p["name"] for p in listed["powers"]}
    assert sorted(e["name"] for e in listed["edicts"]) == ["CardZap", "CosmicZap", "EmotionControl", "ForceField",
                                                           "IonicGas", "MobiusTubes", "Plague", "Quash"]
    cards = {c["card"]: c for c in listed["cards"]}
    assert cards["Morph"]["copies"] == 1 and cards["N"]["name"] == "Negotiate" and cards["N"]["copies"] == 15
    assert sum(c["copies"] for c in listed["cards"] if c["kind"] == "attack") == 39
    assert listed["destiny"] == {"red": 3, "blue": 3, "yellow": 3, "green": 3, "purple": 3, "wild": 2,
                                 "inst:most-bases": 1, "inst:most-cards": 1, "inst:fewest-warp": 1}
    assert "punt" not in {o["name"] for o in listed["options"]}
    assert listed["terms"]["token"] == "ship" and listed["terms"]["external base"] == "foreign colony"
    amoeba = next(p for p in listed["powers"] if p["name"] == "Amoeba")
    assert "ships" in amoeba["description"] and "tokens" not in amoeba["description"]


def test_an_unknown_ruleset_in_the_catalogue_query_is_a_400(client):
    answer = client.get("/catalogue?ruleset=classic")
    assert answer.status_code == 400 and "ruleset" in answer.json["errors"]


def test_cosmic_simulate_plays_ffg_games(capsys):
    from app.cli import main

    assert main(["simulate", "--ruleset", "ffg", "--games", "3", "--players", "4", "--seed", "9", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == 3 and summary["errors"] == 0 and summary["invariant_violations"] == 0
    assert summary["colors"] == ["red", "blue", "yellow", "green"]


def test_cosmic_catalogue_lists_the_ffg_edition(capsys):
    from app.cli import main

    assert main(["catalogue", "--ruleset", "ffg"]) == 0
    printed = capsys.readouterr().out
    assert "IonicGas" in printed and "artifact" in printed and "Chronos" not in printed


def test_a_seat_token_sees_no_other_seats_offer(client):
    game = ApiGame(client, 3, "ffg-secret", ruleset="ffg").join_all(3).start()
    events = client.get(game.url("/events"), headers=bearer(game.tokens["red"])).json["events"]
    offered = [e for e in events if e["type"] == "PowersOffered"]
    assert len(offered) == 3
    for event in offered:
        shown = event["payload"]["powers"]
        assert (shown == [None, None]) == (event["payload"]["player"] != "red")


def test_a_colour_of_the_other_edition_is_a_422_and_no_colour_at_all_a_400(client):
    mayfair = client.post("/games", json={"seats": 3}).json["id"]
    green = client.post(f"/games/{mayfair}/players", json={"name": "Ann", "color": "green"})
    assert green.status_code == 422 and "green is not one of them" in green.json["detail"]
    ffg = client.post("/games", json={"seats": 3, "ruleset": "ffg"}).json["id"]
    orange = client.post(f"/games/{ffg}/players", json={"name": "Bob", "color": "orange"})
    assert orange.status_code == 422
    assert client.post(f"/games/{ffg}/players", json={"name": "Cy", "color": "green"}).json["color"] == "green"
    pink = client.post(f"/games/{ffg}/players", json={"name": "Di", "color": "pink"})
    assert pink.status_code == 400


def test_a_refusal_in_an_ffg_game_speaks_the_edition_s_words_and_a_mayfair_one_its_own(client):
    """RULES.md 9: the detail and the rule's title of a refused command are read by a person too."""
    from projections.words import mayfair_vocabulary

    refusals = {}
    for ruleset in ("ffg", "mayfair"):
        setup = {"powers": {"red": ["Mind"], "blue": ["Filch"], "yellow": ["Zombie"]}, "first": "red",
                 "destiny_top": ["blue.1"]}
        game = ApiGame(client, 3, f"refusal-{ruleset}", setup=setup, ruleset=ruleset).join_all(3).start()
        for _ in range(30):  # everyone passes what comes before the launch
            pending = client.get(game.url()).json["pending"]
            if {"player": "red", "kind": "launch"} in [{"player": p["player"], "kind": p["kind"]} for p in pending]:
                break
            who = pending[0]["player"]
            owed = client.get(game.url("/prompts"), headers=game.as_(who)).json["prompts"][0]
            plain = [o for o in owed["options"] if not o["args"]]
            choice = next((o for o in plain if o["action"] == "pass"), plain[0] if plain else owed["options"][0])
            client.post(game.url("/actions"), json={"action": choice["action"], "args": {}}, headers=game.as_(who))
        answer = client.post(game.url("/actions"), headers=game.as_("red"), json={
            "action": "launch", "args": {"tokens": {"red-0": 4, "red-1": 1}, "planet": "blue-2"}})
        assert answer.status_code == 422, answer.json
        refusals[ruleset] = answer.json
    assert refusals["mayfair"]["rule_title"] == "Stage 3, launch"
    assert refusals["ffg"]["rule_title"] == "Launch phase: launch"
    assert refusals["ffg"]["rule"] == refusals["mayfair"]["rule"] == "4.3"
    assert not mayfair_vocabulary().search(refusals["ffg"]["detail"] + refusals["ffg"]["rule_title"])
