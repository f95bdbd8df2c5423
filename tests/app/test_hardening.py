"""Issue 15: defects found by fuzzing and by running the service for real, each pinned by a test."""

from __future__ import annotations

import pytest

from tests.app.conftest import ADMIN as ADMIN_HEADERS
from tests.app.conftest import problem_type

HUGE = [str(2**64 - 1), str(2**63), str(2**53)]


@pytest.mark.parametrize("after", HUGE)
def test_an_event_number_beyond_any_game_is_a_400_on_the_log_and_the_feed(client, api_game, after):
    game = api_game(seats=2, moves=1)
    seat = game.as_(next(iter(game.tokens)))
    for path in ("/events", "/stream"):
        answer = client.get(game.url(f"{path}?after={after}&timeout=0.2"), headers=seat)
        assert answer.status_code == 400, (path, answer.get_data(as_text=True)[:200])
        assert problem_type(answer) == "invalid-request"
        assert "after" in answer.json["errors"]
    resumed = client.get(game.url("/stream?timeout=0.2"), headers={**seat, "Last-Event-ID": after})
    assert resumed.status_code == 400 and "Last-Event-ID" in resumed.json["errors"]
    board = client.get(game.url(f"?version={after}"))
    assert board.status_code == 400 and "version" in board.json["errors"]


def test_joining_a_started_game_is_a_409_saying_the_game_has_started(client, api_game):
    game = api_game(seats=2)
    answer = client.post(game.url("/players"), json={"name": "Late"})
    assert answer.status_code == 409
    assert problem_type(answer) == "game-started"
    assert "playing" in answer.json["detail"]


def test_a_seats_token_on_routes_about_no_game_is_ignored_or_forbidden_never_invalid(client, api_game):
    """15.5: generated clients attach their token to every call: they can still list and create games."""
    game = api_game(seats=2)
    seat = game.as_(next(iter(game.tokens)))
    assert client.get("/games", headers=seat).status_code == 200
    created = client.post("/games", json={"seats": 3}, headers=seat)
    assert created.status_code == 201
    listed = client.get("/webhooks", headers=seat)
    assert listed.status_code == 403 and "game_id" in listed.json["detail"]
    job = client.get("/admin/jobs/whatever", headers=seat)
    assert job.status_code == 403 and problem_type(job) == "forbidden"


def test_webhook_routes_authenticate_before_anything_else(client, api_game):
    """15.6: without a token, a known and an unknown subscription answer alike; no body is validated first."""
    from tests.app.conftest import ADMIN
    game = api_game(seats=2)
    known = client.post("/webhooks", json={"url": "https://example.com/h", "game_id": game.id}, headers=ADMIN)
    assert known.status_code == 201
    for sub_id in (known.json["id"], "wh_00000000000000000000", "nonsense"):
        assert client.get(f"/webhooks/{sub_id}").status_code == 401
        assert client.delete(f"/webhooks/{sub_id}").status_code == 401
    assert client.post("/webhooks", json={"bogus": True}).status_code == 401
    assert client.post("/webhooks", data=b"{", headers={"Content-Type": "application/json"}).status_code == 401


