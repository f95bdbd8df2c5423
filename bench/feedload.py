"""Feed load: thousands of idle live feeds against gunicorn + `cosmic worker` on real Redis, and what they cost.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/feedload.py --feeds 1000 5000
    .venv/bin/python bench/feedload.py --feeds 1000 5000     # on a redis-server of its own

For each number of feeds it starts gunicorn (gunicorn.conf.py's settings, as shipped) and one
`cosmic worker` under a fresh key prefix (deleted afterwards), then:

1. creates games: idle ones whose seats are joined by tokens (half the feeds are seat feeds,
   at most ``COSMIC_FEEDS_PER_TOKEN`` per token) and a few seeded games the client plays;
2. measures ``/health`` and ``POST /games/{id}/actions`` with no feed open (the baseline);
3. opens the feeds (gevent in this process; the anonymous half from many loopback source
   addresses, 127.1.x.y, at most ``COSMIC_FEEDS_PER_ADDRESS`` each; a tenth of them follow the
   played games, so their events fan out); then measures again while they stay open, counting
   their keep-alives;
4. prints open feeds, the API processes' memory per open feed (RSS after - before), their Redis
   connections, ``/health`` p50/p99/max, action p50/p99 and the ratio to the baseline, and the
   machine's load average (other work on a shared machine shows there);
5. counts the feeds the server closed while held, by why: ``game ended`` (the feed's last message
   was ``event: end``: one of the played games finished, and a feed ends with its game),
   ``max length`` (the body ended without it: the feed reached ``COSMIC_SSE_MAX_SECONDS``, 300 s,
   which a client resumes with ``Last-Event-ID``), ``dropped`` (the connection closed without the
   body's last chunk: not an answer of the service's). The caps never close an open feed: they
   refuse new ones (429 or 503, counted as refused).

Figures are printed, never asserted. `bench/load.py --feeds N ...` runs this too.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import functools  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
import gevent.lock  # noqa: E402
import requests  # noqa: E402
from gevent.pool import Pool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gunicorn_service import Service, free_port  # noqa: E402
from workers.settings import ENV_NAMES, LIMIT_FIELDS  # noqa: E402

# the games are made from one address, far faster than people make them: quotas counted, never reached
ROOMY_LIMITS = {ENV_NAMES[name]: "1000000 per minute" for name in LIMIT_FIELDS}
BIN = Path(sys.executable).parent
ADMIN_TOKEN = "feedload-admin-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SEATS = 5
PER_TOKEN = 4
PER_ADDRESS = 25
PLAYED_GAMES = 6


@functools.cache
def _service_module():
    """bench/service.py (its seeded games and the commands computed for them, how it stops a server)."""
    spec = importlib.util.spec_from_file_location("bench_service", ROOT / "bench" / "service.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.ADMIN_TOKEN = ADMIN_TOKEN
    return module


def percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1)


class Servers(Service):
    """gunicorn (as shipped) and one `cosmic worker` on REDIS_URL under a fresh prefix, with what the feeds cost."""

    def __init__(self, redis_url: str, folder: Path):
        super().__init__(redis_url, folder, "feedload", {"COSMIC_ADMIN_TOKEN": ADMIN_TOKEN, **ROOMY_LIMITS})

    def api_rss_mb(self) -> float:
        total = 0
        for pid in self.api_pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total / 1024

    def redis_connections(self, redis_port: int) -> int | None:
        """TCP connections from the API processes to Redis (``ss``), or None where it cannot tell."""
        try:
            out = subprocess.run(["ss", "-tnpH", "state", "established", f"( dport = :{redis_port} )"],
                                 capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
        pids = {f"pid={pid}," for pid in self.api_pids()}
        return sum(1 for line in out.splitlines() if any(p in line for p in pids))


# --- games --------------------------------------------------------------------------------------------

def idle_games(base: str, count: int) -> list[tuple[str, list[str]]]:
    """``count`` games of `SEATS` joined seats (not started: nobody acts, no timer runs); their tokens."""
    games = []

    def one(_):
        session = requests.Session()
        game_id = session.post(f"{base}/games", json={"seats": SEATS}, timeout=60).json()["id"]
        tokens = [session.post(f"{base}/games/{game_id}/players", json={"name": f"p{k}"}, timeout=60).json()["token"]
                  for k in range(SEATS)]
        games.append((game_id, tokens))

    Pool(16).map(one, range(count))
    return games


def played_games(base: str, service, actions: int) -> list[dict]:
    """Seeded games with the commands their random players make (computed here), to send while measuring."""
    games = []
    for index in range(PLAYED_GAMES):
        seed = f"feedload-{index}"
        commands, _ = service.script(seed, 3, actions)
        game_id, tokens = service.open_game(base, seed, 3)
        games.append({"id": game_id, "tokens": tokens, "commands": commands, "next": 0})
    return games


# --- feeds --------------------------------------------------------------------------------------------

class Feeds:
    """Idle SSE clients on raw sockets (one greenlet each): count opened, refused, keep-alives and events."""

    def __init__(self, port: int):
        self.port = port
        self.open = self.refused = self.failed = self.keepalives = self.events = 0
        # feeds the server closed, by why: "game ended" (an ``event: end`` came last: its game finished),
        # "max length" (the body ended without one: COSMIC_SSE_MAX_SECONDS passed), "dropped" (the
        # connection closed without the body's last chunk: no answer of the service's own)
        self.closed: dict[str, int] = {}
        self.closed_after: list[float] = []  # seconds each of those feeds had been open
        self.statuses: dict[str, int] = {}
        self.stopping = False
        self.greenlets = []
        self.sockets = []

    def start(self, targets: list[tuple[str, str | None, str]], concurrency: int = 200) -> float:
        """Open one feed per ``(game_id, token or None, source address)``; returns the seconds it took."""
        started = time.monotonic()
        gate = gevent.lock.BoundedSemaphore(concurrency)
        ready = []
        for target in targets:
            ready.append(gevent.event.Event())
            self.greenlets.append(gevent.spawn(self._feed, *target, opened=ready[-1], gate=gate))
        for event in ready:
            event.wait(120)
        return time.monotonic() - started

    def _feed(self, game_id: str, token: str | None, source: str, opened, gate) -> None:
        sock = None
        try:
            with gate:  # at most `concurrency` connecting at once
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=60, source_address=(source, 0))
                auth = f"Authorization: Bearer {token}\r\n" if token else ""
                sock.sendall(f"GET /games/{game_id}/stream HTTP/1.1\r\nHost: bench\r\n{auth}"
                             "Accept: text/event-stream\r\n\r\n".encode())
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = sock.recv(4096)
                    if not chunk:
                        raise ConnectionError("closed before the head")
                    head += chunk
            status = head.split(b" ", 2)[1].decode()
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status != "200":
                self.refused += 1
                opened.set()
                return
            self.open += 1
            self.sockets.append(sock)
            opened.set()
            since = time.monotonic()
            rest = head.partition(b"\r\n\r\n")[2]
            tail = b""  # the last bytes received, so a marker cut between two reads is still seen
            ended = False
            sock.settimeout(None)
            while not self.stopping:
                self.keepalives += rest.count(b": keep-alive")
                self.events += rest.count(b"\nid: ") + rest.startswith(b"id: ")
                tail = (tail + rest)[-64:]
                ended = ended or b"event: end\n" in tail
                rest = sock.recv(65536)
                if not rest:
                    why = "game ended" if ended else "max length" if tail.endswith(b"0\r\n\r\n") else "dropped"
                    self.closed[why] = self.closed.get(why, 0) + 1
                    self.closed_after.append(time.monotonic() - since)
                    break
        except Exception:
            self.failed += 1
            opened.set()

    def stop(self) -> None:
        self.stopping = True
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass
        gevent.killall(self.greenlets, timeout=10)


def targets_for(feeds: int, idle: list[tuple[str, list[str]]], played: list[dict]) -> list[tuple[str, str | None, str]]:
    """Half seat feeds (`PER_TOKEN` per token, idle games), half anonymous (`PER_ADDRESS` per address); a tenth
    of the anonymous ones follow the played games, spread evenly over all of them."""
    seat_feeds = feeds // 2
    out = []
    tokens = [(game_id, token) for game_id, game_tokens in idle for token in game_tokens]
    for index in range(seat_feeds):
        game_id, token = tokens[(index // PER_TOKEN) % len(tokens)]
        out.append((game_id, token, "127.0.0.1"))
    for index in range(feeds - seat_feeds):
        address = f"127.1.{index // PER_ADDRESS // 250}.{index // PER_ADDRESS % 250 + 1}"
        game_id = played[index // 10 % len(played)]["id"] if index % 10 == 0 else idle[index % len(idle)][0]
        out.append((game_id, None, address))
    return out


# --- measuring ----------------------------------------------------------------------------------------

def measure(base: str, played: list[dict], seconds: float) -> dict:
    """``/health`` every 50 ms and the played games' actions one after another, for ``seconds``."""
    health, actions, failures = [], [], 0
    stop_at = time.monotonic() + seconds

    def probe():
        session = requests.Session()
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            try:
                ok = session.get(f"{base}/health", timeout=10).status_code == 200
            except requests.RequestException:
                ok = False
            health.append((time.perf_counter() - started) * 1000 if ok else 10_000.0)
            gevent.sleep(0.05)

    def act():
        nonlocal failures
        session = requests.Session()
        while time.monotonic() < stop_at:
            pending = [g for g in played if g["next"] < len(g["commands"])]
            if not pending:
                return
            for game in pending:
                step = game["commands"][game["next"]]
                game["next"] += 1
                started = time.perf_counter()
                answer = session.post(f"{base}/games/{game['id']}/actions", json=step["body"],
                                      headers={"Authorization": f"Bearer {game['tokens'][step['player']]}"}, timeout=30)
                if answer.status_code == 200:
                    actions.append((time.perf_counter() - started) * 1000)
                else:
                    failures += 1

    gevent.joinall([gevent.spawn(probe), gevent.spawn(act)])
    return {"health_p50_ms": percentile(health, 0.5), "health_p99_ms": percentile(health, 0.99),
            "health_max_ms": round(max(health), 1) if health else None, "health_requests": len(health),
            "actions": len(actions), "action_failures": failures,
            "action_p50_ms": percentile(actions, 0.5), "action_p99_ms": percentile(actions, 0.99)}


