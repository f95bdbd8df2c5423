"""Table talk (workers/talk.py, POST /games/{id}/messages): players talk to everyone or to one player; the
talk is part of the game's record, a private message reaches only its two players, and talk changes no game."""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import (
    ADMIN,
    ADMIN_TOKEN,
    PROBLEM,
    ApiGame,
    bearer,
    documented_app,
    problem_type,
    sse_messages,
    whole_log,
)
from workers.runtime import Runtime
from workers.settings import Settings
from workers.talk import MAX_CHARACTERS
from workers.transfer import export_lines, import_game

SECRET = "meet me at the warp"


def say(client, game, colour, text, to=None, **headers):
    body = {"text": text} if to is None else {"text": text, "to": to}
    return client.post(game.url("/messages"), json=body, headers={**game.as_(colour), **headers})


def messages(events):
    return [e for e in events if e["type"] == "MessageSent"]


@pytest.fixture
def game(api_game):
    return api_game(seats=3, seed="talk", moves=5)


def test_a_public_message_is_in_everyones_log_told_in_words(client, game):
    said = say(client, game, "red", "  Ally with me, blue.  ")
    assert said.status_code == 201, said.json
    assert said.json["message"]["payload"] == {"player": "red", "to": None, "text": "Ally with me, blue.",
                                               "seen_by": None}
    assert said.json["message"]["text"] == "player 0 says to everyone: Ally with me, blue."
    for headers in (game.as_("red"), game.as_("blue"), game.as_("yellow"), {}, ADMIN):
        found = messages(whole_log(client, game.id, headers))
        assert [m["payload"]["text"] for m in found] == ["Ally with me, blue."]
        assert found[0]["seq"] == said.json["version"]


def test_a_private_message_reaches_its_two_players_only_everywhere(client, game):
    said = say(client, game, "red", SECRET, to="blue")
    assert said.status_code == 201, said.json
    assert said.json["message"]["text"] == f"player 0 says to player 1 alone: {SECRET}"
    version = said.json["version"]
    for reader in ("red", "blue"):
        found = messages(whole_log(client, game.id, game.as_(reader)))
        assert [(m["payload"]["text"], m["payload"]["to"]) for m in found] == [(SECRET, "blue")]
    assert messages(whole_log(client, game.id, ADMIN))[0]["payload"]["text"] == SECRET
    for headers in (game.as_("yellow"), {}, bearer(game.host_token)):
        log = whole_log(client, game.id, headers)
        assert messages(log) == [] and version not in [e["seq"] for e in log]
        raw = client.get(game.url("/events"), headers=headers).get_data(as_text=True)
        assert SECRET not in raw and "MessageSent" not in raw
        feed = client.get(game.url("/stream"), query_string={"timeout": 0.3}, headers=headers).get_data(as_text=True)
        assert SECRET not in feed and "MessageSent" not in feed and f"id: {version}\n" not in feed
    feed = client.get(game.url("/stream"), query_string={"timeout": 0.3}, headers=game.as_("blue"))
    told = [m for m in sse_messages(feed.get_data(as_text=True)) if m["event"] == "MessageSent"]
    assert [m["data"]["payload"]["text"] for m in told] == [SECRET]


def test_a_finished_games_export_keeps_a_private_message_for_its_players_only(client, api_game):
    game = api_game(seats=2, seed="talk-export")
    assert say(client, game, "red", SECRET, to="blue").status_code == 201
    game.moves()
    assert game.last["status"] == "finished"
    for reader, sees in (("red", True), ("blue", True)):
        body = client.get(game.url("/export"), headers=game.as_(reader)).get_data(as_text=True)
        assert (SECRET in body) is sees
    assert SECRET in client.get(game.url("/export"), headers=ADMIN).get_data(as_text=True)
    body = client.get(game.url("/export")).get_data(as_text=True)
    assert SECRET not in body and "MessageSent" not in body


def test_talk_changes_no_game(client, api_game, runtime):
    """A game with talk in it plays exactly as without: the same board and the same facts, only later versions."""
    quiet, chatty = api_game(seats=3, seed="same-game"), api_game(seats=3, seed="same-game")
    for step in range(40):
        if step % 4 == 0:
            assert say(client, chatty, "yellow", f"move {step} coming", to="red").status_code == 201
            assert say(client, chatty, "blue", "no deal").status_code == 201
        if quiet.move() is None:
            break
        chatty.move()

    def facts(game):
        return [(e["type"], e["payload"]) for e in whole_log(client, game.id, ADMIN) if e["type"] != "MessageSent"
                and e["type"] != "GameCreated" and e["type"] != "PlayerJoined"]
    assert facts(quiet) == facts(chatty)
    board_q, board_c = client.get(quiet.url()).json, client.get(chatty.url()).json
    assert board_c["version"] == board_q["version"] + 20
    differ = sorted(k for k in board_q if board_q[k] != board_c[k])
    assert differ == ["created", "game_id", "time", "version"], differ  # when they were played, and where
    assert runtime.repository.rebuild(chatty.id, write=False) == runtime.repository.current(chatty.id)