def test_a_lone_surrogate_in_any_text_is_a_400_not_a_500(client, api_game):
    """15.13: "\\ud800" is valid JSON but no valid Unicode text; it used to crash the event hash."""
    lobby = client.post("/games", json={"seats": 2}).json["id"]
    raw = b'{"name": "Ann\\ud800"}'
    answer = client.post(f"/games/{lobby}/players", data=raw, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and "name" in answer.json["detail"]
    nested = b'{"seats": 2, "options": {"\\udfff": true}}'
    assert client.post("/games", data=nested, headers={"Content-Type": "application/json"}).status_code == 400
    assert client.get(f"/games/{lobby}").json["players"] == {}


def test_a_chunked_body_over_the_limit_is_a_413_like_a_sized_one(client):
    """15.13: a chunked body (no Content-Length, as gunicorn passes it) over 64 KiB is too large, not bad JSON."""
    import io
    body = b'{"seats": 2, "x": "' + b"a" * 70000 + b'"}'
    chunked = client.post("/games", input_stream=io.BytesIO(body), environ_overrides={"wsgi.input_terminated": True},
                          headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    assert chunked.status_code == 413 and problem_type(chunked) == "payload-too-large"
    sized = client.post("/games", data=body, headers={"Content-Type": "application/json"})
    assert sized.status_code == 413
    small = client.post("/games", input_stream=io.BytesIO(b'{"seats": 2}'), environ_overrides={"wsgi.input_terminated": True},
                        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    assert small.status_code == 201


def test_a_write_to_a_game_whose_stream_is_shorter_than_its_head_is_refused_without_a_500(client, runtime, api_game):
    """15.13: a damaged game (events lost behind the store's back) is named, not crashed on."""
    game = api_game(seats=2, moves=2)
    key = runtime.store.stream_key(game.id)
    last_id = runtime.redis.xrevrange(key, count=1)[0][0]
    runtime.redis.xdel(key, last_id)
    color = game.last["pending"][0]["player"]
    answer = client.post(game.url("/actions"), json={"action": "pass"}, headers=game.as_(color))
    assert answer.status_code < 500, answer.get_data(as_text=True)[:300]
    assert problem_type(answer) == "game-damaged"


def test_a_game_missing_its_last_event_is_game_damaged_in_every_process(client, runtime, api_game):
    """Issue 28 item 4: one process served its cached version, another the shortened stream's, in turn."""
    from app import create_app
    from workers.runtime import Runtime

    game = api_game(seats=2, moves=2)
    other = create_app(Runtime(runtime.settings, redis_client=runtime.redis, rq_client=runtime.rq_redis)).test_client()
    version = client.get(game.url()).json["version"]
    assert other.get(game.url()).json["version"] == version  # both processes now hold the game at its version
    key = runtime.store.stream_key(game.id)
    runtime.redis.xdel(key, runtime.redis.xrevrange(key, count=1)[0][0])
    for process in (client, other, client, other):
        answer = process.get(game.url())
        assert answer.status_code == 409 and problem_type(answer) == "game-damaged", answer.get_data(as_text=True)[:300]
        assert "detail" in answer.json
    listed = runtime.index.rebuild(runtime.repository)  # the games list skips it and lists the rest
    assert listed == len(runtime.store.game_ids()) - 1


def test_every_response_tells_browsers_not_to_sniff_its_type(client, api_game):
    """15.14: X-Content-Type-Options: nosniff on answers and on problems alike."""
    game = api_game(seats=2)
    for response in (client.get("/health"), client.get(game.url()), client.get("/games/nope"),
                     client.post("/games", data=b"{", headers={"Content-Type": "application/json"})):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", [
    "http://100.64.0.1/hook", "http://100.100.100.200/latest/meta-data",  # shared address space (cloud metadata)
    "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://127.1/",  # 127.0.0.1 in disguise
    "http://[::ffff:127.0.0.1]/", "http://192.0.2.10/", "http://0.0.0.0/", "http://224.0.0.1/",
])
def test_a_players_webhook_to_any_non_public_address_is_refused_at_creation(client, api_game, url):
    """15.14: refused when created, not only at delivery (no request leaves the machine here)."""
    game = api_game(seats=2)
    seat = game.as_(next(iter(game.tokens)))
    refused = client.post("/webhooks", json={"url": url, "game_id": game.id}, headers=seat)
    assert refused.status_code == 400 and "url" in refused.json["errors"], url


def test_delivery_refuses_a_name_that_resolves_inward(monkeypatch):
    """At delivery the name is resolved again: a name pointing at 100.64.0.0/10 is not posted to."""
    import socket

    from workers import webhooks
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(2, 1, 6, "", ("100.64.0.7", 443))])
    reason = webhooks.private_target("https://innocent.example/hook")
    assert reason is not None and "100.64.0.7" in reason


def test_a_retry_with_identity_fields_gets_its_stored_answer_and_a_stale_version_a_409(client, api_game):
    """15.10: the idempotency key and the version are looked at before the identity fields."""
    from engine.flow import command_for, identity
    game = api_game(seats=3, seed="identity-retry")
    for _ in range(400):
        found = None
        for pending in game.last["pending"]:
            color = pending["player"]
            prompts = client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"]
            for prompt in prompts:
                for option in prompt["options"]:
                    if identity(option) and not option["args"]:
                        found = (color, option)
        if found:
            break
        game.move()
    assert found, "no decision with identity fields came up"
    color, option = found
    body = command_for(option, {})
    stale = client.post(game.url("/actions"), json=body, headers={**game.as_(color), "If-Match": '"1"'})
    assert stale.status_code == 409 and problem_type(stale) == "version-conflict"
    headers = {**game.as_(color), "Idempotency-Key": "retry-1"}
    first = client.post(game.url("/actions"), json=body, headers=headers)
    assert first.status_code == 200, first.json
    again = client.post(game.url("/actions"), json=body, headers=headers)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.json == first.json
    # the same answer, pinned to the version it was made at: the game has moved on, a 409 (not a 400
    # about fields that no decision owed now uses)
    late = client.post(game.url("/actions"), json=body,
                       headers={**game.as_(color), "If-Match": f'"{first.json["version"] - first.json["appended"]}"'})
    assert late.status_code == 409 and problem_type(late) == "version-conflict"