def run(feeds: int, redis_url: str, seconds: float) -> dict:
    """One run with ``feeds`` idle feeds; returns its figures."""
    service = _service_module()
    folder = Path(tempfile.mkdtemp(prefix="feedload-"))
    servers = Servers(redis_url, folder).start()
    redis_port = int(redis_url.rsplit(":", 1)[1].split("/")[0]) if redis_url.count(":") >= 2 else 6379
    try:
        tokens_needed = -(-(feeds // 2) // PER_TOKEN)
        idle = idle_games(servers.base, max(1, -(-tokens_needed // SEATS)))
        played = played_games(servers.base, service, actions=1500)
        baseline = measure(servers.base, played, min(seconds, 20))
        rss_before = servers.api_rss_mb()
        connections_before = servers.redis_connections(redis_port)
        load_before = os.getloadavg()[0]
        clients = Feeds(servers.port)
        opened_in = clients.start(targets_for(feeds, idle, played))
        gevent.sleep(2)
        rss_open = servers.api_rss_mb()
        keepalives_before = clients.keepalives
        loaded = measure(servers.base, played, seconds)
        row = {
            "feeds_asked": feeds, "feeds_open": clients.open, "refused": clients.refused, "failed": clients.failed,
            "closed_by_server": sum(clients.closed.values()), "closed_why": clients.closed,
            "closed_after_s": ([round(min(clients.closed_after)), round(max(clients.closed_after))]
                               if clients.closed_after else None),
            "statuses": clients.statuses, "opened_in_s": round(opened_in, 1),
            "api_rss_mb_before": round(rss_before, 1), "api_rss_mb_open": round(rss_open, 1),
            "kb_per_feed": round((rss_open - rss_before) * 1024 / max(1, clients.open), 1),
            "redis_connections_before": connections_before, "redis_connections_open": servers.redis_connections(redis_port),
            "keepalives_during": clients.keepalives - keepalives_before, "feed_events": clients.events,
            "baseline": baseline, **loaded,
            "action_p99_ratio": (round(loaded["action_p99_ms"] / baseline["action_p99_ms"], 2)
                                 if loaded["action_p99_ms"] and baseline["action_p99_ms"] else None),
            "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        }
        clients.stop()
        return row
    finally:
        servers.stop()


def table(rows: list[dict]) -> str:
    lines = ["feeds  open  refused  closed (why)  KB/feed  redis conns  /health p99 (max)  action p50/p99 [no feeds]  "
             "keep-alives  load",
             "-----  ----  -------  ------------  -------  -----------  -----------------  ---------------------------  "
             "-----------  ----"]
    for row in rows:
        base = row["baseline"]
        why = ", ".join(f"{count} {reason}" for reason, count in row["closed_why"].items()) or "none"
        lines.append(f"{row['feeds_asked']:>5}  {row['feeds_open']:>4}  {row['refused']:>7}  {why:<12}  {row['kb_per_feed']:>7}  "
                     f"{row['redis_connections_before']}->{row['redis_connections_open']:<8}  "
                     f"{row['health_p99_ms']} ({row['health_max_ms']}) ms   "
                     f"{row['action_p50_ms']}/{row['action_p99_ms']} ms [{base['action_p50_ms']}/{base['action_p99_ms']}]"
                     f"   {row['keepalives_during']:>9}  {row['load_average']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--feeds", nargs="+", type=int, default=[1000, 5000], help="idle feeds to hold open, per run")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="how long to measure while the feeds are open (past 15 s: keep-alives flow)")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # one socket per feed, in this process too
    own_redis = None
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:  # a throwaway Redis of its own (how `bench/load.py --feeds` runs it)
        own_redis, redis_url = start_redis()
    rows = []
    try:
        for feeds in args.feeds:
            print(f"{feeds} feeds on {redis_url} ...", file=sys.stderr, flush=True)
            row = run(feeds, redis_url, args.seconds)
            print(json.dumps(row), flush=True)
            rows.append(row)
    finally:
        if own_redis is not None:
            own_redis.terminate()
            own_redis.wait(10)
    print(table(rows))
    return 0


def start_redis() -> tuple[subprocess.Popen, str]:
    """``redis-server`` on a free loopback port, in memory only; its process and URL."""
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--maxclients", "20000"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis
    for _ in range(100):
        try:
            redis.Redis(port=port).ping()
            return server, f"redis://127.0.0.1:{port}/0"
        except redis.ConnectionError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("redis-server did not start")


if __name__ == "__main__":
    sys.exit(main())
