"""Fixtures for API tests: the Flask app on fakeredis (and real Redis), and games played through it.

Helpers the API tests share: `ADMIN` and `bearer` (Authorization headers), `problem_type`
(checks a problem document, gives its slug), `whole_log` (every page of a game's event
feed), `sse_messages` (parses a server-sent-events body), `ApiGame` (a game played over HTTP) and `Seated` (a game played from recorded
commands through the runtime, with a token per seat).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml

from app.auth import Tokens
from engine.players import random_command
from tests.workers.games import play
from workers.queues import purge
from workers.runtime import Runtime
from workers.settings import LIMIT_FIELDS, Settings

ADMIN_TOKEN = "test-admin-token"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
PROBLEM = "application/problem+json"
# These tests are not about rate limits (tests/app/test_limits.py is) but create many games and play
# fast from one address: each quota is raised far above what they use, and said so here.
ROOMY_LIMITS = {name: "100000 per minute" for name in LIMIT_FIELDS}


@pytest.fixture
def runtime(redis_client, rq_client, key_prefix):
    """A runtime on this test's Redis backend and key prefix (its RQ keys are purged afterwards)."""
    settings = Settings(prefix=key_prefix, admin_token=ADMIN_TOKEN, snapshot_every=50, checkpoint_every=200,
                        sse_keepalive=0.2, sse_max_seconds=5, **ROOMY_LIMITS)
    built = Runtime(settings, redis_client=redis_client, rq_client=rq_client)
    yield built
    purge(rq_client, key_prefix)


def spec_path(rule: str) -> str:
    """A Flask rule written as an OpenAPI path (``/games/<gid:game_id>`` -> ``/games/{game_id}``)."""
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


@pytest.fixture(scope="session")
def spec() -> dict:
    """The OpenAPI document."""
    return yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


def documented_app(runtime, spec) -> tuple:
    """A Flask app on ``runtime`` and the list of its answers openapi.yaml does not document (to assert empty)."""
    from flask import request

    from app import create_app
    flask_app = create_app(runtime)
    flask_app.testing = True
    undocumented = []

    @flask_app.after_request
    def check_documented(response):
        rule = request.url_rule
        if rule is not None and request.method not in ("HEAD", "OPTIONS"):
            operation = spec["paths"].get(spec_path(rule.rule), {}).get(request.method.lower())
            documented = set((operation or {}).get("responses", {}))
            status = str(response.status_code)
            by_default = response.status_code >= 500 or response.status_code == 414  # what `default` documents
            if status not in documented and not (by_default and "default" in documented):
                undocumented.append(f"{request.method} {rule.rule} -> {status}")
        return response

    return flask_app, undocumented


@pytest.fixture
def app(runtime, spec):
    """The Flask app; every response it gives in a test must be one openapi.yaml documents."""
    flask_app, undocumented = documented_app(runtime, spec)
    yield flask_app
    assert not undocumented, f"responses missing from openapi.yaml: {sorted(set(undocumented))}"


@pytest.fixture
def client(app):
    """A Flask test client."""
    return app.test_client()


def bearer(token: str) -> dict:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


def problem_type(response) -> str:
    """The slug of a problem response (checks it is one)."""
    assert response.mimetype == PROBLEM, (response.status_code, response.data[:300])
    body = response.json
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == response.status_code
    return body["type"].rsplit(":", 1)[-1]


def whole_log(client, game_id: str, headers: dict | None = None, **params) -> list[dict]:
    """Every event of GET /games/{id}/events as ``headers`` may see them, page after page."""
    events, after = [], 0
    while True:
        page = client.get(f"/games/{game_id}/events", query_string={"after": after, "limit": 1000, **params},
                          headers=headers or {}).json
        events += page["events"]
        after = page["next_after"]
        if not page["more"]:
            return events


def sse_messages(text: str) -> list[dict]:
    """The SSE messages of a body: each {"id", "event", "data"} (comments and retry lines dropped)."""
    found = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "event" in fields:
            found.append({"id": fields.get("id"), "event": fields["event"],
                          "data": json.loads(fields["data"]) if "data" in fields else None})
    return found


