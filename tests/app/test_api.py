"""The REST API: lobby, actions, versions, idempotency, views, errors (fakeredis and real Redis)."""

from __future__ import annotations

import engine
from tests.app.conftest import bearer, problem_type

# --- lobby ----------------------------------------------------------------------------------

def test_create_join_start(client):
    created = client.post("/games", json={"seats": 3})
    assert created.status_code == 201
    game = created.json
    assert game["status"] == "lobby" and game["version"] == 1 and created.headers["Location"] == f"/games/{game['id']}"
    tokens = {}
    for name in ("ann", "bob", "cy"):
        joined = client.post(f"/games/{game['id']}/players", json={"name": name})
        assert joined.status_code == 201
        tokens[joined.json["color"]] = joined.json["token"]
    assert list(tokens) == ["red", "blue", "yellow"]
    started = client.post(f"/games/{game['id']}/start", headers=bearer(game["host_token"]))
    assert started.status_code == 200 and started.json["status"] == "playing"
    assert started.json["pending"] and set(started.json["pending"][0]) == {"player", "kind", "title", "deadline"}


def test_join_with_a_colour_and_a_taken_colour(client):
    game = client.post("/games", json={"seats": 2}).json["id"]
    assert client.post(f"/games/{game}/players", json={"name": "a", "color": "orange"}).json["color"] == "orange"
    taken = client.post(f"/games/{game}/players", json={"name": "b", "color": "orange"})
    assert taken.status_code == 422 and problem_type(taken) == "rules-violation"
    assert taken.json["rule"] == "lobby" and taken.json["rule_title"]


def test_a_full_game_refuses_more_players_and_starting_needs_every_seat(client):
    created = client.post("/games", json={"seats": 2}).json
    game = created["id"]
    client.post(f"/games/{game}/players", json={"name": "a"})
    early = client.post(f"/games/{game}/start", headers=bearer(created["host_token"]))
    assert early.status_code == 422 and problem_type(early) == "rules-violation"
    client.post(f"/games/{game}/players", json={"name": "b"})
    full = client.post(f"/games/{game}/players", json={"name": "c"})
    assert full.status_code == 422


def test_start_needs_a_token(client):
    game = client.post("/games", json={"seats": 2}).json["id"]
    refused = client.post(f"/games/{game}/start")
    assert refused.status_code == 401 and problem_type(refused) == "unauthorized"
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")


def test_seed_and_setup_are_admin_only(client, runtime):
    assert client.post("/games", json={"seats": 2, "seed": "x"}).status_code == 403
    assert client.post("/games", json={"seats": 2, "setup": {"first": "red"}}).status_code == 403
    admin = bearer("test-admin-token")
    created = client.post("/games", json={"seats": 2, "seed": "fixed-seed", "setup": {"first": "red"}}, headers=admin)
    assert created.status_code == 201
    stored = runtime.store.read(created.json["id"])[0]
    assert stored["payload"]["seed"] == "fixed-seed"


def test_a_server_seed_is_secret_and_random(client, runtime):
    first = client.post("/games", json={"seats": 2}).json["id"]
    second = client.post("/games", json={"seats": 2}).json["id"]
    seeds = [runtime.store.read(g)[0]["payload"]["seed"] for g in (first, second)]
    assert seeds[0] != seeds[1] and all(len(s) >= 32 for s in seeds)
    for game in (first, second):
        assert seeds[0] not in client.get(f"/games/{game}").get_data(as_text=True)
        assert seeds[0] not in client.get(f"/games/{game}/events").get_data(as_text=True)


def test_bad_options_name_the_rule(client):
    response = client.post("/games", json={"seats": 3, "options": {"no_such_option": True}})
    assert response.status_code == 422 and response.json["rule"] == "1"
    response = client.post("/games", json={"seats": 9})  # out of the range openapi.yaml states: the body does not fit
    assert response.status_code == 400 and problem_type(response) == "invalid-request" and "seats" in response.json["errors"]


