"""Rate limits (app/limits.py): per token and per address, the production defaults, the 429 and its headers.

Each test builds the app with the limits it is about (`limited`); every other API test runs with
quotas far above what it uses (tests/app/conftest.py ``ROOMY_LIMITS``). On the real-Redis variant
the counters are in Redis under the test's prefix; on fakeredis (the embedded mode) in memory.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import redis

from app.limits import RULES
from tests.app.conftest import ADMIN, ADMIN_TOKEN, ApiGame, bearer, documented_app, problem_type
from tests.workers.games import recorded_commands
from workers.runtime import Runtime
from workers.settings import ENV_NAMES, LIMIT_FIELDS, Settings

# one quota of the IETF draft's fields (a Structured Field List item): "name";q=N;w=S / "name";r=N;t=S
POLICY_ITEM = re.compile(r'^"(?P<name>[a-z]+-(?:token|address)-\d+s)";q=(?P<q>\d+);w=(?P<w>\d+)$')
LEFT_ITEM = re.compile(r'^"(?P<name>[a-z]+-(?:token|address)-\d+s)";r=(?P<r>\d+);t=(?P<t>\d+)$')


@pytest.fixture
def limited(redis_client, rq_client, key_prefix, spec):
    """``limited(**settings)``: a test client of an app with these limits (the rest production defaults)."""
    checks = []

    def make(**overrides):
        settings = Settings(prefix=key_prefix, admin_token=ADMIN_TOKEN, **overrides)
        flask_app, undocumented = documented_app(Runtime(settings, redis_client=redis_client, rq_client=rq_client),
                                                 spec)
        checks.append(undocumented)
        return flask_app.test_client()

    yield make
    assert not [u for undocumented in checks for u in undocumented], checks


def quotas(response) -> dict:
    """``{name: (q, w, r, t)}`` from an answer's ``RateLimit-Policy`` and ``RateLimit`` fields."""
    policy = [POLICY_ITEM.match(item.strip()) for item in response.headers["RateLimit-Policy"].split(",")]
    left = [LEFT_ITEM.match(item.strip()) for item in response.headers["RateLimit"].split(",")]
    assert all(policy) and all(left), (response.headers["RateLimit-Policy"], response.headers["RateLimit"])
    remaining = {m["name"]: (int(m["r"]), int(m["t"])) for m in left}
    assert set(remaining) == {m["name"] for m in policy}
    return {m["name"]: (int(m["q"]), int(m["w"]), *remaining[m["name"]]) for m in policy}


def assert_refused(response, policy: str) -> int:
    """A 429 ``rate-limited`` problem naming ``policy``, with ``Retry-After`` and the draft's fields; its wait."""
    assert response.status_code == 429 and problem_type(response) == "rate-limited", response.json
    wait = int(response.headers["Retry-After"])
    assert wait >= 1 and response.json["retry_after"] == wait and response.json["policy"] == policy
    assert quotas(response)[policy][2] == 0  # nothing left of the quota that refused
    return wait


def at(address: str) -> dict:
    """The test client's environment for a request from ``address``."""
    return {"REMOTE_ADDR": address}


# --- the production defaults -------------------------------------------------------------------

