"""Many games at once: the service on a single Redis and on a 3-node Redis Cluster, under load.

    .venv/bin/python bench/load.py                                   # N = 10, 100, 1000 on both back-ends
    .venv/bin/python bench/load.py --games 10 100 --backends cluster --seconds 30 45
    .venv/bin/python bench/load.py --games --capacity-games 100      # only the bot capacity of one worker

For each back-end and each N it starts, on loopback ports free at the time and in a fresh
temporary folder, the back-end itself from the machine's ``redis-server`` (``single``: one
plain Redis holding the games and RQ's queues; ``cluster``: a 3-master Redis Cluster for the
games and a plain Redis for RQ, see `tests.rediscluster`), then gunicorn as shipped (gunicorn.conf.py: gevent workers)
and 2 ``cosmic worker`` processes on it, exactly as deployed, each worker exporting its metrics
on a port of its own. It opens N three-seat games with ``decision_seconds`` = 5: two bot seats
(the workers play them) and one seat played over HTTP by a pool of client threads. In every
fifth game the HTTP player never answers, so its decisions time out and the timers fire. Each
HTTP player makes at most ``--actions`` actions (fewer per game at higher N) and the run ends
after its ``--seconds`` budget whatever is left. A thread asks ``/health`` five times a second
meanwhile.

Prints per run, and as a table at the end (markdown, with each figure's growth against the
smallest N of the same back-end):

- HTTP actions/s (POST /actions answered 200) and events/s (every event appended: the HTTP
  players', the bots', the timers');
- p50 / p99 latency of the HTTP actions in ms, and p99 of ``/health``;
- timer lateness p50 / p99 / max in ms (when a timed-out decision's default was applied, minus
  its deadline, over up to 60 games, those whose player never answers first: read from the
  admin export, folded; an HTTP player's decision times out too when the clients fall behind);
- bot moves per second of each worker (its ``cosmic_bot_moves_total`` over the play, read from
  its metrics), which at these N follows the HTTP players' pace, not the worker's capacity;
- Redis memory per game: ``MEMORY USAGE`` summed over a sample game's keys (the game's own
  data, whatever else the server holds), averaged over up to 20 games;
- the machine's 1-minute load average at the run's start and end (on a shared machine, other
  work shows there and inflates the latencies).

Then, per back-end, the bots' capacity (``--capacity-games``, 0 for none): one worker alone
with that many games of four bots each (no HTTP player, no deadline), its moves per second
over ``--capacity-seconds``, and its moves per second of its own CPU time (what it would do
with a core to itself; on a loaded machine it gets a fraction of one).

Loopback only; nothing asserts on these numbers. The processes and servers are stopped and the
folder removed at the end of each run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.exports import lateness  # noqa: E402
from bench.gunicorn_service import stop_group  # noqa: E402
from engine.players import random_command  # noqa: E402
from tests.rediscluster import LocalCluster, Node, _free_ports, available  # noqa: E402
from workers.connections import connect  # noqa: E402
from workers.settings import ENV_NAMES, LIMIT_FIELDS  # noqa: E402

BIN = Path(sys.executable).parent
ADMIN_TOKEN = "bench-load-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
DECISION_SECONDS = 5
IDLE_EVERY = 5  # every fifth game's HTTP player never answers: its decisions time out
SECONDS = {10: 45, 100: 60, 1000: 90}
ACTIONS = {10: 60, 100: 20, 1000: 4}
LATENESS_GAMES = 60  # games whose timers are read back (idle ones first)
HEALTH_EVERY = 0.2   # seconds between two /health requests during play


# --- back-ends and service processes ----------------------------------------------------------------

class Backend:
    """The Redis side of a run: a plain server, or a cluster with its queue server."""

    def __init__(self, kind: str, folder: Path):
        self.kind, self.folder = kind, folder
        if kind == "cluster":
            self.cluster = LocalCluster(folder / "cluster").start()
            self.env = {"REDIS_URL": self.cluster.url, "RQ_REDIS_URL": self.cluster.queue_url}
        else:
            port, _ = _free_ports(2)
            self.node = Node(port, 0, folder / "redis", cluster=False)
            self.node.start()
            self.node.wait_up()
            self.env = {"REDIS_URL": f"redis://127.0.0.1:{port}/0"}

    def stop(self) -> None:
        (self.cluster if self.kind == "cluster" else self.node).stop()


ROOMY_LIMITS = {ENV_NAMES[name]: "1000000 per minute" for name in LIMIT_FIELDS}


class Service:
    """gunicorn (as shipped) and ``workers`` `cosmic worker`s on a back-end, under a fresh prefix."""

    def __init__(self, backend: Backend, folder: Path, workers: int = 2):
        self.prefix = f"bench-{uuid.uuid4().hex[:8]}"
        self.env = {**os.environ, **backend.env, "COSMIC_PREFIX": self.prefix, "COSMIC_ADMIN_TOKEN": ADMIN_TOKEN,
                    **ROOMY_LIMITS}  # every HTTP player shares one address: quotas counted, never reached
        self.folder, self.processes = folder, []
        port, *metric_ports = _free_ports(1 + workers)
        # gunicorn as shipped: gunicorn.conf.py's settings (gevent workers), found in the project folder
        self._start("web", [str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{port}", "app.wsgi:app"])
        for k, metric_port in enumerate(metric_ports):
            self._start(f"worker-{k}", [str(BIN / "cosmic"), "worker", "--name", f"{self.prefix}-w{k}",
                                        "--metrics", f"127.0.0.1:{metric_port}"])
        self.metrics = [f"http://127.0.0.1:{metric_port}/metrics" for metric_port in metric_ports]
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{self.base}/health", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the service did not become healthy: " + self.logs())
            time.sleep(0.3)

    def _start(self, name: str, command: list[str]) -> None:
        log = (self.folder / f"{name}.log").open("w")
        self.processes.append(subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                               start_new_session=True))

    def bot_moves(self) -> list[float]:
        """Each worker's ``cosmic_bot_moves_total`` now."""
        return [metric(url, "cosmic_bot_moves_total") for url in self.metrics]

    def cpu_seconds(self) -> list[float]:
        """Each worker's ``process_cpu_seconds_total`` (prometheus_client's own) now."""
        return [metric(url, "process_cpu_seconds_total") for url in self.metrics]

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-2000:]}" for p in sorted(self.folder.glob("*.log")))

    def stop(self) -> None:
        for process in self.processes:
            stop_group(process, grace=15)


