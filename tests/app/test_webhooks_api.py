"""The webhook subscription API: who may subscribe to what, validation, the secret shown once.

(Delivery itself is tested in tests/workers/test_webhooks.py.)
"""

from __future__ import annotations

import pytest

from app.routes.webhooks import MAX_PER_GAME, share
from tests.app.conftest import ADMIN, bearer
from tests.workers import hooks

URL = "https://example.com/hook"


def subscribe(client, headers=ADMIN, **body) -> dict:
    return hooks.subscribe(client, headers, **body)


@pytest.fixture
def seats(client):
    """A lobby game ``g-auth`` with red and blue seated: their Authorization headers."""
    created = client.post("/games", json={"seats": 3, "seed": "auth"}, headers=ADMIN).json["id"]
    red = client.post(f"/games/{created}/players", json={"name": "Ann"}).json["token"]
    blue = client.post(f"/games/{created}/players", json={"name": "Bob"}).json["token"]
    return created, bearer(red), bearer(blue)


def test_the_secret_is_shown_once_and_never_again(client):
    made = subscribe(client, url=URL)
    assert len(made["secret"]) >= 32
    chosen = subscribe(client, url=URL, secret="my-own-secret-of-some-length")
    assert chosen["secret"] == "my-own-secret-of-some-length"
    for sub in (made, chosen):
        for path in (f"/webhooks/{sub['id']}", "/webhooks", f"/webhooks/{sub['id']}/deliveries"):
            answer = client.get(path, headers=ADMIN)
            assert answer.status_code == 200
            text = answer.get_data(as_text=True)
            assert sub["secret"] not in text and '"secret"' not in text
    shown = client.get(f"/webhooks/{made['id']}", headers=ADMIN).json
    assert shown["delivery"] == {"status": "idle", "delivered": 0, "failed": 0, "consecutive_failures": 0,
                                 "last_attempt_at": None, "last_success_at": None, "last_status_code": None,
                                 "last_error": None}


@pytest.mark.parametrize("body, field", [
    ({"url": "ftp://example.com/x"}, "url"),
    ({"url": "not a url"}, "url"),
    ({"url": "http://user:pw@example.com/"}, "url"),
    ({"url": "http://example.com:99999/"}, "url"),
    ({"url": URL, "event_types": ["NoSuchEvent"]}, "event_types"),
    ({"url": URL, "event_types": ["Bookmark"]}, "event_types"),  # engine bookkeeping is never sent
    ({"url": URL, "event_types": ["StepsScheduled"]}, "event_types"),
    ({"url": URL, "event_types": []}, "event_types"),
    ({"url": URL, "secret": "short"}, "secret"),
    ({"url": URL, "after": 3}, "after"),
    ({"url": URL, "viewer": "red"}, "viewer"),
    ({"url": URL, "game_id": "bad id!"}, "game_id"),
    ({"url": URL, "colour": "red"}, "colour"),
    ({"url": 7}, "url"),
])
def test_bad_subscriptions_are_refused_naming_the_field(client, body, field):
    answer = client.post("/webhooks", json=body, headers=ADMIN)
    assert answer.status_code == 400 and answer.mimetype == "application/problem+json"
    assert field in answer.json["errors"]


def test_after_may_not_pass_the_games_version(client, seats):
    game_id, red, _ = seats
    answer = client.post("/webhooks", json={"url": URL, "game_id": game_id, "after": 99}, headers=ADMIN)
    # a version the game does not have, named in the body: 422 version-not-found, as a fork's (issue 28 item 4)
    assert answer.status_code == 422 and answer.json["type"].endswith(":version-not-found")
    assert "after" in answer.json["errors"] and answer.json["current_version"] < 99


def test_who_may_subscribe_to_what(client, seats):
    game_id, red, blue = seats
    assert client.post("/webhooks", json={"url": URL}).status_code == 401
    assert client.post("/webhooks", json={"url": URL}, headers=red).status_code == 403  # a seat's token needs its game
    assert client.post("/webhooks", json={"url": URL, "game_id": game_id, "viewer": "admin"},
                       headers=red).status_code == 403
    for private in ("http://127.0.0.1:1/", "http://localhost/x", "http://10.0.0.7/", "http://[::1]/",
                    "http://169.254.169.254/latest"):
        refused = client.post("/webhooks", json={"url": private, "game_id": game_id}, headers=red)
        assert refused.status_code == 400 and "url" in refused.json["errors"], private
    assert client.post("/webhooks", json={"url": URL, "game_id": "nope"}, headers=ADMIN).status_code == 404
    mine = subscribe(client, headers=red, url=URL, game_id=game_id)
    theirs = subscribe(client, headers=blue, url=URL, game_id=game_id)
    admins = subscribe(client, url="http://127.0.0.1:9/")  # the admin may target anything
    assert (mine["viewer"], mine["created_by"], admins["viewer"]) == ("red", "red", "admin")
    assert client.get(f"/webhooks/{mine['id']}", headers=blue).status_code == 403
    assert client.get(f"/webhooks/{mine['id']}").status_code == 401
    assert client.get(f"/webhooks/{admins['id']}", headers=red).status_code == 403
    assert client.delete(f"/webhooks/{mine['id']}", headers=blue).status_code == 403
    assert client.get(f"/webhooks/{mine['id']}/deliveries", headers=blue).status_code == 403
    listed = client.get("/webhooks", query_string={"game_id": game_id}, headers=red).json["webhooks"]
    assert [s["id"] for s in listed] == [mine["id"]]
    listed = client.get("/webhooks", headers=ADMIN).json["webhooks"]
    assert [s["id"] for s in listed] == [mine["id"], theirs["id"], admins["id"]]
    listed = client.get("/webhooks", query_string={"game_id": game_id}, headers=ADMIN).json["webhooks"]
    assert [s["id"] for s in listed] == [mine["id"], theirs["id"]]
    assert client.get("/webhooks/wh_nope", headers=ADMIN).status_code == 404
    assert client.delete(f"/webhooks/{mine['id']}", headers=red).status_code == 204
    assert client.get(f"/webhooks/{mine['id']}", headers=red).status_code == 404


def test_a_game_holds_a_bounded_number_of_player_subscriptions_shared_between_its_seats(client, seats):
    game_id, red, blue = seats  # a three-seat game: each seat may hold 20 // 3 = 6 of its 20 slots
    assert share(3) == 6 and share(2) == 10 and share(6) == 3 and MAX_PER_GAME == 20
    for _ in range(share(3)):
        subscribe(client, headers=red, url=URL, game_id=game_id)
    refused = client.post("/webhooks", json={"url": URL, "game_id": game_id}, headers=red)
    assert refused.status_code == 403 and "share" in refused.json["detail"]
    subscribe(client, headers=blue, url=URL, game_id=game_id)  # red's subscriptions took none of blue's share
    subscribe(client, url=URL, game_id=game_id)  # the admin is not limited
