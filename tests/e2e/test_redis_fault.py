"""15.8: the workers ride out a Redis that dies (SIGKILL) in the middle of bot play, by themselves.

Real processes: a redis-server of the test's own on a spare loopback port with its append-only
file on (fsync on every write), gunicorn and `cosmic worker` on it, and a game of four bots that
the worker plays. Redis is killed with SIGKILL while the bots play and started again on the
same files. Nobody restarts the worker: the game must still reach its end, every event served
before the crash must still be there, and the audit of the whole game must be clean.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
import redis
import requests

from tests.conftest import free_port

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's admin token


class OwnRedis:
    """A redis-server with AOF on in a folder of the test's own."""

    def __init__(self, folder):
        self.folder, self.port = folder, free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise AssertionError("the test's redis-server did not start")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def own_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    made = OwnRedis(tmp_path / "redis")
    made.folder.mkdir()
    made.start()
    yield made
    made.stop()


def served_version(base: str, game_id: str) -> int | None:
    try:
        answer = requests.get(f"{base}/games/{game_id}", timeout=5)
    except requests.RequestException:
        return None
    return answer.json()["version"] if answer.status_code == 200 else None


def test_workers_carry_on_by_themselves_after_redis_is_killed_during_bot_play(service_processes, own_redis,
                                                                            key_prefix):
    base = service_processes(env={"REDIS_URL": own_redis.url})
    game = requests.post(f"{base}/games", json={"seats": 4, "seed": "fault"}, headers=ADMIN, timeout=10).json()["id"]
    for k in range(4):
        assert requests.post(f"{base}/games/{game}/players", json={"name": f"Bot {k}", "bot": "random"},
                             headers=ADMIN, timeout=10).status_code == 201
    assert requests.post(f"{base}/games/{game}/start", headers=ADMIN, timeout=10).status_code == 200
    deadline = time.monotonic() + 60
    acknowledged = 0
    while acknowledged < 150:  # let the bots play a while
        assert time.monotonic() < deadline, "the bots did not play"
        acknowledged = max(acknowledged, served_version(base, game) or 0)
        time.sleep(0.05)

    own_redis.kill()
    outage = requests.get(f"{base}/games/{game}", timeout=10)
    assert outage.status_code == 503 and outage.headers.get("Retry-After")
    time.sleep(3)
    own_redis.start()

    deadline = time.monotonic() + 240
    while True:
        board = requests.get(f"{base}/games/{game}", timeout=10)
        if board.status_code == 200 and board.json()["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the game stalled after the outage:\n" + service_processes.logs()
        time.sleep(0.5)
    service_processes.check_running()  # the worker never exited
    final = board.json()["version"]
    assert final > acknowledged

    client = redis.Redis.from_url(own_redis.url)
    from events.envelope import verify_chain
    from events.store import EventStore
    store = EventStore(client, prefix=key_prefix)
    events = list(store.iter_all(game))
    assert len(events) == final and verify_chain(events, game) == final  # nothing acknowledged was lost
    audit = subprocess.run([sys.executable, "-m", "app.cli", "audit", game],
                           env={**os.environ, "REDIS_URL": own_redis.url, "COSMIC_PREFIX": key_prefix},
                           capture_output=True, text=True, timeout=120)
    assert audit.returncode == 0, audit.stdout + audit.stderr