def metric(url: str, name: str) -> float:
    """One unlabelled sample of a Prometheus text page."""
    for line in requests.get(url, timeout=10).text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise RuntimeError(f"{url} has no {name}")


# --- games -----------------------------------------------------------------------------------------

class Seat:
    """The HTTP-played seat of one game."""

    def __init__(self, game_id: str, token: str, idle: bool, budget: int):
        self.game_id, self.token, self.idle, self.left = game_id, token, idle, budget
        self.rng = random.Random(game_id)


def open_games(base: str, count: int, budget: int, threads: int) -> list[Seat]:
    """Create and seat (two bots, one HTTP player) ``count`` games, several at a time, then start them all.

    No clock runs in a lobby: starting the games only once every one is seated keeps the seating of
    a thousand games from filling the timers with decisions nobody could answer yet.
    """
    seats: list[Seat | None] = [None] * count

    def open_one(index: int) -> None:
        session = requests.Session()
        created = session.post(f"{base}/games", json={"seats": 3, "seed": f"load-{index}",
                                                      "options": {"decision_seconds": DECISION_SECONDS}},
                               headers=ADMIN, timeout=60)
        created.raise_for_status()
        game_id = created.json()["id"]
        joined = session.post(f"{base}/games/{game_id}/players", json={"name": "http player"}, timeout=60)
        joined.raise_for_status()
        for k in range(2):
            session.post(f"{base}/games/{game_id}/players", json={"name": f"bot {k}", "bot": "random"},
                         headers=ADMIN, timeout=60).raise_for_status()  # bots: the host's or the admin's to seat
        seats[index] = Seat(game_id, joined.json()["token"], index % IDLE_EVERY == IDLE_EVERY - 1, budget)

    def start(seat: Seat) -> None:
        requests.post(f"{base}/games/{seat.game_id}/start", headers=ADMIN, timeout=60).raise_for_status()

    run_parallel(open_one, range(count), threads)
    run_parallel(start, seats, threads)
    return seats