# --- actions --------------------------------------------------------------------------------

def test_actions_move_the_game_and_return_the_pending_decisions(api_game):
    game = api_game(seats=3, moves=20)
    assert game.last["version"] > 20 and game.last["status"] == "playing"
    board = game.client.get(game.url()).json
    assert board["version"] == game.last["version"]
    assert board["pending"] == game.last["pending"]


def test_a_player_not_owing_a_decision_gets_409_not_owed(api_game):
    game = api_game(seats=3)
    idle = next(c for c in game.tokens if c not in {p["player"] for p in game.last["pending"]})
    response = game.client.post(game.url("/actions"), json={"action": "pass"}, headers=game.as_(idle))
    assert response.status_code == 409 and problem_type(response) == "not-owed"
    assert response.json["rule"] == "prompt"


def test_an_illegal_choice_is_422_with_the_rule(api_game):
    game = api_game(seats=3)
    color = game.last["pending"][0]["player"]
    prompt = game.client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][0]
    response = game.client.post(game.url("/actions"), json={"action": "no-such-action"}, headers=game.as_(color))
    assert response.status_code == 422 and problem_type(response) == "rules-violation"
    assert response.json["rule"] == prompt["rule"] and response.json["rule_title"]


def test_a_malformed_command_is_400_with_the_field(api_game):
    game = api_game(seats=3, moves=0)
    while True:  # find a decision with arguments
        color = game.last["pending"][0]["player"]
        prompt = game.client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][0]
        with_args = [o for o in prompt["options"] if o["args"]]
        if with_args:
            break
        game.move()
    option = with_args[0]
    name = next(iter(option["args"]))
    body = {"action": option["action"], "args": {name: {"not": "a legal shape"}},
            **{k: v for k, v in option.items() if k not in ("action", "args", "rule", "label", "info")}}
    response = game.client.post(game.url("/actions"), json=body, headers=game.as_(color))
    assert response.status_code in (400, 422)
    if response.status_code == 400:
        assert problem_type(response) == "bad-command" and response.json["field"].startswith("args.")


def test_a_token_acts_for_its_own_seat_only(api_game):
    game = api_game(seats=3)
    owing = game.last["pending"][0]["player"]
    other = next(c for c in game.tokens if c != owing)
    response = game.client.post(game.url("/actions"), json={"action": "pass", "player": owing},
                                headers=game.as_(other))
    assert response.status_code == 403 and problem_type(response) == "forbidden"


def test_the_admin_acts_for_a_named_player(api_game):
    game = api_game(seats=3)
    owing = game.last["pending"][0]["player"]
    prompt = game.client.get(game.url("/prompts"), headers=game.as_(owing)).json["prompts"][0]
    passing = next((o for o in prompt["options"] if not o["args"]), None)
    admin = bearer("test-admin-token")
    missing = game.client.post(game.url("/actions"), json={"action": "pass"}, headers=admin)
    assert missing.status_code == 400
    if passing is not None:
        extra = {k: v for k, v in passing.items() if k not in ("action", "args", "rule", "label", "info")}
        done = game.client.post(game.url("/actions"), json={"action": passing["action"], "player": owing, **extra},
                                headers=admin)
        assert done.status_code == 200


def test_timeouts_are_for_the_admin_only(api_game):
    game = api_game(seats=3)
    owing = game.last["pending"][0]["player"]
    response = game.client.post(game.url("/actions"), json={"action": "timeout"}, headers=game.as_(owing))
    assert response.status_code == 403
    response = game.client.post(game.url("/actions"), json={"action": "timeout", "prompt": "x"},
                                headers=bearer("test-admin-token"))
    assert response.status_code == 409 and problem_type(response) == "not-owed"