def test_the_defaults_are_the_documented_ones_and_a_real_table_stays_far_below_them(limited):
    defaults = Settings()
    assert {name: getattr(defaults, name) for name in LIMIT_FIELDS} == {
        "limit_create_token": "10 per minute; 60 per hour", "limit_create_address": "20 per minute; 200 per hour",
        "limit_fork_token": "5 per minute; 20 per hour", "limit_fork_address": "10 per minute; 60 per hour",
        "limit_webhook_token": "10 per minute; 30 per hour", "limit_webhook_address": "20 per minute; 100 per hour",
        "limit_message_token": "5 per 10 seconds; 30 per minute", "limit_message_address": "150 per minute",
        "limit_player_token": "5 per minute; 20 per hour", "limit_player_address": "5 per minute; 20 per hour",
        "limit_write_token": "120 per minute", "limit_write_address": "600 per minute"}
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for name in LIMIT_FIELDS:
        assert f"| `{ENV_NAMES[name]}` | `{getattr(defaults, name)}` |" in readme, name
    assert defaults.trusted_proxies == 0  # no forwarded header is believed unless configured

    client = limited()  # the defaults themselves: one address creates 20 games in a minute, not 21
    created = [client.post("/games", json={"seats": 2}) for _ in range(20)]
    assert [r.status_code for r in created] == [201] * 20
    first, last = quotas(created[0]), quotas(created[-1])
    assert first["create-address-60s"][:3] == (20, 60, 19) and first["create-address-3600s"][:3] == (200, 3600, 199)
    assert first["write-address-60s"][:3] == (600, 60, 599)
    assert last["create-address-60s"][2] == 0
    assert_refused(client.post("/games", json={"seats": 2}), "create-address-60s")


def test_a_table_at_one_address_playing_faster_than_people_do_stays_within_the_defaults(limited):
    # five people at one address (a household behind one router): create, seat, start, 60 moves in
    # a few seconds, far faster than a table plays; every answer says what is left
    game = ApiGame(limited(), seats=5, seed=None).join_all(5).start().moves(60)
    assert game.last["status"] in ("playing", "finished")


def test_limits_are_checked_when_the_service_starts():
    with pytest.raises(ValueError, match="COSMIC_LIMIT_WRITE_TOKEN"):
        Settings.from_env({"COSMIC_LIMIT_WRITE_TOKEN": "lots"})
    with pytest.raises(ValueError, match="COSMIC_TRUSTED_PROXIES"):
        Settings.from_env({"COSMIC_TRUSTED_PROXIES": "-1"})
    assert Settings.from_env({"COSMIC_LIMIT_FORK_TOKEN": "none"}).limit_fork_token == "none"
    assert {rule.setting for rule in RULES} == set(LIMIT_FIELDS)


# --- creation, per token and per address ------------------------------------------------------------

def test_creation_beyond_the_address_quota_is_refused_with_retry_after_and_the_headers(limited):
    client = limited(limit_create_address="3 per minute")
    for left in (2, 1, 0):
        made = client.post("/games", json={"seats": 2})
        assert made.status_code == 201 and quotas(made)["create-address-60s"][:3] == (3, 60, left)
    refused = client.post("/games", json={"seats": 2})
    wait = assert_refused(refused, "create-address-60s")
    assert wait <= 60 and "COSMIC_LIMIT_CREATE_ADDRESS" in refused.json["detail"]
    # another address has its own quota; the refused one is not counted (no fourth game exists)
    assert client.post("/games", json={"seats": 2}, environ_base=at("192.0.2.7")).status_code == 201
    assert client.get("/games", query_string={"limit": 10}, headers=ADMIN).json["total"] == 4


def test_creation_beyond_the_token_quota_is_refused_from_any_address(limited):
    client = limited(limit_create_token="2 per minute")
    token = bearer("a-client-key")
    for n in range(2):
        assert client.post("/games", json={"seats": 2}, headers=token, environ_base=at(f"198.51.100.{n}")).status_code == 201
    assert_refused(client.post("/games", json={"seats": 2}, headers=token, environ_base=at("198.51.100.9")),
                   "create-token-60s")
    assert client.post("/games", json={"seats": 2}, headers=bearer("another-key")).status_code == 201
    assert client.post("/games", json={"seats": 2}).status_code == 201  # no token: the address quota alone


def test_a_token_is_counted_by_its_digest_never_by_itself(limited, redis_client, key_prefix):
    client = limited(limit_create_token="5 per minute")
    secret = "a-very-recognisable-token-4711"
    assert client.post("/games", json={"seats": 2}, headers=bearer(secret)).status_code == 201
    limiter = client.application.extensions["cosmic.limiter"]
    if hasattr(limiter.storage, "storage") and isinstance(limiter.storage.storage, dict):
        keys = [str(k) for k in limiter.storage.storage]  # in memory (the embedded mode)
    else:
        keys = [k.decode() for k in redis_client.scan_iter(match=f"{key_prefix}:limits:*")]
    assert keys and not [k for k in keys if secret in k]
    assert [k for k in keys if hashlib.sha256(secret.encode()).hexdigest()[:32] in k]


