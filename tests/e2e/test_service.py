"""End to end: gunicorn and an RQ worker as real processes on real Redis; complete games over HTTP.

Runs when REDIS_URL is set (under a key prefix of its own, cleaned up afterwards); skipped
otherwise. Plays three complete games with one HTTP client per seat, then refolds every
game's stream from event 1 and compares it with the board the API serves.
"""

from __future__ import annotations

import time

import pytest
import requests

import engine
from app.simulate_api import simulate_via_api
from events.envelope import verify_chain
from events.store import EventStore
from projections import views

pytestmark = pytest.mark.e2e
ADMIN_TOKEN = "e2e-admin-token"  # the `service_processes` fixture's (tests/conftest.py)


@pytest.fixture
def service(service_processes):
    """gunicorn (gthread) and `cosmic worker` on REDIS_URL (or, [cluster], a Redis Cluster with RQ on
    RQ_REDIS_URL) under this test's prefix; yields the base URL."""
    return service_processes()


def test_complete_games_over_http_refold_to_the_served_boards(service, service_processes, key_prefix):
    summary = simulate_via_api(service, games=3, players=3, seed=29, admin_token=ADMIN_TOKEN)
    assert summary["errors"] == 0, summary["examples"]
    assert summary["invariant_violations"] == 0, summary["examples"]
    assert summary["finished"] == 3

    games = requests.get(f"{service}/games", params={"status": "finished"}, timeout=10).json()["games"]
    assert len(games) == 3
    client = service_processes.data_client()
    store = EventStore(client, prefix=key_prefix)
    for game in games:
        events = list(store.iter_all(game["id"]))
        assert verify_chain(events, game["id"]) == store.version(game["id"])
        served = requests.get(f"{service}/games/{game['id']}", timeout=10)
        assert served.headers["ETag"] == f'"{len(events)}"'
        assert served.json() == views.board(engine.fold(events))
    client.close()


def test_the_worker_snapshots_finished_games_and_the_feed_works(service, service_processes, key_prefix):
    simulate_via_api(service, games=1, players=2, seed=31, options={"honeymoon": True}, admin_token=ADMIN_TOKEN)
    game = requests.get(f"{service}/games", params={"status": "finished"}, timeout=10).json()["games"][0]
    client = service_processes.data_client()
    store = EventStore(client, prefix=key_prefix)
    from projections.snapshots import SnapshotStore
    snapshots = SnapshotStore(store)
    head = store.version(game["id"])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the worker's refresh_snapshot job brings the snapshot to the end
        latest = snapshots.latest(game["id"])
        if latest is not None and latest.version == head:
            break
        time.sleep(0.2)
    assert latest is not None and latest.version == head
    assert latest.state == engine.fold(store.iter_all(game["id"]))
    feed = requests.get(f"{service}/games/{game['id']}/stream", params={"after": head - 5}, timeout=30)
    assert feed.headers["Content-Type"].startswith("text/event-stream")
    assert "event: GameEnded" in feed.text and feed.text.rstrip().endswith("data: {}")
    client.close()
    # the worker container's health check (docker-compose.yml) finds this worker alive
    import subprocess
    import sys
    checked = subprocess.run([sys.executable, "-m", "workers.health"], capture_output=True, text=True,
                             env=service_processes.env)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_an_idle_live_feed_stays_open_with_keep_alives_at_production_settings(service_processes):
    """15.1: with the default keep-alive (15 s) and the Redis client the install resolves, a feed of a
    game where nobody acts stays open past Redis-py's 5 s socket timeout and gets keep-alives."""
    from workers.settings import Settings

    assert Settings().sse_keepalive == 15.0  # the production setting, not shortened for the test
    base = service_processes(worker=False)
    game = requests.post(f"{base}/games", json={"seats": 2}, timeout=10).json()["id"]
    started = time.monotonic()
    received = []
    with requests.get(f"{base}/games/{game}/stream", params={"timeout": 22}, stream=True, timeout=40) as feed:
        assert feed.status_code == 200
        for line in feed.iter_lines(decode_unicode=True):
            received.append((round(time.monotonic() - started, 1), line))
    lasted = time.monotonic() - started
    keepalives = [t for t, line in received if line == ": keep-alive"]
    # held open longer than the keep-alive wait (not cut at Redis' 5 s socket timeout), with a keep-alive
    assert lasted > Settings().sse_keepalive, received
    assert keepalives and keepalives[0] > 5, received
