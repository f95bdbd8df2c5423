"""How late do decision timers fire? The lateness distribution in both modes of the service.

    .venv/bin/python bench/timers.py                                           # embedded only
    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/timers.py       # embedded and redis
    .venv/bin/python bench/timers.py --modes embedded --games 20 --timers 300

For each mode it starts the service as users run it: ``cosmic serve`` without REDIS_URL
(embedded: fakeredis, the worker threads in the web process, a fresh data folder), or
gunicorn and ``cosmic worker`` on REDIS_URL under a fresh key prefix (deleted at the end).
It creates ``--games`` three-seat games with ``decision_seconds`` = 5 (the shortest the
option allows), seats them by HTTP and starts them. Nobody answers anything, so every
decision's deadline passes and a timer applies its default, which opens the next decision
with a new deadline: timers keep firing until ``--timers`` of them have, or ``--seconds``
pass. The games are started a fraction of a second apart, so their deadlines spread out.

The lateness of a timer is the time it applied its default (the ``time`` of the
``DecisionTimedOut`` event, stamped by the timer job when it ran) minus the decision's
deadline. The deadline is read from the state folded from the admin's export of the game
up to the event before (``state["clock"]``), so nothing but the public API and the engine
is used. The clock thread of the worker sleeps until the earliest deadline (workers/timekeeper.py),
so a timer is late by what firing it takes (reading the game, deciding, appending), not by up to
a whole second as when timers were jobs of RQ's scheduler (which counts whole seconds).

Prints, per mode: how many timers fired, min / median / p90 / p99 / max lateness in ms,
and how many were more than 2 s and 5 s late; then one JSON line with every figure.
Nothing asserts on these numbers (tests never assert on time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.exports import lateness  # noqa: E402
from bench.gunicorn_service import stop_group  # noqa: E402
from workers.settings import ENV_NAMES, LIMIT_FIELDS  # noqa: E402

BIN = Path(sys.executable).parent
ADMIN_TOKEN = "bench-timers-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
DECISION_SECONDS = 5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Service:
    """The processes of one mode, stopped (and, on Redis, their keys deleted) by `stop`."""

    def __init__(self, mode: str):
        self.mode = mode
        self.processes: list[subprocess.Popen] = []
        self.folder = Path(tempfile.mkdtemp(prefix=f"bench-timers-{mode}-"))
        self.prefix = f"bench-timers-{uuid.uuid4().hex[:10]}"
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "COSMIC_ADMIN_TOKEN": ADMIN_TOKEN,  # games made from one address: roomy quotas
               **{ENV_NAMES[name]: "1000000 per minute" for name in LIMIT_FIELDS}}
        if mode == "embedded":
            env.pop("REDIS_URL", None)
            env["COSMIC_DATA_DIR"] = str(self.folder / "data")
            self._start([str(BIN / "cosmic"), "serve", "--port", str(port)], env, "serve")
        else:
            env["COSMIC_PREFIX"] = self.prefix
            self._start([str(BIN / "gunicorn"), "--worker-class", "gthread", "--workers", "2", "--threads", "8",
                         "--bind", f"127.0.0.1:{port}", "--timeout", "60", "app.wsgi:app"], env, "web")
            self._start([str(BIN / "cosmic"), "worker", "--name", f"{self.prefix}-worker"], env, "worker")
        self._wait_healthy()

    def _start(self, command: list[str], env: dict, name: str) -> None:
        log = (self.folder / f"{name}.log").open("w")
        self.processes.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                               start_new_session=True))

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        self.stop()
        raise SystemExit(f"the {self.mode} service did not start; see {self.folder}")

    def stop(self) -> None:
        for process in self.processes:
            stop_group(process)
        if self.mode == "redis":
            import redis

            from workers.queues import purge
            client = redis.Redis.from_url(os.environ["REDIS_URL"])
            for key in client.scan_iter(match=f"{self.prefix}*", count=1000):
                client.delete(key)
            purge(client, self.prefix)
            client.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def open_games(base: str, count: int, spread: float) -> list[str]:
    """Create, seat and start ``count`` three-seat games with 5-second decisions, ``spread`` seconds apart."""
    ids = []
    session = requests.Session()
    for _ in range(count):
        created = session.post(f"{base}/games", json={"seats": 3, "options": {"decision_seconds": DECISION_SECONDS}},
                               timeout=30)
        created.raise_for_status()
        game_id = created.json()["id"]
        for k in range(3):
            session.post(f"{base}/games/{game_id}/players", json={"name": f"p{k}"}, timeout=30).raise_for_status()
        session.post(f"{base}/games/{game_id}/start", headers=ADMIN, timeout=30).raise_for_status()
        ids.append(game_id)
        time.sleep(spread)
    return ids


def timed_out_count(base: str, game_ids: list[str]) -> int:
    """How many DecisionTimedOut events the games have now."""
    total = 0
    for game_id in game_ids:
        after = 0
        while True:
            page = requests.get(f"{base}/games/{game_id}/events", params={"after": after, "limit": 1000},
                                timeout=30).json()
            total += sum(1 for e in page["events"] if e["type"] == "DecisionTimedOut")
            after = page["next_after"]
            if not page["more"]:
                break
    return total


def percentile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def measure(mode: str, games: int, timers: int, seconds: float) -> dict:
    service = Service(mode)
    try:
        started = time.monotonic()
        game_ids = open_games(service.base, games, spread=DECISION_SECONDS / max(games, 1))
        while time.monotonic() - started < seconds:
            time.sleep(2)
            count = timed_out_count(service.base, game_ids)
            print(f"  {mode}: {count} timers fired after {time.monotonic() - started:.0f} s", file=sys.stderr)
            if count >= timers:
                break
        late = [ms for game_id in game_ids for ms in lateness(service.base, game_id, ADMIN)]
    finally:
        service.stop()
    if not late:
        return {"mode": mode, "timers": 0}
    return {"mode": mode, "games": games, "timers": len(late), "min_ms": min(late),
            "median_ms": int(statistics.median(late)), "p90_ms": percentile(late, 0.90),
            "p99_ms": percentile(late, 0.99), "max_ms": max(late),
            "over_2s": sum(1 for ms in late if ms > 2000), "over_5s": sum(1 for ms in late if ms > 5000),
            "early": sum(1 for ms in late if ms < 0)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", nargs="+", choices=("embedded", "redis"),
                        default=["embedded", "redis"] if os.environ.get("REDIS_URL") else ["embedded"])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--timers", type=int, default=300, help="stop once this many timers fired (default 300)")
    parser.add_argument("--seconds", type=float, default=300, help="stop after this long at most (default 300)")
    args = parser.parse_args(argv)
    if "redis" in args.modes and not os.environ.get("REDIS_URL"):
        parser.error("the redis mode needs REDIS_URL")
    results = []
    for mode in args.modes:
        print(f"{mode}: {args.games} games, 5-second decisions nobody answers ...", file=sys.stderr)
        results.append(measure(mode, args.games, args.timers, args.seconds))
    print(f"{'mode':<10}{'timers':>8}{'min':>8}{'median':>8}{'p90':>8}{'p99':>8}{'max':>8}{'>2s':>6}{'>5s':>6}"
          "   (lateness, ms)")
    for r in results:
        if r["timers"]:
            print(f"{r['mode']:<10}{r['timers']:>8}{r['min_ms']:>8}{r['median_ms']:>8}{r['p90_ms']:>8}{r['p99_ms']:>8}"
                  f"{r['max_ms']:>8}{r['over_2s']:>6}{r['over_5s']:>6}")
        else:
            print(f"{r['mode']:<10}       0   (no timer fired)")
    print(json.dumps({"timer_lateness": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