def test_lobby_actions_have_their_own_routes(api_game, client):
    game = api_game(seats=2)
    color = next(iter(game.tokens))
    for action in ("create", "start"):
        response = client.post(game.url("/actions"), json={"action": action}, headers=game.as_(color))
        assert response.status_code == 400 and "action" in response.json["errors"]
    lobby = client.post("/games", json={"seats": 2}).json["id"]
    token = client.post(f"/games/{lobby}/players", json={"name": "a"}).json["token"]
    response = client.post(f"/games/{lobby}/actions", json={"action": "join"}, headers=bearer(token))
    assert response.status_code == 400


def test_identity_fields_must_belong_to_an_owed_option(api_game):
    game = api_game(seats=3)
    owing = game.last["pending"][0]["player"]
    response = game.client.post(game.url("/actions"), json={"action": "pass", "sidee": "offense"},
                                headers=game.as_(owing))
    assert response.status_code == 400 and response.json["errors"] == {"sidee": ["Unknown field."]}
    response = game.client.post(game.url("/actions"), json={"action": "pass", "seed": "x"}, headers=game.as_(owing))
    assert response.status_code == 400 and "seed" in response.json["errors"]


# --- versions ------------------------------------------------------------------------------

def _passing_move(game):
    """A (color, body) answering the first pending decision with an option that takes no arguments."""
    for _ in range(200):
        color = game.last["pending"][0]["player"]
        prompt = game.client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][0]
        option = next((o for o in prompt["options"] if not o["args"]), None)
        if option is not None:
            extra = {k: v for k, v in option.items() if k not in ("action", "args", "rule", "label", "info")}
            return color, {"action": option["action"], "prompt": prompt["id"], **extra}
        game.move()
    raise AssertionError("no decision without arguments came up")


def test_a_stale_pinned_version_is_409_with_the_current_version(api_game):
    game = api_game(seats=3)
    color, body = _passing_move(game)
    version = game.last["version"]
    stale = game.client.post(game.url("/actions"), json=body, headers={**game.as_(color), "If-Match": f'"{version - 1}"'})
    assert stale.status_code == 409 and problem_type(stale) == "version-conflict"
    assert stale.json["current_version"] == version and stale.headers["ETag"] == f'"{version}"'
    in_body = game.client.post(game.url("/actions"), json={**body, "expected_version": version - 1},
                               headers=game.as_(color))
    assert in_body.status_code == 409
    ok = game.client.post(game.url("/actions"), json=body, headers={**game.as_(color), "If-Match": f'"{version}"'})
    assert ok.status_code == 200 and ok.json["version"] > version


def test_if_match_and_expected_version_must_agree(api_game):
    game = api_game(seats=3)
    color, body = _passing_move(game)
    response = game.client.post(game.url("/actions"), json={**body, "expected_version": 1},
                                headers={**game.as_(color), "If-Match": '"2"'})
    assert response.status_code == 409  # the game cannot be at both versions (see test_hardening)
    response = game.client.post(game.url("/actions"), json=body, headers={**game.as_(color), "If-Match": "abc"})
    assert response.status_code == 400


def test_etags_and_304(api_game):
    game = api_game(seats=3, moves=3)
    board = game.client.get(game.url())
    etag = board.headers["ETag"]
    assert etag == f'"{board.json["version"]}"'
    assert game.client.get(game.url(), headers={"If-None-Match": etag}).status_code == 304
    assert game.client.get(game.url(), headers={"If-None-Match": '"1"'}).status_code == 200
    color = next(iter(game.tokens))
    hand = game.client.get(game.url("/hand"), headers=game.as_(color))
    assert game.client.get(game.url("/hand"), headers={**game.as_(color), "If-None-Match": hand.headers["ETag"]}) \
        .status_code == 304
    events = game.client.get(game.url("/events"))
    assert game.client.get(game.url("/events"), headers={"If-None-Match": events.headers["ETag"]}).status_code == 304


