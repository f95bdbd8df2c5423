"""A player across games (app/players.py, app/routes/me.py): a player key, its seats, and ``GET /me/games``."""

from __future__ import annotations

import json

from tests.app.conftest import ADMIN, ApiGame, bearer, problem_type


def register(client, name: str = "Ann") -> dict:
    made = client.post("/players", json={"name": name})
    assert made.status_code == 201, made.json
    return made.json


def seat_player(client, key: str, seats: int = 3, options: dict | None = None) -> ApiGame:
    """A started game where the player holds the first seat (joined with its key) and others fill the rest."""
    game = ApiGame(client, seats=seats, seed=None, options=options)
    joined = client.post(game.url("/players"), json={"name": "Ann"}, headers=bearer(key))
    assert joined.status_code == 201, joined.json
    game.tokens[joined.json["color"]] = joined.json["token"]
    game.mine = joined.json["color"]
    for k in range(seats - 1):
        other = client.post(game.url("/players"), json={"name": f"other {k}"})
        game.tokens[other.json["color"]] = other.json["token"]
    return game.start()


def my_games(client, key: str, **params) -> dict:
    answer = client.get("/me/games", query_string=params, headers=bearer(key))
    assert answer.status_code == 200, answer.json
    return answer.json


def test_registering_answers_a_key_once_and_keeps_only_its_digest(client, runtime):
    made = client.post("/players", json={"name": "Ann"})
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    player = made.json
    assert player["id"].startswith("pl_") and player["name"] == "Ann" and player["key"]
    me = client.get("/me", headers=bearer(player["key"]))
    assert me.status_code == 200 and me.json == {"id": player["id"], "name": "Ann", "created": player["created"]}
    stored = b"".join(k + b"".join(v for v in (runtime.redis.hgetall(k) or {}).values())
                      for k in runtime.redis.keys(f"{runtime.settings.prefix}:player*")
                      if runtime.redis.type(k) in (b"hash", "hash"))
    assert player["key"].encode() not in stored


def test_me_needs_a_player_key(client):
    game = ApiGame(client).join_all(3)
    assert problem_type(client.get("/me")) == "unauthorized"
    assert client.get("/me/games", headers=game.as_("red" if "red" in game.tokens else next(iter(game.tokens)))
                      ).status_code == 401
    assert client.get("/me/games", headers=ADMIN).status_code == 401
    assert client.get("/me/games", headers=bearer("made-up")).status_code == 401


def test_registration_validates_its_body(client):
    assert problem_type(client.post("/players", json={})) == "invalid-request"
    assert problem_type(client.post("/players", json={"name": "x" * 41})) == "invalid-request"
    assert problem_type(client.post("/players", json={"name": "   "})) == "invalid-request"
    assert problem_type(client.post("/players", json={"name": "Ann", "password": "no"})) == "invalid-request"


def test_the_player_key_acts_for_its_seat_and_the_seat_token_keeps_working(client):
    key = register(client)["key"]
    game = seat_player(client, key)
    mine = game.mine
    by_key = client.get(game.url("/hand"), headers=bearer(key))
    by_token = client.get(game.url("/hand"), headers=game.as_(mine))
    assert by_key.status_code == 200 and by_key.json == by_token.json
    prompts = client.get(game.url("/prompts"), headers=bearer(key)).json
    assert prompts["player"] == mine


def test_the_player_key_acts_for_no_other_seat(client):
    key = register(client)["key"]
    game = seat_player(client, key)
    other = next(c for c in game.tokens if c != game.mine)
    assert client.get(game.url("/hand"), headers=bearer(key), query_string={"player": other}).status_code == 403
    acted = client.post(game.url("/actions"), json={"action": "timeout", "player": other}, headers=bearer(key))
    assert acted.status_code == 403


def test_in_a_game_without_its_seat_the_key_reads_as_a_spectator_and_acts_for_nobody(client):
    key = register(client)["key"]
    game = ApiGame(client).join_all(3).start()
    assert client.get(game.url(), headers=bearer(key)).status_code == 200
    assert client.get(game.url("/hand"), headers=bearer(key)).status_code in (401, 403)
    owed = game.last["pending"][0]["player"]
    acted = client.post(game.url("/actions"), json={"action": "timeout", "player": owed}, headers=bearer(key))
    assert acted.status_code in (401, 403)


def test_a_player_holds_one_seat_of_a_game(client):
    key = register(client)["key"]
    game = ApiGame(client, seed=None)
    assert client.post(game.url("/players"), json={"name": "Ann"}, headers=bearer(key)).status_code == 201
    again = client.post(game.url("/players"), json={"name": "Ann again"}, headers=bearer(key))
    assert again.status_code == 409 and problem_type(again) == "already-seated"


