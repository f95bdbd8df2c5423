"""The service as shipped, for the benches that measure it over HTTP: gunicorn and one `cosmic worker`.

`Service` starts both on a Redis under a fresh key prefix (with the admin token and the rate limits
the bench gives), waits for ``/health``, and on `stop` ends both process groups and deletes every
key it made, RQ's included. bench/feedload.py and bench/mobile.py use it; it imports neither
gevent nor the app, so a threaded bench and a gevent-patched one can both load it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_group(process: subprocess.Popen, grace: float = 10) -> None:
    """End a process started with ``start_new_session``, and its children: SIGTERM to its group, SIGKILL
    after ``grace`` seconds (a group already gone is fine)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(grace)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        except ProcessLookupError:
            pass


class Service:
    """gunicorn (as shipped: gunicorn.conf.py) and one `cosmic worker` on ``redis_url`` under a fresh prefix."""

    def __init__(self, redis_url: str, folder: Path, name: str, env: dict[str, str]):
        self.redis_url, self.folder = redis_url, folder
        self.prefix = f"{name}-{uuid.uuid4().hex[:8]}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "REDIS_URL": redis_url, "COSMIC_PREFIX": self.prefix,
                    "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"), **env}
        self.processes: list[subprocess.Popen] = []

    def start(self) -> Service:
        self._start("web", [str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{self.port}", "--access-logfile",
                            "/dev/null", "app.wsgi:app"])
        self._start("worker", [str(BIN / "cosmic"), "worker", "--name", f"{self.prefix}-worker"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError("gunicorn did not become healthy: " + (self.folder / "web.log").read_text()[-2000:])

    def _start(self, name: str, command: list[str]) -> None:
        log = (self.folder / f"{name}.log").open("w")
        self.processes.append(subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                               start_new_session=True))

    def api_pids(self) -> list[int]:
        """The gunicorn worker processes (children of the master)."""
        master = self.processes[0].pid
        children = Path(f"/proc/{master}/task/{master}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def stop(self) -> None:
        """End both process groups (SIGTERM, then SIGKILL after 10 s) and delete the prefix's keys."""
        import redis

        from workers.queues import purge
        for process in self.processes:
            stop_group(process)
        client = redis.Redis.from_url(self.redis_url)
        try:
            keys = list(client.scan_iter(match=f"{self.prefix}*", count=1000))
            for start in range(0, len(keys), 500):
                client.delete(*keys[start:start + 500])
            purge(client, self.prefix)
        finally:
            client.close()