def open_bot_games(base: str, count: int, threads: int) -> list[str]:
    """Create, seat with four random bots each and start ``count`` games (they play at once)."""
    made: list[str] = []

    def open_one(index: int) -> None:
        session = requests.Session()
        created = session.post(f"{base}/games", json={"seats": 4, "seed": f"bots-{index}"}, headers=ADMIN, timeout=60)
        created.raise_for_status()
        game_id = created.json()["id"]
        for k in range(4):
            session.post(f"{base}/games/{game_id}/players", json={"name": f"bot {k}", "bot": "random"},
                         headers=ADMIN, timeout=60).raise_for_status()  # bots: seated by the host or the admin
        made.append(game_id)

    run_parallel(open_one, range(count), threads)

    def start(game_id: str) -> None:
        requests.post(f"{base}/games/{game_id}/start", headers=ADMIN, timeout=60).raise_for_status()

    run_parallel(start, made, threads)
    return made


def run_parallel(func, items, threads: int) -> None:
    items = list(items)
    lock = threading.Lock()

    def loop():
        while True:
            with lock:
                if not items:
                    return
                item = items.pop()
            func(item)

    pool = [threading.Thread(target=loop) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()


def answer(session, base: str, seat: Seat) -> float | None:
    """One action for the seat if it owes a decision: its latency in ms (None: nothing sent)."""
    headers = {"Authorization": f"Bearer {seat.token}"}
    owed = session.get(f"{base}/games/{seat.game_id}/prompts", headers=headers, timeout=60)
    if owed.status_code != 200 or not owed.json().get("prompts"):
        return None
    prompt = owed.json()["prompts"][0]
    if any(s.get("schema") == "deal" for o in prompt["options"] for s in o["args"].values()):
        return None  # (a deal needs the hand; its timer settles it)
    for _ in range(10):
        command = random_command(None, prompt, seat.rng)
        command.pop("player", None)
        started = time.perf_counter()
        sent = session.post(f"{base}/games/{seat.game_id}/actions", json=command, headers=headers, timeout=60)
        took = (time.perf_counter() - started) * 1000
        if sent.status_code == 200:
            return took
        if sent.status_code not in (400, 409, 422):
            raise RuntimeError(f"action answered {sent.status_code}: {sent.text[:300]}")
        if sent.status_code == 409:
            return None
    return None


def watch_health(base: str, stop: threading.Event, latencies: list[float], errors: list[str]) -> None:
    """Ask /health every `HEALTH_EVERY` seconds until ``stop``; note each answer's latency (ms)."""
    session = requests.Session()
    while not stop.wait(HEALTH_EVERY):
        started = time.perf_counter()
        try:
            answer = session.get(f"{base}/health", timeout=60)
        except requests.RequestException as err:
            errors.append(f"/health: {err}"[:200])
            continue
        latencies.append((time.perf_counter() - started) * 1000)
        if answer.status_code != 200:
            errors.append(f"/health answered {answer.status_code}")


def play(base: str, seats: list[Seat], seconds: float, threads: int) -> dict:
    """HTTP players answer their prompts round robin until their budgets or the time run out."""
    latencies: list[float] = []
    errors = []
    health: list[float] = []
    stop_at = time.monotonic() + seconds
    lock = threading.Lock()

    def client(mine: list[Seat]) -> None:
        session = requests.Session()
        while time.monotonic() < stop_at:
            active = [s for s in mine if not s.idle and s.left > 0]
            if not active:
                return
            for seat in active:
                if time.monotonic() >= stop_at:
                    return
                try:
                    took = answer(session, base, seat)
                except (requests.RequestException, RuntimeError) as err:
                    with lock:
                        errors.append(str(err)[:200])
                    continue
                if took is not None:
                    seat.left -= 1
                    with lock:
                        latencies.append(took)
            time.sleep(0.02)

    pool = [threading.Thread(target=client, args=(seats[k::threads],)) for k in range(threads)]
    done = threading.Event()
    watcher = threading.Thread(target=watch_health, args=(base, done, health, errors))
    started = time.monotonic()
    watcher.start()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    elapsed = time.monotonic() - started
    done.set()
    watcher.join()
    return {"latencies": latencies, "errors": errors, "seconds": elapsed, "health": health}


def versions(base: str, seats: list[Seat], threads: int) -> int:
    """The sum of the games' versions (every event appended)."""
    found = []

    def read(seat):
        answer = requests.get(f"{base}/games/{seat.game_id}", timeout=60)
        found.append(answer.json()["version"] if answer.status_code == 200 else 0)

    run_parallel(read, seats, threads)
    return sum(found)


def memory_per_game(env: dict, prefix: str, seats: list[Seat]) -> float:
    """Mean bytes of ``MEMORY USAGE`` over the keys of up to 20 games (found by their hash tag)."""
    client = connect(env["REDIS_URL"])
    try:
        sample = seats[:: max(1, len(seats) // 20)][:20]
        totals = []
        for seat in sample:
            keys = list(client.scan_iter(match=f"{prefix}:{{{seat.game_id}}}:*", count=1000))
            totals.append(sum(client.memory_usage(key) or 0 for key in keys))
        return statistics.mean(totals) if totals else 0.0
    finally:
        client.close()


def percentile(values, fraction: float):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


# --- one run ---------------------------------------------------------------------------------------

@contextlib.contextmanager
def deployment(kind: str, workers: int = 2):
    """A back-end and the service on it, in a fresh folder; all of it stopped and removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix=f"bench-load-{kind}-"))
    backend = service = None
    try:
        backend = Backend(kind, folder)
        service = Service(backend, folder, workers=workers)
        yield service
    finally:
        if service is not None:
            service.stop()
        if backend is not None:
            backend.stop()
        shutil.rmtree(folder, ignore_errors=True)


def run(kind: str, games: int, seconds: float, actions: int, threads: int) -> dict:
    load_before = os.getloadavg()[0]
    with deployment(kind) as service:
        opened = time.monotonic()
        seats = open_games(service.base, games, actions, threads)
        setup = time.monotonic() - opened
        first = versions(service.base, seats, threads)
        moves_before = service.bot_moves()
        played = play(service.base, seats, seconds, threads)
        moves = [after - before for before, after in zip(moves_before, service.bot_moves(), strict=True)]
        events = versions(service.base, seats, threads) - first
        sample = ([s for s in seats if s.idle] + [s for s in seats if not s.idle])[:LATENESS_GAMES]
        late = [ms for seat in sample for ms in lateness(service.base, seat.game_id, ADMIN, timeout=120)]
        memory = memory_per_game(service.env, service.prefix, seats)
        lat = played["latencies"]
        return {"backend": kind, "games": games, "setup_s": round(setup, 1), "seconds": round(played["seconds"], 1),
                "http_actions": len(lat), "actions_per_s": round(len(lat) / played["seconds"], 1),
                "events_per_s": round(events / played["seconds"], 1),
                "p50_ms": round(percentile(lat, 0.5) or 0, 1), "p99_ms": round(percentile(lat, 0.99) or 0, 1),
                "health_p99_ms": round(percentile(played["health"], 0.99) or 0, 1),
                "timers": len(late), "late_p50_ms": percentile(late, 0.5), "late_p99_ms": percentile(late, 0.99),
                "late_max_ms": max(late) if late else None,
                "moves_per_s_per_worker": [round(m / played["seconds"], 1) for m in moves],
                "memory_per_game_kb": round(memory / 1024, 1), "errors": len(played["errors"]),
                "error_examples": played["errors"][:3],
                "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)]}


def capacity(kind: str, games: int, seconds: float, threads: int) -> dict:
    """One worker alone with ``games`` games of bots: its bot moves per second (see the module docstring)."""
    load_before = os.getloadavg()[0]
    with deployment(kind, workers=1) as service:
        before = service.bot_moves()[0]
        started = time.monotonic()
        open_bot_games(service.base, games, threads)
        opened = time.monotonic()
        moved, cpu = service.bot_moves()[0], service.cpu_seconds()[0]
        time.sleep(seconds)
        after, cpu = service.bot_moves()[0], service.cpu_seconds()[0] - cpu
        elapsed = time.monotonic() - opened
        return {"backend": kind, "bot_games": games, "setup_s": round(opened - started, 1),
                "moves_during_setup": int(moved - before), "seconds": round(elapsed, 1),
                "moves": int(after - moved), "moves_per_s": round((after - moved) / elapsed, 1),
                "worker_cpu_s": round(cpu, 1), "moves_per_cpu_s": round((after - moved) / cpu, 1) if cpu else None,
                "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)]}


def table(rows: list[dict]) -> str:
    """The figures as a markdown table, each against the smallest N of the same back-end."""
    lines = ["| back-end | N | HTTP actions/s | events/s | p50 ms | p99 ms | /health p99 ms | timers | late p50 ms "
             "| late p99 ms | late max ms | moves/s per worker | memory/game KB | p99 x | memory x | load avg |",
             "|" + " --- |" * 16]
    for row in rows:
        base = next(r for r in rows if r["backend"] == row["backend"])
        lines.append(f"| {row['backend']} | {row['games']} | {row['actions_per_s']} | {row['events_per_s']} "
                     f"| {row['p50_ms']} | {row['p99_ms']} | {row['health_p99_ms']} | {row['timers']} "
                     f"| {row['late_p50_ms']} | {row['late_p99_ms']} | {row['late_max_ms']} "
                     f"| {' / '.join(str(m) for m in row['moves_per_s_per_worker'])} "
                     f"| {row['memory_per_game_kb']} | {_ratio(row, base, 'p99_ms')} "
                     f"| {_ratio(row, base, 'memory_per_game_kb')} | {_load(row)} |")
    return "\n".join(lines)


def capacity_table(rows: list[dict]) -> str:
    """The bots' capacity runs as a markdown table."""
    lines = ["| back-end | bot games | seconds | bot moves | moves/s (one worker) | worker CPU s | moves per CPU s "
             "| load avg |",
             "|" + " --- |" * 8]
    lines += [f"| {r['backend']} | {r['bot_games']} | {r['seconds']} | {r['moves']} | {r['moves_per_s']} "
              f"| {r['worker_cpu_s']} | {r['moves_per_cpu_s']} | {_load(r)} |" for r in rows]
    return "\n".join(lines)


def _load(row: dict) -> str:
    """The machine's 1-minute load average at the run's start and end (other work on a shared machine)."""
    return "-".join(str(x) for x in row["load_average"])


def _ratio(row: dict, base: dict, key: str) -> str:
    return f"{row[key] / base[key]:.2f}" if base[key] else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", type=int, default=[10, 100, 1000], help="the N to run (none: skip)")
    parser.add_argument("--backends", nargs="+", choices=("single", "cluster"), default=["single", "cluster"])
    parser.add_argument("--seconds", nargs="+", type=float, help="time budget of each N (default 45/60/90)")
    parser.add_argument("--actions", nargs="+", type=int, help="HTTP actions per game at each N (default 60/20/4)")
    parser.add_argument("--threads", type=int, default=8, help="HTTP client threads")
    parser.add_argument("--capacity-games", type=int, default=100, help="bot-only games for one worker (0: skip)")
    parser.add_argument("--capacity-seconds", type=float, default=30, help="how long the capacity run is measured")
    parser.add_argument("--feeds", nargs="+", type=int, help="then hold this many idle live feeds (bench/feedload.py)")
    args = parser.parse_args(argv)
    if not available():
        raise SystemExit("redis-server and redis-cli are needed (this bench starts its own Redis servers)")
    seconds = args.seconds or [SECONDS.get(n, 60) for n in args.games]
    actions = args.actions or [ACTIONS.get(n, max(4, 600 // n)) for n in args.games]
    rows, capacities = [], []
    for kind in args.backends:
        for n, budget, acts in zip(args.games, seconds, actions, strict=True):
            print(f"{kind}: {n} games, {budget:.0f} s, up to {acts} HTTP actions each ...", file=sys.stderr)
            row = run(kind, n, budget, acts, args.threads)
            print(json.dumps(row), flush=True)
            rows.append(row)
        if args.capacity_games:
            print(f"{kind}: one worker, {args.capacity_games} games of bots, {args.capacity_seconds:.0f} s ...",
                  file=sys.stderr)
            row = capacity(kind, args.capacity_games, args.capacity_seconds, args.threads)
            print(json.dumps(row), flush=True)
            capacities.append(row)
    if rows:
        print(table(rows))
    if capacities:
        print(capacity_table(capacities))
    if args.feeds:  # (gevent's monkey patching stays in that process)
        subprocess.run([sys.executable, str(Path(__file__).with_name("feedload.py")), "--feeds",
                        *map(str, args.feeds)], env={k: v for k, v in os.environ.items() if k != "REDIS_URL"}, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
