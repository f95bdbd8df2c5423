"""End to end: `cosmic serve` without REDIS_URL serves on gevent in one process, and the in-process
worker's bursts of bot moves never keep a request waiting (app/serve.py: every append yields).

Under gevent's monkey patching the worker's threads are greenlets, and neither fakeredis (no
sockets) nor the compiled engine ever waits, so without a yield a bot job playing 200 moves
would hold the server for the whole job.
"""

from __future__ import annotations

import time

import pytest
import requests

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's (tests/conftest.py)


@pytest.mark.parametrize("service_processes", ["redis"], indirect=True)
def test_bots_playing_in_the_embedded_worker_never_keep_health_or_a_feed_waiting(service_processes):
    base = service_processes.embedded()
    games = []
    for index in range(3):  # three games of five bots: their jobs play up to 200 moves each, back to back
        game_id = requests.post(f"{base}/games", json={"seats": 5, "seed": f"yield-{index}"}, headers=ADMIN,
                                timeout=30).json()["id"]
        for k in range(5):
            requests.post(f"{base}/games/{game_id}/players", json={"name": f"bot {k}", "bot": "random"},
                          headers=ADMIN, timeout=30).raise_for_status()  # bots: the host's or the admin's
        games.append(game_id)
    with requests.get(f"{base}/games/{games[0]}/stream", params={"timeout": 20}, stream=True, timeout=40) as feed:
        for game_id in games:
            requests.post(f"{base}/games/{game_id}/start", headers=ADMIN, timeout=30).raise_for_status()
        worst, samples = 0.0, 0
        until = time.monotonic() + 12
        while time.monotonic() < until:
            started = time.monotonic()
            assert requests.get(f"{base}/health", timeout=10).status_code == 200
            worst = max(worst, time.monotonic() - started)
            samples += 1
            time.sleep(0.05)
        ids = []
        for line in feed.iter_lines(decode_unicode=True):
            if line.startswith("id: "):
                ids.append(int(line[4:]))
            if len(ids) >= 50:
                break
    versions = [requests.get(f"{base}/games/{game_id}", timeout=10).headers["ETag"] for game_id in games]
    assert all(int(v.strip('"')) > 300 for v in versions), versions  # the bots were busy all along
    assert ids[:50] == sorted(set(ids[:50])) and len(ids) == 50  # the live feed got the moves, in order
    assert samples > 20 and worst < 1.0, (samples, worst)
