"""Rate limits stated (issue 29): every route a quota or a feed cap applies to says so in openapi.yaml, with its 429
(``Retry-After``, the draft's ``RateLimit`` fields), and its answers carry those fields.

Which routes are limited is read from the app itself (`app.limits.RULES`: every ``POST`` and ``DELETE``;
the live feeds: every route answering ``text/event-stream``), not listed here, so a new write route
that the spec does not mark fails this test.
"""

from __future__ import annotations

import re

from app.limits import RULES, WRITE_METHODS
from tests.app.conftest import ADMIN, ApiGame, bearer, spec_path
from tests.app.test_limits import quotas
from workers.settings import ENV_NAMES

LIMIT_HEADERS = {"RateLimit", "RateLimit-Policy"}


def resolve(spec: dict, item: dict) -> dict:
    while "$ref" in item:
        node = spec
        for part in item["$ref"].lstrip("#/").split("/"):
            node = node[part]
        item = node
    return item


def limited_operations(app, spec) -> list[tuple[str, str, str]]:
    """(method, spec path, kind) of every operation a limit applies to: the app's writes and its live feeds."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = spec_path(rule.rule)
        operations = spec["paths"].get(path, {})
        for method in sorted(rule.methods & set(WRITE_METHODS)):
            found.append((method, path, "write"))
        get = operations.get("get") or {}
        if "text/event-stream" in str(get.get("responses", {}).get("200", {})):
            found.append(("GET", path, "feed"))
    return found


def test_every_write_and_every_live_feed_documents_its_429_with_retry_after_and_the_ratelimit_fields(app, spec):
    operations = limited_operations(app, spec)
    assert {("POST", "/players", "write"), ("POST", "/games", "write"), ("GET", "/me/stream", "feed"),
            ("GET", "/games/{game_id}/stream", "feed"), ("DELETE", "/webhooks/{sub_id}", "write")} <= set(operations)
    for method, path, kind in operations:
        responses = spec["paths"][path][method.lower()]["responses"]
        assert "429" in responses, f"{method} {path} does not document its 429"
        refused = resolve(spec, responses["429"])
        assert {"Retry-After", *LIMIT_HEADERS} <= set(refused.get("headers") or {}), f"{method} {path}: 429 headers"
        if kind == "write":
            for status, answer in responses.items():
                if status.startswith("2"):
                    headers = set(resolve(spec, answer).get("headers") or {})
                    assert LIMIT_HEADERS <= headers, f"{method} {path} {status} does not list the RateLimit fields"


def test_every_quota_and_its_setting_is_in_the_specs_limits_table(spec):
    text = spec["info"]["description"]
    table = text[text.index("**Limits.**"):text.index("**Versions.**")]
    for rule in RULES:
        assert re.search(rf"\| `{rule.kind}`", table), f"the quota {rule.kind} is not in the table"
    assert "`feeds`" in table
    readme = open("README.md", encoding="utf-8").read()
    limits = readme[readme.index("**Rate limits**"):]
    for rule in RULES:
        assert re.search(rf"^\| `{rule.kind}` \|", limits, re.M), f"the quota {rule.kind} is not in README's table"
        assert ENV_NAMES[rule.setting] in readme, f"{ENV_NAMES[rule.setting]} is not in README"
    assert re.search(r"^\| `feeds` \|", limits, re.M)


def test_writes_answer_with_the_ratelimit_fields_of_every_quota_that_applied(client):
    player = client.post("/players", json={"name": "Ann"})
    assert set(quotas(player)) == {"player-address-60s", "write-address-60s"}  # no token yet: per address only
    key = player.json["key"]
    created = client.post("/games", json={"seats": 3}, headers=bearer(key))
    assert {"create-token-60s", "create-address-60s", "write-token-60s", "write-address-60s"} <= set(quotas(created))
    game = ApiGame.__new__(ApiGame)
    game.client, game.id, game.tokens = client, created.json["id"], {}
    joined = client.post(game.url("/players"), json={"name": "Ann"}, headers=bearer(key))
    assert {"write-token-60s", "write-address-60s"} <= set(quotas(joined))
    for name, (q, w, r, t) in quotas(joined).items():
        assert 0 <= r < q and 0 <= t <= w, (name, q, w, r, t)
    read = client.get(game.url(), headers=bearer(key))
    assert not LIMIT_HEADERS & set(read.headers)  # reads are not rate-limited
    admin = client.post("/games", json={"seats": 3}, headers=ADMIN)
    assert not LIMIT_HEADERS & set(admin.headers)  # the admin is never limited