def test_the_board_at_a_past_version(api_game, runtime):
    game = api_game(seats=3, moves=10)
    early = game.client.get(game.url("?version=5"))
    assert early.status_code == 200 and early.json["version"] == 5 and early.headers["ETag"] == '"5"'
    from projections import views
    assert early.json == views.board(engine.fold(runtime.store.read(game.id, until=5)))
    head = game.last["version"]
    assert game.client.get(game.url(f"?version={head + 1}")).status_code == 404
    assert problem_type(game.client.get(game.url("?version=0"))) == "invalid-request"
    assert game.client.get(game.url("?version=abc")).status_code == 400


def test_the_hand_at_a_past_version(api_game):
    game = api_game(seats=3, moves=10)
    color = next(iter(game.tokens))
    past = game.client.get(game.url("/hand?version=12"), headers=game.as_(color))
    assert past.status_code == 200 and past.json["version"] == 12 and past.json["player"] == color


# --- idempotency ---------------------------------------------------------------------------

def test_a_retried_action_returns_the_first_answer_and_writes_nothing(api_game, runtime):
    game = api_game(seats=3)
    color, body = _passing_move(game)
    headers = {**game.as_(color), "Idempotency-Key": "move-1"}
    first = game.client.post(game.url("/actions"), json=body, headers=headers)
    assert first.status_code == 200
    version = runtime.store.version(game.id)
    again = game.client.post(game.url("/actions"), json=body, headers=headers)
    assert again.status_code == 200 and again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert runtime.store.version(game.id) == version


def test_an_idempotency_key_reused_for_another_request_is_refused(api_game):
    game = api_game(seats=3)
    color, body = _passing_move(game)
    headers = {**game.as_(color), "Idempotency-Key": "move-2"}
    assert game.client.post(game.url("/actions"), json=body, headers=headers).status_code == 200
    other = game.client.post(game.url("/actions"), json={**body, "action": "something-else"}, headers=headers)
    assert other.status_code == 422 and problem_type(other) == "idempotency-key-reused"


def test_idempotency_keys_are_scoped_per_seat(api_game):
    game = api_game(seats=3)
    color, body = _passing_move(game)
    first = game.client.post(game.url("/actions"), json=body, headers={**game.as_(color), "Idempotency-Key": "k"})
    assert first.status_code == 200
    other = next(c for c in game.tokens if c != color)
    response = game.client.post(game.url("/actions"), json={"action": "pass"},
                                headers={**game.as_(other), "Idempotency-Key": "k"})
    assert "Idempotent-Replayed" not in response.headers


# --- views --------------------------------------------------------------------------------

def test_hand_and_prompts_are_the_callers_own(api_game):
    game = api_game(seats=3, moves=5)
    red, blue = "red", "blue"
    hand = game.client.get(game.url("/hand"), headers=game.as_(red)).json
    assert hand["player"] == red and len(hand["cards"]) == game.client.get(game.url()).json["players"][red]["hand_size"]
    assert game.client.get(game.url(f"/hand?player={blue}"), headers=game.as_(red)).status_code == 403
    assert game.client.get(game.url("/hand")).status_code == 401
    owed = game.client.get(game.url("/prompts"), headers=game.as_(red)).json
    assert all(p["player"] == red for p in owed["prompts"])
    admin = bearer("test-admin-token")
    everyone = game.client.get(game.url("/prompts"), headers=admin).json["prompts"]
    assert {p["player"] for p in everyone} == {p["player"] for p in game.last["pending"]}
    assert game.client.get(game.url(f"/hand?player={blue}"), headers=admin).json["player"] == blue
    assert game.client.get(game.url("/hand"), headers=admin).status_code == 400
    assert game.client.get(game.url("/hand?player=orange"), headers=admin).status_code == 404


def test_a_token_is_valid_for_its_own_game_only(api_game, client):
    first, second = api_game(seats=2, seed="g1"), api_game(seats=2, seed="g2")
    token = first.tokens["red"]
    response = client.get(second.url("/hand"), headers=bearer(token))
    assert response.status_code == 401 and problem_type(response) == "unauthorized"
    assert client.get(second.url(), headers=bearer("nonsense")).status_code == 401
    assert client.get(second.url(), headers={"Authorization": "Basic abc"}).status_code == 401


