"""Seating bots through the API: the host adds them in the lobby; nobody gets their token; start works."""

from __future__ import annotations

from tests.app.conftest import ADMIN, bearer


def test_a_bot_seat_gets_no_token_and_only_the_admin_sees_its_hand(client):
    created = client.post("/games", json={"seats": 3, "seed": "bot-seat"}, headers=ADMIN).json
    game, host = created["id"], bearer(created["host_token"])
    person = client.post(f"/games/{game}/players", json={"name": "Ann"}).json
    for name, level in (("Robo", "heuristic"), ("Dice", "random")):
        joined = client.post(f"/games/{game}/players", json={"name": name, "bot": level}, headers=host)
        assert joined.status_code == 201 and joined.json["token"] is None
    board = client.get(f"/games/{game}").json
    assert {c: p["bot"] for c, p in board["players"].items()} == {"red": None, "blue": "heuristic",
                                                                  "yellow": "random"}
    started = client.post(f"/games/{game}/start", headers=host)
    assert started.status_code == 200 and started.json["status"] == "playing"
    me = bearer(person["token"])
    assert client.get(f"/games/{game}/hand", query_string={"player": "blue"}, headers=me).status_code == 403
    assert client.get(f"/games/{game}/prompts", query_string={"player": "blue"}, headers=me).status_code == 403
    assert client.post(f"/games/{game}/actions", json={"action": "pass", "player": "blue"},
                       headers=me).status_code == 403
    seen = client.get(f"/games/{game}/hand", query_string={"player": "blue"}, headers=ADMIN)
    assert seen.status_code == 200 and seen.json["cards"]


def test_an_unknown_bot_level_is_refused(client):
    created = client.post("/games", json={"seats": 2}).json
    refused = client.post(f"/games/{created['id']}/players", json={"name": "Hal", "bot": "genius"},
                          headers=bearer(created["host_token"]))
    assert refused.status_code == 422 and "'genius'" in refused.json["detail"]
    assert "'random', 'heuristic'" in refused.json["detail"]  # the levels it could have asked for


def test_bots_cannot_join_a_game_in_play(client, api_game):
    game = api_game(seats=2)
    refused = client.post(f"/games/{game.id}/players", json={"name": "Late", "bot": "random"},
                          headers=bearer(game.host_token))
    assert 400 <= refused.status_code < 500 and refused.mimetype == "application/problem+json"
    assert set(client.get(f"/games/{game.id}").json["players"]) == {"red", "blue"}