class ApiGame:
    """A game created, joined and played through the HTTP API (a test client per request)."""

    def __init__(self, client, seats: int = 3, seed: str | None = "api-seed", options: dict | None = None,
                 setup: dict | None = None, ruleset: str | None = None):
        self.client = client
        body = {"seats": seats, "options": options or {}}
        if ruleset is not None:
            body["ruleset"] = ruleset
        if seed is not None:
            body["seed"] = seed
        if setup is not None:
            body["setup"] = setup
        created = client.post("/games", json=body, headers=ADMIN if (seed or setup) else {})
        assert created.status_code == 201, created.json
        self.id = created.json["id"]
        self.host_token = created.json["host_token"]
        self.seed = seed
        self.tokens: dict[str, str] = {}
        self.rng = random.Random(f"api:{seed}")
        self.last = None

    def url(self, path: str = "") -> str:
        """A URL of this game."""
        return f"/games/{self.id}{path}"

    def join_all(self, seats: int) -> ApiGame:
        """Seat ``seats`` players."""
        for k in range(seats):
            joined = self.client.post(self.url("/players"), json={"name": f"player {k}"})
            assert joined.status_code == 201, joined.json
            self.tokens[joined.json["color"]] = joined.json["token"]
        return self

    def start(self) -> ApiGame:
        """Start with the host token."""
        started = self.client.post(self.url("/start"), headers=bearer(self.host_token))
        assert started.status_code == 200, started.json
        self.last = started.json
        return self

    def as_(self, color: str) -> dict:
        """The headers of a seat."""
        return bearer(self.tokens[color])

    def move(self) -> dict | None:
        """One random legal action by a seat that owes a decision; None when the game is over."""
        if self.last["status"] != "playing":
            return None
        color = self.rng.choice(self.last["pending"])["player"]
        owed = self.client.get(self.url("/prompts"), headers=self.as_(color)).json
        prompt = owed["prompts"][0]
        state = None
        if any(s.get("schema") == "deal" for o in prompt["options"] for s in o["args"].values()):
            board, hand = self.client.get(self.url()).json, self.client.get(self.url("/hand"), headers=self.as_(color)).json
            state = {"turn": board["turn"], "ch": board["challenge"], "planets": board["planets"],
                     "players": {c: {"hand": hand["cards"] if c == color else [None] * p["hand_size"]}
                                 for c, p in board["players"].items()}}
        for _ in range(30):
            command = random_command(state, prompt, self.rng)
            command.pop("player")
            answer = self.client.post(self.url("/actions"), json=command, headers=self.as_(color))
            if answer.status_code == 200:
                self.last = answer.json
                return answer.json
            assert answer.status_code in (400, 422), answer.json
        fallback = next(o for o in prompt["options"] if o["action"] in ("pass", "decline") and not o["args"])
        answer = self.client.post(self.url("/actions"), json={"action": fallback["action"]}, headers=self.as_(color))
        assert answer.status_code == 200, answer.json
        self.last = answer.json
        return answer.json

    def moves(self, count: int | None = None) -> ApiGame:
        """Play ``count`` moves (None: to the end)."""
        done = 0
        while (count is None or done < count) and self.move() is not None:
            done += 1
        return self


@pytest.fixture
def api_game(client):
    """``api_game(seats=3, seed=..., moves=0)``: a started game played ``moves`` moves in through the API."""
    def make(seats: int = 3, seed: str | None = "api-seed", moves: int = 0, **options) -> ApiGame:
        return ApiGame(client, seats, seed, **options).join_all(seats).start().moves(moves)
    return make


class Seated:
    """A game played from recorded commands through the runtime (faster than HTTP), with a token per seat."""

    def __init__(self, runtime, game_id: str, commands: list[dict]):
        self.id = game_id
        self.state = play(runtime, game_id, commands)
        table = Tokens(runtime.store)
        self.tokens = {color: table.issue(game_id, color) for color in self.state["order"]}

    def as_(self, color: str) -> dict:
        """The headers of a seat."""
        return bearer(self.tokens[color])


@pytest.fixture
def seated(runtime):
    """``seated("g", commands)``: a game of this app's runtime with a token per seat."""
    return lambda game_id, commands: Seated(runtime, game_id, commands)