@pytest.mark.parametrize("body, status, slug, rule", [
    ({"text": "x" * (MAX_CHARACTERS + 1)}, 422, "message-refused", "talk.text"),
    ({"text": "   "}, 422, "message-refused", "talk.text"),
    ({"text": "bell\u0007"}, 422, "message-refused", "talk.text"),
    ({"text": "half \ud800 of a pair"}, 400, "bad-request", None),
    ({"text": "to myself", "to": "red"}, 422, "message-refused", "talk.to"),
    ({"text": "to nobody", "to": "purple"}, 422, "message-refused", "talk.to"),
    ({"text": "to a rainbow", "to": "rainbow"}, 400, "invalid-request", None),
    ({"text": 5}, 400, "invalid-request", None),
    ({"text": None}, 400, "invalid-request", None),
    ({"to": "blue"}, 400, "invalid-request", None),
    ({"text": "hi", "loud": True}, 400, "invalid-request", None),
    ([], 400, "bad-request", None),
])
def test_bad_messages_are_refused_naming_the_rule_and_nothing_is_written(client, game, runtime, body, status, slug,
                                                                         rule):
    before = runtime.store.version(game.id)
    refused = client.post(game.url("/messages"), data=json.dumps(body), content_type="application/json",
                          headers=game.as_("red"))
    assert refused.status_code == status and problem_type(refused) == slug, refused.json
    assert refused.json.get("rule") == rule
    assert runtime.store.version(game.id) == before


def test_the_longest_message_is_taken_whole_and_line_breaks_are_kept(client, game):
    text = "é" * MAX_CHARACTERS
    said = say(client, game, "blue", text)
    assert said.status_code == 201 and said.json["message"]["payload"]["text"] == text
    lines = say(client, game, "blue", "first line\r\nsecond\tline\n")
    assert lines.status_code == 201 and lines.json["message"]["payload"]["text"] == "first line\nsecond\tline"


@pytest.mark.parametrize("headers, status, slug", [
    ({}, 401, "unauthorized"), (ADMIN, 403, "forbidden"), ("host", 403, "forbidden"),
    (bearer("made-up-token"), 401, "unauthorized")])
def test_only_a_seat_speaks(client, game, headers, status, slug):
    headers = bearer(game.host_token) if headers == "host" else headers
    refused = client.post(game.url("/messages"), json={"text": "hello"}, headers=headers)
    assert refused.status_code == status and problem_type(refused) == slug


def test_an_unknown_game_is_404_and_malformed_bodies_are_400(client, game):
    missing = client.post("/games/nope/messages", json={"text": "hi"}, headers=ADMIN)
    assert missing.status_code == 404 and problem_type(missing) == "game-not-found"
    for data, ctype, status in (("{", "application/json", 400), ("hi", "text/plain", 415), ("", "application/json", 400)):
        refused = client.post(game.url("/messages"), data=data, content_type=ctype, headers=game.as_("red"))
        assert refused.status_code == status and refused.mimetype == PROBLEM


def test_a_repeated_idempotency_key_says_it_once(client, game, runtime):
    first = say(client, game, "red", "once", **{"Idempotency-Key": "k1"})
    again = say(client, game, "red", "once", **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert [m["payload"]["text"] for m in messages(whole_log(client, game.id, ADMIN))] == ["once"]
    other = say(client, game, "red", "twice", **{"Idempotency-Key": "k1"})
    assert other.status_code == 422 and problem_type(other) == "idempotency-key-reused"


def test_a_move_pinned_before_a_message_is_a_conflict(client, game, runtime):
    version = runtime.store.version(game.id)
    assert say(client, game, "red", "wait").status_code == 201
    colour = game.last["pending"][0]["player"]
    prompt = client.get(game.url("/prompts"), headers=game.as_(colour)).json["prompts"][0]
    pinned = client.post(game.url("/actions"), json={"action": prompt["options"][0]["action"],
                                                    "expected_version": version}, headers=game.as_(colour))
    assert pinned.status_code == 409 and problem_type(pinned) == "version-conflict"


def test_a_seat_talking_too_fast_is_told_when_to_go_on(redis_client, rq_client, key_prefix, spec, api_game):
    settings = Settings(prefix=key_prefix, admin_token=ADMIN_TOKEN, limit_message_token="3 per minute",
                        limit_create_token="none", limit_create_address="none")
    flask_app, undocumented = documented_app(Runtime(settings, redis_client=redis_client, rq_client=rq_client), spec)
    client = flask_app.test_client()
    game = ApiGame(client, 2, "talk-limit").join_all(2).start()
    for k in range(3):
        assert say(client, game, "red", f"message {k}").status_code == 201
    refused = say(client, game, "red", "one more")
    assert refused.status_code == 429 and problem_type(refused) == "rate-limited"
    assert int(refused.headers["Retry-After"]) >= 1 and refused.json["policy"] == "message-token-60s"
    assert say(client, game, "blue", "my turn to talk").status_code == 201  # the quota is the seat's
    assert not undocumented


def test_talk_stays_in_the_record_through_rewinds_audits_and_imports(client, game, runtime):
    before = say(client, game, "red", "before the rewind").json["version"]
    assert say(client, game, "blue", SECRET, to="yellow").status_code == 201
    game.moves(5)
    rewound = client.post(game.url("/rewind"), json={"to_version": before}, headers=ADMIN)
    assert rewound.status_code == 200, rewound.json  # a message's version is one the game waited at
    assert [m["payload"]["text"] for m in messages(whole_log(client, game.id, game.as_("yellow")))] == \
        ["before the rewind", SECRET]
    audit = client.get(f"/admin/games/{game.id}/audit", headers=ADMIN).json
    assert audit["ok"], audit
    copy = import_game(runtime, list(export_lines(runtime.store, game.id)), as_id="talk-copy")
    assert copy["audit"]["ok"] and copy["version"] == runtime.store.version(game.id)
    assert [m["payload"]["text"] for m in messages(whole_log(client, "talk-copy", ADMIN))] == \
        ["before the rewind", SECRET]
    assert [m["payload"]["text"] for m in messages(whole_log(client, "talk-copy"))] == ["before the rewind"]
