"""End to end: hundreds of idle live feeds against gunicorn as shipped, and the service still answers.

Issue 27: with gthread workers 48 idle feeds stopped every route. Here a few hundred feeds (seat
tokens and anonymous, from many loopback addresses) stay open while `/health` and an action
answer promptly, the caps answer 429, and `/metrics` adds up both gunicorn workers.
"""

from __future__ import annotations

import random
import socket
import time

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from engine.players import random_command

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's (tests/conftest.py)
SEATS = 5


def open_feed(port: int, game_id: str, token: str | None = None, source: str = "127.0.0.1") -> tuple[socket.socket, int]:
    """An SSE request on a raw socket, left open without reading past the head; returns it and its status."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: test\r\n{auth}\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(1024)
        if not chunk:
            break
        head += chunk
    return sock, int(head.split(b" ", 2)[1]) if head else 0


def seated_game(base: str, seats: int = SEATS) -> tuple[str, dict[str, str]]:
    """A game (admin-seeded, started) with every seat joined by a token."""
    game_id = requests.post(f"{base}/games", json={"seats": seats, "seed": f"feeds-{seats}"}, headers=ADMIN,
                            timeout=30).json()["id"]
    tokens = {}
    for k in range(seats):
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"p{k}"}, timeout=30).json()
        tokens[joined["color"]] = joined["token"]
    return game_id, tokens


def one_action(base: str, game_id: str, tokens: dict[str, str]) -> tuple[requests.Response, float]:
    """A legal action by a seat that owes one: its answer (the first not refused as malformed) and seconds."""
    rng = random.Random(game_id)
    for token in tokens.values():
        prompts = requests.get(f"{base}/games/{game_id}/prompts", headers={"Authorization": f"Bearer {token}"},
                               timeout=10).json()["prompts"]
        for prompt in prompts:
            if any(s.get("schema") == "deal" for o in prompt["options"] for s in o["args"].values()):
                continue
            for _ in range(20):
                command = random_command(None, prompt, rng)
                command.pop("player", None)
                started = time.monotonic()
                answer = requests.post(f"{base}/games/{game_id}/actions", json=command,
                                       headers={"Authorization": f"Bearer {token}"}, timeout=10)
                if answer.status_code not in (400, 422):
                    return answer, time.monotonic() - started
    raise AssertionError("no seat owed an action it could send")


def test_hundreds_of_idle_feeds_leave_health_and_actions_prompt_and_the_caps_answer_429(service_processes):
    base = service_processes(env={"COSMIC_FEEDS_PER_TOKEN": "2", "COSMIC_FEEDS_PER_ADDRESS": "10"})
    port = int(base.rsplit(":", 1)[1])
    games = [seated_game(base) for _ in range(15)]
    played, played_tokens = games[0]
    requests.post(f"{base}/games/{played}/start", headers=ADMIN, timeout=30).raise_for_status()
    feeds, statuses = [], []
    try:
        for game_id, tokens in games:  # 150 seat feeds: two per token, each token's cap
            for token in tokens.values():
                for _ in range(2):
                    sock, status = open_feed(port, game_id, token)
                    feeds.append(sock)
                    statuses.append(status)
        for index in range(150):  # 150 anonymous feeds from 15 addresses, ten each (their cap)
            sock, status = open_feed(port, games[index % len(games)][0], source=f"127.3.0.{index // 10 + 1}")
            feeds.append(sock)
            statuses.append(status)
        assert statuses.count(200) == 300, {s: statuses.count(s) for s in set(statuses)}

        for _ in range(10):  # with 300 feeds open, /health answers promptly, every time
            started = time.monotonic()
            assert requests.get(f"{base}/health", timeout=5).status_code == 200
            assert time.monotonic() - started < 1.0
        answer, seconds = one_action(base, played, played_tokens)
        assert answer.status_code == 200 and seconds < 2.0

        token = next(iter(games[1][1].values()))
        refused = requests.get(f"{base}/games/{games[1][0]}/stream", headers={"Authorization": f"Bearer {token}"},
                               timeout=10)
        assert refused.status_code == 429 and refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json()["type"].endswith(":rate-limited") and int(refused.headers["Retry-After"]) >= 1
        sock, status = open_feed(port, games[2][0], source="127.3.0.1")  # an address at its cap
        sock.close()
        assert status == 429

        metrics = requests.get(f"{base}/metrics", headers=ADMIN, timeout=10).text
        families = {f.name: f for f in text_string_to_metric_families(metrics)}
        open_now = sum(s.value for s in families["cosmic_feeds_open"].samples)
        assert open_now == 300  # both workers' live gauges, added up (multiprocess mode)
        refused_by = {s.labels["reason"]: s.value for s in families["cosmic_feeds_refused"].samples
                      if s.name.endswith("_total")}
        assert refused_by.get("token") == 1 and refused_by.get("address") == 1
    finally:
        for sock in feeds:
            sock.close()
    deadline = time.monotonic() + 45  # closed feeds free their places (seen at a keep-alive write: 15-30 s)
    while time.monotonic() < deadline:
        answer = requests.get(f"{base}/games/{games[1][0]}/stream", params={"timeout": 0.5},
                              headers={"Authorization": f"Bearer {token}"}, timeout=10)
        if answer.status_code == 200:
            break
        time.sleep(1)
    assert answer.status_code == 200
