"""No request yields a 500 for bad input: malformed JSON, wrong types, unknown fields, odd headers."""

from __future__ import annotations

import json
import random

import pytest

ADMIN = {"Authorization": "Bearer test-admin-token"}
BODIES = [
    b"", b"{", b"[]", b"null", b"3", b'"text"', b"{}", b'{"a": NaN}', b'{"a": Infinity}', b"\xff\xfe",
    b"[" * 5000 + b"]" * 5000, b'{"seats": "3"}', b'{"seats": 3.5}', b'{"seats": true}', b'{"seats": null}',
    b'{"seats": 3, "unknown": 1}', b'{"seats": 3, "options": []}', b'{"seats": 3, "options": {"flares": "yes"}}',
    b'{"seats": 3, "ruleset": 7}', b'{"seats": 99999999999999999999999}', b'{"name": ""}', b'{"name": 5}',
    b'{"name": "x", "color": "mauve"}', b'{"name": "x", "bot": "genius"}', b'{"action": 1}',
    b'{"action": "pass", "args": []}', b'{"action": "pass", "args": {"x": 1}}', b'{"action": "launch", "args": '
    b'{"tokens": "all", "planet": ["x"]}}', b'{"action": "pass", "expected_version": "1"}',
    b'{"action": "pass", "expected_version": -1}', b'{"action": "pass", "prompt": 3}',
    b'{"action": "pass", "side": {"nested": 1}}', b'{"action": "pass", "player": "nobody"}',
    b'{"action": "' + b"x" * 5000 + b'"}', b'{"action": "pass", "args": {"terms": {"cards": 1}}}',
]
HEADERS = [
    {}, {"If-Match": "abc"}, {"If-Match": '"-3"'}, {"If-Match": '"99999999999999999999"'},
    {"If-None-Match": "garbage"}, {"Idempotency-Key": ""}, {"Idempotency-Key": "k" * 500},
    {"Last-Event-ID": "x"}, {"Authorization": "Bearer"}, {"Authorization": "Bearer \u00e9\u00e9"},
    {"Content-Type": "text/plain"},
]


@pytest.fixture
def targets(api_game, client):
    """Every route with a game to aim at, plus a seat token."""
    game = api_game(seats=3, seed="fuzz", moves=3)
    lobby = client.post("/games", json={"seats": 3}).json["id"]
    return game, lobby


def assert_no_500(response, what):
    assert response.status_code < 500, (what, response.status_code, response.get_data(as_text=True)[:300])
    if response.status_code >= 400:
        assert response.mimetype == "application/problem+json", what


def test_every_post_route_survives_bad_bodies(client, targets):
    game, lobby = targets
    seat = game.as_(next(iter(game.tokens)))
    routes = ["/games", f"/games/{lobby}/players", game.url("/start"), game.url("/actions"),
              f"/games/{lobby}/start", "/games/nope/actions"]
    for route in routes:
        for body in BODIES:
            for auth in ({}, seat, ADMIN):
                response = client.post(route, data=body, headers={**auth, "Content-Type": "application/json"})
                assert_no_500(response, (route, body[:60], auth))


def test_every_route_survives_odd_headers_and_query_strings(client, targets):
    game, _ = targets
    seat = game.as_(next(iter(game.tokens)))
    gets = ["/games", game.url(), game.url("/hand"), game.url("/prompts"), game.url("/events"),
            game.url("/stream?timeout=0.2"), "/health", "/catalogue", "/openapi.yaml"]
    queries = ["", "?version=x", "?version=-1", "?version=1e3", "?after=-5", "?limit=0", "?limit=x", "?status=1",
               "?include_internal=maybe", "?player=", "?timeout=nan", "?timeout=-1", "?offset=-1", "?after=1&after=2"]
    for url in gets:
        for query in queries:
            joiner = "&" if "?" in url and query else ""
            full = url + (joiner + query[1:] if joiner else query)
            for headers in HEADERS:
                for auth in ({}, seat):
                    response = client.get(full, headers={**headers, **auth})
                    assert_no_500(response, (full, headers, auth))
    for headers in HEADERS:
        response = client.post(game.url("/actions"), json={"action": "pass"}, headers={**seat, **headers})
        assert_no_500(response, headers)


def test_random_garbage_actions_never_crash(client, targets):
    game, _ = targets
    rng = random.Random(7)
    atoms = [None, True, 0, -1, 2 ** 40, 1.5, "", "red", "red-0", "A8.1", "offense", [], {}, ["x"], {"red-0": 1}]

    def value(depth=0):
        if depth > 2 or rng.random() < 0.5:
            return rng.choice(atoms)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(["tokens", "planet", "card", "players", "terms", "x"]): value(depth + 1)
                for _ in range(rng.randint(0, 3))}

    for _ in range(300):
        color = game.last["pending"][0]["player"]
        prompt = client.get(game.url("/prompts"), headers=game.as_(color)).json["prompts"][0]
        option = rng.choice(prompt["options"])
        body = {"action": option["action"], "args": {name: value() for name in list(option["args"]) + ["extra"]
                                                     if rng.random() < 0.8}}
        for name in ("side", "ability"):
            if name in option and rng.random() < 0.7:
                body[name] = option[name] if rng.random() < 0.5 else rng.choice(atoms[:8])
        response = client.post(game.url("/actions"), data=json.dumps(body),
                               headers={**game.as_(color), "Content-Type": "application/json"})
        assert_no_500(response, body)
        if response.status_code == 200:
            game.last = response.json
            if game.last["status"] != "playing":
                break