def test_messages_say_what_is_wrong(client, api_game):
    """15.17: an unknown game with a token is a 404; a negative count is called negative; no raw Python data."""
    game = api_game(seats=2)
    seat = game.as_(next(iter(game.tokens)))
    missing = client.post("/games/no-such-game/actions", json={"action": "pass"}, headers=seat)
    assert missing.status_code == 404 and problem_type(missing) == "game-not-found"
    assert client.get("/games/no-such-game/hand", headers=seat).status_code == 404
    made_up = client.get("/games/no-such-game/hand", headers={"Authorization": "Bearer not-a-token-we-issued"})
    assert made_up.status_code == 401 and problem_type(made_up) == "unauthorized"  # invalid credentials come first


def test_a_negative_token_count_is_named_as_negative():
    from engine import shapes
    from engine.errors import CommandError
    shape = shapes.distribution({"red-0": 4, "red-1": 2}, 1, 4)
    with pytest.raises(CommandError, match="must not be negative"):
        shapes.check(shape, {"red-0": -1, "red-1": 2}, "args.tokens", "4.3")


def test_an_option_that_is_not_offered_is_named_in_words_not_python_data():
    from engine.errors import RulesError
    from engine.flow import match, option
    owed = {"rule": "5", "kind": "window", "options": [option("use", ability="power:Macron"),
                                                       option("use", ability="card:CosmicZap")]}
    with pytest.raises(RulesError) as refused:
        match(owed, {"action": "use", "ability": "power:Laser"})
    assert "possible: ability=power:Macron; ability=card:CosmicZap" in str(refused.value)
    assert "{" not in str(refused.value)


def test_an_impossible_stacked_setup_is_a_422_at_creation_naming_the_card(client):
    """14.21: refused when the game is created, not later when it starts."""
    from tests.app.conftest import ADMIN
    answer = client.post("/games", json={"seats": 2, "seed": "s", "setup": {"hands": {"red": ["A40", "A40"]}}},
                         headers=ADMIN)
    assert answer.status_code == 422 and problem_type(answer) == "rules-violation"
    assert "'A40'" in answer.json["detail"] and "setup.hands.red" in answer.json["detail"]
    fine = client.post("/games", json={"seats": 2, "seed": "s", "setup": {"powers": {"red": [], "blue": ["Macron"]}}},
                       headers=ADMIN)
    assert fine.status_code == 201


def test_if_match_star_matches_any_version_of_an_existing_game(client, api_game):
    """15.22: RFC 9110's `If-Match: *` is accepted (any current version), not refused as malformed."""
    game = api_game(seats=2, moves=1)
    color = game.last["pending"][0]["player"]
    prompt = client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][0]
    no_args = [o for o in prompt["options"] if not o["args"]]
    if no_args:
        body = {"action": no_args[0]["action"], **{k: v for k, v in no_args[0].items()
                                                   if k not in ("action", "args", "rule", "label")}}
        answer = client.post(game.url("/actions"), json=body, headers={**game.as_(color), "If-Match": "*"})
        assert answer.status_code == 200, answer.json
    missing = client.post("/games/no-such/actions", json={"action": "pass"}, headers={**ADMIN_HEADERS, "If-Match": "*"})
    assert missing.status_code == 404


def test_an_integer_written_with_a_zero_fraction_is_that_integer_as_json_schema_says(client):
    """15.22, decided again for schemathesis and strict clients alike: `2.0` is the integer 2 (JSON Schema's
    `integer`), stored as 2; `2.5`, `"2"` and `true` are refused (400)."""
    answer = client.post("/games", json={"seats": 2.0, "options": {"deal_seconds": 30.0}})
    assert answer.status_code == 201, answer.json
    assert answer.json["seats"] == 2 and type(answer.json["options"]["deal_seconds"]) is int
    for seats in (2.5, "2", True):
        refused = client.post("/games", json={"seats": seats})
        assert refused.status_code == 400 and "seats" in refused.json["errors"], seats


