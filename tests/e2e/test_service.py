"""End to end: gunicorn and an RQ worker as real processes on real Redis; complete games over HTTP.

Runs when REDIS_URL is set (under a key prefix of its own, cleaned up afterwards); skipped
otherwise. Plays three complete games with one HTTP client per seat, then refolds every
game's stream from event 1 and compares it with the board the API serves.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

import engine
from app.simulate_api import simulate_via_api
from events.envelope import verify_chain
from events.store import EventStore
from projections import views
from workers.queues import purge

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ADMIN_TOKEN = "e2e-admin-token"
SKIP_REASON = ("REDIS_URL is not set: the end-to-end test starts gunicorn and an RQ worker against a real "
               "Redis (e.g. REDIS_URL=redis://127.0.0.1:6379/13 make test)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen) -> None:
    """Stop a process and everything it started (its own session)."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(5)


def wait_healthy(base: str, processes: list, logs: list[Path], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for process, log in zip(processes, logs, strict=True):
            if process.poll() is not None:
                pytest.fail(f"{process.args[0]} exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if requests.get(f"{base}/health", timeout=1).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    pytest.fail("the service did not become healthy:\n" + "\n".join(log.read_text()[-2000:] for log in logs))


@pytest.fixture
def service(key_prefix, tmp_path):
    """gunicorn (gthread) and `cosmic worker` on REDIS_URL under this test's prefix; yields the base URL."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip(SKIP_REASON)
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "COSMIC_PREFIX": key_prefix, "COSMIC_ADMIN_TOKEN": ADMIN_TOKEN,
           "COSMIC_SNAPSHOT_EVERY": "50", "COSMIC_CHECKPOINT_EVERY": "500"}
    commands = {
        "web": [str(BIN / "gunicorn"), "--worker-class", "gthread", "--workers", "2", "--threads", "8",
                "--bind", f"127.0.0.1:{port}", "--timeout", "60", "app.wsgi:app"],
        "worker": [str(BIN / "cosmic"), "worker", "--name", f"{key_prefix}-worker"],
    }
    processes, logs = [], []
    try:
        for name, command in commands.items():
            log = tmp_path / f"{name}.log"
            logs.append(log)
            processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"),
                                              stderr=subprocess.STDOUT, start_new_session=True))
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, processes, logs)
        yield base
    finally:
        for process in processes:
            stop(process)
        client = redis.Redis.from_url(url)
        purge(client, key_prefix)
        client.close()


def test_complete_games_over_http_refold_to_the_served_boards(service, key_prefix):
    summary = simulate_via_api(service, games=3, players=3, seed=29, admin_token=ADMIN_TOKEN)
    assert summary["errors"] == 0, summary["examples"]
    assert summary["invariant_violations"] == 0, summary["examples"]
    assert summary["finished"] == 3

    games = requests.get(f"{service}/games", params={"status": "finished"}, timeout=10).json()["games"]
    assert len(games) == 3
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    store = EventStore(client, prefix=key_prefix)
    for game in games:
        events = list(store.iter_all(game["id"]))
        assert verify_chain(events, game["id"]) == store.version(game["id"])
        served = requests.get(f"{service}/games/{game['id']}", timeout=10)
        assert served.headers["ETag"] == f'"{len(events)}"'
        assert served.json() == views.board(engine.fold(events))
    client.close()


def test_the_worker_snapshots_finished_games_and_the_feed_works(service, key_prefix):
    simulate_via_api(service, games=1, players=2, seed=31, admin_token=ADMIN_TOKEN)
    game = requests.get(f"{service}/games", params={"status": "finished"}, timeout=10).json()["games"][0]
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
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