def test_a_game_created_with_the_key_is_the_players_and_its_seat_hosts(client):
    key = register(client)["key"]
    made = client.post("/games", json={"seats": 2}, headers=bearer(key))
    assert made.status_code == 201
    game_id = made.json["id"]
    listed = my_games(client, key)["games"]
    assert [(g["game_id"], g["color"], g["status"]) for g in listed] == [(game_id, None, "lobby")]
    joined = client.post(f"/games/{game_id}/players", json={"name": "Ann"}, headers=bearer(key))
    client.post(f"/games/{game_id}/players", json={"name": "Bob"})
    started = client.post(f"/games/{game_id}/start", headers=bearer(key))  # the player's seat hosts
    assert started.status_code == 200, started.json
    assert my_games(client, key)["games"][0]["color"] == joined.json["color"]


def test_my_games_says_where_a_decision_is_mine_with_its_deadline_turn_and_version(client):
    key = register(client)["key"]
    games = [seat_player(client, key, options={"decision_seconds": 600}) for _ in range(3)]
    listed = {g["game_id"]: g for g in my_games(client, key)["games"]}
    assert set(listed) == {g.id for g in games}
    for game in games:
        entry = listed[game.id]
        board = client.get(game.url()).json
        pending = [p for p in board["pending"] if p["player"] == game.mine]
        assert entry["color"] == game.mine and entry["status"] == "playing"
        assert entry["version"] == board["version"] and entry["turn"] == board["turn"]["number"]
        assert entry["owes"] == bool(pending)
        assert [d["kind"] for d in entry["decisions"]] == [p["kind"] for p in pending]
        if pending:
            assert entry["deadline"] == min(p["deadline"] for p in pending) and entry["deadline"] is not None
        else:
            assert entry["deadline"] is None
    owing = my_games(client, key, filter="owing")["games"]
    assert {g["game_id"] for g in owing} == {g for g, e in listed.items() if e["owes"]}
    assert my_games(client, key, filter="finished")["games"] == []
    assert len(my_games(client, key, filter="playing")["games"]) == 3


def test_my_games_pages_with_the_cursor_convention(client):
    key = register(client)["key"]
    ids = {seat_player(client, key).id for _ in range(3)}
    seen, after, pages = [], None, 0
    while True:
        params = {"limit": 2, **({"after": after} if after else {})}
        page = my_games(client, key, **params)
        seen += [g["game_id"] for g in page["games"]]
        after, pages = page["next_after"], pages + 1
        if not page["more"]:
            break
    assert sorted(seen) == sorted(ids) and len(seen) == 3 and pages == 2
    assert problem_type(client.get("/me/games?after=nope", headers=bearer(key))) == "invalid-request"
    assert problem_type(client.get("/me/games?filter=mine", headers=bearer(key))) == "invalid-request"


def test_my_games_shows_nothing_of_any_hand(client):
    key = register(client)["key"]
    game = seat_player(client, key)
    body = client.get("/me/games", headers=bearer(key)).json
    entry = body["games"][0]
    assert set(entry) == {"game_id", "color", "status", "ruleset", "version", "turn", "offense", "owes", "decisions",
                          "deadline", "winners", "linked", "links"}
    assert all(set(d) == {"kind", "title", "deadline"} for d in entry["decisions"])
    text = json.dumps(body)
    for color in game.tokens:
        hand = client.get(game.url("/hand"), headers=game.as_(color)).json
        for card in hand["cards"]:
            assert json.dumps(card) not in text


def test_my_games_reads_each_games_standing_and_folds_no_state(client, runtime, monkeypatch):
    key = register(client)["key"]
    games = [seat_player(client, key).moves(25) for _ in range(3)]
    expected = my_games(client, key)["games"]
    folds = []
    real_current = runtime.repository.current
    monkeypatch.setattr(runtime.repository, "current", lambda game_id: folds.append(game_id) or real_current(game_id))
    assert my_games(client, key)["games"] == expected and folds == []  # the standings were kept by each append
    for game in games:
        board = client.get(game.url()).json
        entry = next(e for e in expected if e["game_id"] == game.id)
        assert (entry["version"], entry["turn"], entry["status"]) == (board["version"], board["turn"]["number"],
                                                                      board["status"])


def test_a_missing_or_stale_standing_is_folded_once_and_written_again(client, runtime, monkeypatch):
    key = register(client)["key"]
    game = seat_player(client, key).moves(10)
    expected = my_games(client, key)["games"]
    runtime.redis.delete(runtime.standings.key(game.id))
    assert my_games(client, key)["games"] == expected  # folded from the state: the same answer
    stale = json.loads(runtime.redis.get(runtime.standings.key(game.id)))
    stale["version"] -= 1  # as if an append's listener had not run
    runtime.redis.set(runtime.standings.key(game.id), json.dumps(stale))
    folds = []
    real_current = runtime.repository.current
    monkeypatch.setattr(runtime.repository, "current", lambda game_id: folds.append(game_id) or real_current(game_id))
    assert my_games(client, key)["games"] == expected and folds == [game.id]
    assert my_games(client, key)["games"] == expected and folds == [game.id]  # written again: no second fold