# --- forks, webhooks and writes ---------------------------------------------------------------------

def test_forks_of_a_finished_game_beyond_the_quota_are_refused(limited, runtime, seated):
    # a day's window: forks of a long game take seconds, and hits that straddle a window's edge are
    # weighed by the sliding window (a third within a minute may then pass)
    client = limited(limit_fork_token="2 per day")
    done = seated("done", recorded_commands("limits-done", commands=10**6, players=2))
    assert done.state["status"] == "finished"
    for _ in range(2):
        assert client.post("/games/done/fork", headers=done.as_("red")).status_code == 201
    assert_refused(client.post("/games/done/fork", headers=done.as_("red")), "fork-token-86400s")
    assert client.post("/games/done/fork", headers=done.as_("blue")).status_code == 201  # each seat its own
    assert client.post("/games/done/fork", headers=ADMIN).status_code == 201  # the admin is never limited


def test_webhook_subscriptions_beyond_the_quota_are_refused(limited, runtime, seated):
    client = limited(limit_webhook_address="2 per minute", webhook_allow_private=True)
    game = seated("hooked", recorded_commands("limits-hooks", commands=5, players=3))
    for colour in ("red", "blue"):
        made = client.post("/webhooks", json={"url": "http://127.0.0.1:9/x", "game_id": "hooked"},
                           headers=game.as_(colour))
        assert made.status_code == 201, made.json
    assert_refused(client.post("/webhooks", json={"url": "http://127.0.0.1:9/x", "game_id": "hooked"},
                               headers=game.as_("yellow")), "webhook-address-60s")


def test_actions_and_other_writes_share_the_write_quota_of_a_token(limited, runtime, seated):
    client = limited(limit_write_token="3 per minute")
    game = seated("w", recorded_commands("limits-writes", commands=5, players=3))
    owed = client.get("/games/w/prompts", headers=game.as_("red"))
    assert "RateLimit" not in owed.headers  # reads are not rate-limited
    answers = [client.post("/games/w/actions", json={"action": "no-such-thing"}, headers=game.as_("red"))
               for _ in range(2)]
    answers.append(client.post("/games/w/rewind", json={"to_version": 1}, headers=game.as_("red")))
    assert [a.status_code for a in answers] != [429] * 3 and all(a.status_code != 429 for a in answers)
    assert [quotas(a)["write-token-60s"][2] for a in answers] == [2, 1, 0]
    assert_refused(client.post("/games/w/actions", json={"action": "pass"}, headers=game.as_("red")),
                   "write-token-60s")
    assert client.post("/games/w/actions", json={"action": "nothing"}, headers=game.as_("blue")).status_code != 429


def test_the_admin_is_never_limited(limited, runtime):
    client = limited(limit_create_token="1 per minute", limit_create_address="1 per minute",
                     limit_write_token="1 per minute", limit_write_address="1 per minute")
    for _ in range(15):
        made = client.post("/games", json={"seats": 2}, headers=ADMIN)
        assert made.status_code == 201 and "RateLimit" not in made.headers
    assert client.post("/games", json={"seats": 2}).status_code == 201
    assert_refused(client.post("/games", json={"seats": 2}), "create-address-60s")


# --- who the address is ----------------------------------------------------------------------------