def test_if_match_and_expected_version_naming_two_versions_is_a_conflict(client, api_game):
    """The game cannot be at both versions: 409 with the current version (schema-valid input is never a 400)."""
    game = api_game(seats=2)
    color = game.last["pending"][0]["player"]
    version = game.last["version"]
    answer = client.post(game.url("/actions"), json={"action": "pass", "expected_version": version},
                         headers={**game.as_(color), "If-Match": f'"{version + 1}"'})
    assert answer.status_code == 409 and problem_type(answer) == "version-conflict"
    assert answer.json["current_version"] == version
    missing = client.post("/games/nope/actions", json={"action": "pass", "expected_version": 1},
                          headers={**ADMIN_HEADERS, "If-Match": '"2"'})
    assert missing.status_code == 404


def test_a_stacked_token_layout_is_checked_when_the_game_is_created(client):
    """A negative or fractional token count, or a colour that is none, is refused at creation, not at the start."""
    for tokens in ({"blue-2": {"blue": -1}}, {"blue-2": {"blue": 1.5}}, {"blue-2": {"pink": 1}}, {"blue-2": 3}):
        answer = client.post("/games", json={"seats": 2, "setup": {"tokens": tokens}}, headers=ADMIN_HEADERS)
        assert answer.status_code == 400 and "setup.tokens" in answer.json["field"], (tokens, answer.json)
    fine = client.post("/games", json={"seats": 2, "setup": {"tokens": {"blue-2": {"blue": 1, "red": 2}}}},
                       headers=ADMIN_HEADERS)
    assert fine.status_code == 201


@pytest.mark.parametrize("option", ["deal_seconds", "powers_per_player"])
def test_null_for_an_option_that_has_a_value_by_default_is_refused(client, option):
    """Found by schemathesis: `deal_seconds: null` was taken, and the first deal would have crashed on it."""
    answer = client.post("/games", json={"seats": 3, "options": {option: None}})
    assert answer.status_code == 422 and problem_type(answer) == "rules-violation" and option in answer.json["detail"]
    assert client.post("/games", json={"seats": 3, "options": {"decision_seconds": None}}).status_code == 201


def test_a_made_up_token_is_a_401_before_any_webhook_is_looked_up(client):
    """Found by schemathesis: invalid credentials came second to an unknown subscription (404)."""
    made_up = {"Authorization": "Bearer made-up-token"}
    for method, path in (("get", "/webhooks/wh_00000000000000000000"), ("delete", "/webhooks/wh_00000000000000000000"),
                         ("get", "/webhooks?game_id=nope"), ("get", "/webhooks/wh_00000000000000000000/deliveries")):
        answer = getattr(client, method)(path, headers=made_up)
        assert answer.status_code == 401 and problem_type(answer) == "unauthorized", (method, path)
    assert client.get("/webhooks/wh_00000000000000000000", headers=ADMIN_HEADERS).status_code == 404


def test_a_url_too_long_is_a_414_problem_and_a_long_one_reaches_the_app(client):
    """Found by schemathesis under gunicorn: its own 414 was an HTML page; the app sets a limit (4096
    characters) below the servers' request line (8190 bytes, which they answer with the same problem)."""
    too_long = client.get("/games?status=" + "x" * 5000)
    assert too_long.status_code == 414 and problem_type(too_long) == "uri-too-long"
    long = client.get("/games?status=" + "x" * 3000)
    assert long.status_code == 400 and problem_type(long) == "invalid-request"


def test_the_table_cannot_be_framed_and_keeps_to_its_own_origin(client):
    """28.10: a page of another origin cannot frame the table (clickjacking a seat's buttons)."""
    for path in ("/table/", "/table/main.js", "/table/table.css"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        policy = {d.split()[0]: d.split()[1:] for d in answer.headers["Content-Security-Policy"].split("; ")}
        assert policy["frame-ancestors"] == ["'none'"] and policy["default-src"] == ["'self'"]
        assert policy["script-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert policy["base-uri"] == ["'none'"]
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_api_answers_cannot_be_framed_either(client):
    for response in (client.get("/health"), client.get("/games/nope"), client.get("/table/nope.js")):
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["Referrer-Policy"] == "no-referrer"