def test_events_pages_and_redaction(api_game):
    game = api_game(seats=3, moves=10)
    page = game.client.get(game.url("/events?limit=5")).json
    assert page["after"] == 0 and page["more"] and page["version"] == game.last["version"]
    seqs = [e["seq"] for e in page["events"]]
    assert seqs == sorted(seqs) and all(s <= page["next_after"] for s in seqs)
    assert all("hash" not in e for e in page["events"])
    everything, after = [], 0
    while True:
        page = game.client.get(game.url(f"/events?after={after}&limit=7")).json
        everything += page["events"]
        after = page["next_after"]
        if not page["more"]:
            break
    assert not any(e["type"] == "Bookmark" for e in everything)  # engine bookkeeping: the admin's log only
    admin = bearer("test-admin-token")
    full = game.client.get(game.url("/events?include_internal=true&limit=1000"), headers=admin).json["events"]
    assert len(full) == game.last["version"] and all("hash" in e for e in full)
    assert game.client.get(game.url("/events?include_internal=true"), headers=game.as_("red")).status_code == 403


def test_games_list_filters_by_status(client, api_game):
    playing = api_game(seats=2, seed="list-1")
    lobby = client.post("/games", json={"seats": 4}).json["id"]
    listed = client.get("/games").json
    assert {g["id"] for g in listed["games"]} >= {playing.id, lobby} and listed["total"] >= 2
    assert [g["id"] for g in client.get("/games?status=lobby").json["games"]] == [lobby]
    assert [g["id"] for g in client.get("/games?status=playing").json["games"]] == [playing.id]
    assert client.get("/games?status=finished").json["games"] == []
    assert client.get("/games?status=nope").status_code == 400
    assert client.get("/games?limit=1").json["games"][0]["id"] in (lobby, playing.id)


def test_a_finished_game_is_listed_as_finished(api_game, client):
    game = api_game(seats=2, seed="to-the-end", options={"honeymoon": True}).moves()  # (a short two-player game)
    assert game.last["status"] == "finished" and game.last["winners"]
    assert [g["id"] for g in client.get("/games?status=finished").json["games"]] == [game.id]
    after = game.client.post(game.url("/actions"), json={"action": "pass"}, headers=game.as_("red"))
    assert after.status_code == 422 and after.json["rule"] == "lobby"


def test_catalogue_health_openapi(client):
    catalogue = client.get("/catalogue").json
    assert catalogue["powers"] and catalogue["edicts"] is not None and catalogue["options"]
    power = catalogue["powers"][0]
    assert {"name", "provenance", "flares"} <= set(power)
    assert client.get("/health").json["status"] == "ok"
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200 and spec.get_data(as_text=True).startswith("openapi: 3.1")


def test_an_unhealthy_service_says_when_to_look_again(client, runtime, monkeypatch):
    """Issue 28 item 4: /health's 503 carries Retry-After, as every other 503 does."""
    def down():
        raise ConnectionError("the store is down")
    monkeypatch.setattr(runtime.redis, "ping", down)
    answer = client.get("/health")
    assert answer.status_code == 503 and answer.json["type"].endswith(":service-unavailable")
    assert int(answer.headers["Retry-After"]) >= 1


def test_unknown_things_are_404_problems(client):
    for url in ("/games/nope", "/games/nope/hand", "/games/nope/events", "/games/nope/stream", "/nothing",
                "/games/bad%7Bid%7D", "/games/" + "x" * 100):
        response = client.get(url, headers=bearer("test-admin-token"))
        assert response.status_code == 404, url
        assert problem_type(response) in ("game-not-found", "not-found")
    response = client.post("/games/nope/players", json={"name": "a"})
    assert response.status_code == 404 and problem_type(response) == "game-not-found"


def test_wrong_methods_are_405_problems(client):
    response = client.delete("/games")
    assert response.status_code == 405 and problem_type(response) == "method-not-allowed"
    assert "POST" in response.headers["Allow"]