def test_a_forwarded_header_is_believed_only_behind_trusted_proxies(limited):
    direct = limited(limit_create_address="1 per minute")
    assert direct.post("/games", json={"seats": 2}, headers={"X-Forwarded-For": "203.0.113.1"}).status_code == 201
    forged = direct.post("/games", json={"seats": 2}, headers={"X-Forwarded-For": "203.0.113.2"})
    assert_refused(forged, "create-address-60s")  # the peer address counts, whatever the header says

    proxied = limited(limit_create_address="1 per minute", trusted_proxies=1)
    for client_address in ("203.0.113.1", "203.0.113.2"):
        hop = {"X-Forwarded-For": f"10.9.9.9, {client_address}"}  # the proxy appends the address it saw
        assert proxied.post("/games", json={"seats": 2}, headers=hop, environ_base=at("10.0.0.2")).status_code == 201
    again = proxied.post("/games", json={"seats": 2}, headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.2"},
                         environ_base=at("10.0.0.2"))
    assert_refused(again, "create-address-60s")  # a client can prepend hops, not choose the one the proxy adds


def test_an_ipv6_client_is_counted_by_its_64_network(limited):
    client = limited(limit_create_address="2 per minute")
    assert client.post("/games", json={"seats": 2}, environ_base=at("2001:db8:0:1::1")).status_code == 201
    assert client.post("/games", json={"seats": 2}, environ_base=at("2001:db8:0:1::beef")).status_code == 201
    refused = client.post("/games", json={"seats": 2}, environ_base=at("2001:db8:0:1:ffff::9"))
    assert_refused(refused, "create-address-60s")
    assert client.post("/games", json={"seats": 2}, environ_base=at("2001:db8:0:2::1")).status_code == 201


# --- shared by every process, and when the counters fail -----------------------------------------------

def test_counters_that_do_not_answer_fall_back_to_counting_in_memory(limited, monkeypatch):
    client = limited(limit_create_address="2 per minute")
    storage = client.application.extensions["cosmic.limiter"].storage

    def down(*args, **kwargs):
        raise redis.ConnectionError("the counters' Redis is down")
    for name in ("acquire_sliding_window_entry", "get_sliding_window"):
        monkeypatch.setattr(storage, name, down)
    monkeypatch.setattr(storage, "check", lambda: False)
    answers = [client.post("/games", json={"seats": 2}) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]  # served, and still limited
    assert_refused(answers[-1], "create-address-60s")


def test_requests_in_flight_when_the_counters_fail_are_served_too(limited, monkeypatch):
    """Served on gevent, many requests are inside the counters' Redis at once when it dies: the first to
    fail switches the limiter to memory, the others fail after the switch. They are served (logged)."""
    client = limited()
    limiter = client.application.extensions["cosmic.limiter"]
    storage = limiter.storage

    def down_after_another_request_noticed(*args, **kwargs):
        limiter._storage_dead = True  # what the greenlet that failed first did meanwhile
        raise redis.ConnectionError("the counters' Redis is down")
    monkeypatch.setattr(storage, "acquire_sliding_window_entry", down_after_another_request_noticed)
    monkeypatch.setattr(limiter, "_storage_dead", False)
    answer = client.post("/games", json={"seats": 2})
    assert answer.status_code == 201, answer.get_json()


def test_two_apps_on_one_redis_share_the_counters(limited, redis_client):
    if "fakeredis" in type(redis_client).__module__:
        pytest.skip("the embedded mode is one process: its counters are in memory (real-Redis variant only)")
    one, two = limited(limit_create_address="2 per minute"), limited(limit_create_address="2 per minute")
    assert one.post("/games", json={"seats": 2}).status_code == 201
    assert two.post("/games", json={"seats": 2}).status_code == 201
    assert_refused(one.post("/games", json={"seats": 2}), "create-address-60s")
    assert_refused(two.post("/games", json={"seats": 2}), "create-address-60s")


# --- players registered ---------------------------------------------------------------------------------

def test_registering_players_beyond_the_address_quota_is_refused(limited):
    client = limited(limit_player_address="3 per minute")
    made = [client.post("/players", json={"name": f"p{k}"}) for k in range(3)]
    assert [r.status_code for r in made] == [201] * 3
    assert quotas(made[0])["player-address-60s"][:3] == (3, 60, 2)
    assert_refused(client.post("/players", json={"name": "one more"}), "player-address-60s")
    assert client.post("/players", json={"name": "elsewhere"}, environ_base=at("192.0.2.9")).status_code == 201
