"""Benchmark of the service on this machine: real Redis, gunicorn, HTTP clients in other processes.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/service.py

Prints measured figures (never asserted by tests):

(a) throughput: requests per second of ``POST /games/{id}/actions`` over many concurrent
    games, against a baseline Flask endpoint that only does one XADD, served by the same
    gunicorn setup; reported as a ratio.
(b) game length: the latency of an action near event 50 and near event 5,000 of the same
    game, as a ratio (the target is under 1.2: an action folds only the events since the
    cache or snapshot, never the whole game).
(c) rebuild: reading, chain-verifying and folding a 5,000-event game from its stream,
    in events per second.

Commands are computed in the client by running the engine on the same seed (the admin
seeds the games), so the clients send only ``POST /actions`` while they are measured.
Every request is counted by the rate limits (app/limits.py) as in production, with quotas this
run never reaches (all clients share one address); ``--no-limits`` measures without them.
Everything is written under a fresh key prefix, deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.players import random_command  # noqa: E402
from engine.simulate import new_game  # noqa: E402

ADMIN_TOKEN = "bench-admin-" + uuid.uuid4().hex
RETRIES = 25


# --- the baseline: one XADD per request, nothing else --------------------------------------

def baseline_app():
    """A Flask app whose one endpoint parses the JSON body and does one XADD (gunicorn factory)."""
    from flask import Flask, jsonify, request
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    prefix = os.environ["COSMIC_PREFIX"]
    app = Flask(__name__)

    @app.post("/games/<game_id>/xadd")
    def xadd(game_id):
        body = request.get_json()
        entry = client.xadd(f"{prefix}:{{{game_id}}}:baseline", {"e": json.dumps(body)})
        return jsonify({"id": entry.decode()})

    return app


# --- servers -------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(target: str, env: dict, workers: int, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [str(Path(sys.executable).parent / "gunicorn"), "--worker-class", "gthread", "--workers", str(workers),
               "--threads", str(threads), "--bind", f"127.0.0.1:{port}", "--timeout", "120", target]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(base + "/health", timeout=1)
            return process, base
        except requests.RequestException:
            if process.poll() is not None:
                raise SystemExit(f"gunicorn {target} exited with {process.returncode}") from None
            time.sleep(0.2)
    raise SystemExit(f"gunicorn {target} did not start")


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)


# --- games and their commands ---------------------------------------------------------------

def script(seed: str, players: int, count: int) -> tuple[list[dict], int]:
    """The first ``count`` commands random players make in this seeded game, and the events they make."""
    state, log = new_game(seed, players)
    rng = random.Random(f"bench:{seed}")
    commands, events = [], len(log)
    while state["status"] == "playing" and len(commands) < count:
        prompt = rng.choice(engine.prompts(state))
        for _ in range(RETRIES):
            command = random_command(state, prompt, rng)
            try:
                made, state = engine.execute(state, {**command, "at": 0})
            except engine.EngineError:
                continue
            command.pop("player")
            commands.append({"player": prompt["player"], "body": command})
            events += len(made)
            break
        else:
            break
    return commands, events


def open_game(base: str, seed: str, players: int) -> tuple[str, dict]:
    """Create (seeded by the admin), seat and start a game; returns its id and the seats' tokens."""
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    game_id = requests.post(f"{base}/games", json={"seats": players, "seed": seed}, headers=admin, timeout=30).json()["id"]
    tokens = {}
    for k in range(players):
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"player {k + 1}"}, timeout=30).json()
        tokens[joined["color"]] = joined["token"]
    requests.post(f"{base}/games/{game_id}/start", headers=admin, timeout=30).raise_for_status()
    return game_id, tokens


def drive(job: dict) -> dict:
    """A client process: send each game's commands in turn, round robin; count successes and time."""
    session = requests.Session()
    games = job["games"]
    positions = [0] * len(games)
    sent = failed = 0
    started = time.perf_counter()
    while any(p < len(g["commands"]) for p, g in zip(positions, games, strict=True)):
        for index, game in enumerate(games):
            if positions[index] >= len(game["commands"]):
                continue
            step = game["commands"][positions[index]]
            positions[index] += 1
            if job["baseline"]:
                url = f"{job['base']}/games/{game['id']}/xadd"
                headers = {}
            else:
                url = f"{job['base']}/games/{game['id']}/actions"
                headers = {"Authorization": f"Bearer {game['tokens'][step['player']]}"}
            response = session.post(url, json=step["body"], headers=headers, timeout=60)
            sent += 1
            failed += response.status_code != 200
    return {"sent": sent, "failed": failed, "seconds": time.perf_counter() - started}


def throughput(base: str, games: list[dict], clients: int, baseline: bool) -> dict:
    jobs = [{"base": base, "baseline": baseline, "games": games[k::clients]} for k in range(clients)]
    started = time.perf_counter()
    with ProcessPoolExecutor(clients) as pool:
        results = list(pool.map(drive, jobs))
    elapsed = time.perf_counter() - started
    sent = sum(r["sent"] for r in results)
    return {"requests": sent, "failed": sum(r["failed"] for r in results), "seconds": round(elapsed, 3),
            "rps": round(sent / elapsed, 1)}


# --- (b) latency early and late in one long game ------------------------------------------------

def long_seed(players: int, events: int) -> str:
    """A seed whose game lasts beyond ``events`` events with these random players."""
    for n in range(200):
        seed = f"bench-long-{n}"
        _, made = script(seed, players, 10 ** 6)
        if made > events:
            return seed
    raise SystemExit("no seed makes a game that long")


def timed_actions(session, base: str, game_id: str, tokens: dict, commands: list[dict]) -> list[float]:
    """Send commands one by one; the latency of each, in milliseconds."""
    latencies = []
    for step in commands:
        headers = {"Authorization": f"Bearer {tokens[step['player']]}"}
        started = time.perf_counter()
        response = session.post(f"{base}/games/{game_id}/actions", json=step["body"], headers=headers, timeout=60)
        latencies.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"action refused: {response.status_code} {response.text[:300]}")
    return latencies


def latency_by_length(base: str, players: int, sample: int, early: int, late: int) -> tuple[dict, str]:
    seed = long_seed(players, late + 400)
    commands, _ = script(seed, players, 10 ** 6)
    game_id, tokens = open_game(base, seed, players)
    session = requests.Session()
    version = lambda: requests.get(f"{base}/games/{game_id}", timeout=30).json()["version"]  # noqa: E731
    done = 0
    while version() < early:  # walk up to the early mark
        timed_actions(session, base, game_id, tokens, commands[done:done + 1])
        done += 1
    at_early = version()
    early_ms = timed_actions(session, base, game_id, tokens, commands[done:done + sample])
    done += sample
    while True:  # walk to the late mark quickly, then sample again
        stride = max(1, min(50, (late - version()) // 8))
        if version() >= late:
            break
        timed_actions(session, base, game_id, tokens, commands[done:done + stride])
        done += stride
    at_late = version()
    late_ms = timed_actions(session, base, game_id, tokens, commands[done:done + sample])
    figures = {"early_event": at_early, "late_event": at_late, "sample": sample,
               "early_median_ms": round(statistics.median(early_ms), 3),
               "late_median_ms": round(statistics.median(late_ms), 3),
               "early_p90_ms": round(statistics.quantiles(early_ms, n=10)[-1], 3),
               "late_p90_ms": round(statistics.quantiles(late_ms, n=10)[-1], 3)}
    figures["late_over_early"] = round(figures["late_median_ms"] / figures["early_median_ms"], 3)
    return figures, game_id


# --- (c) rebuild -----------------------------------------------------------------------------

def rebuild(client, prefix: str, game_id: str, rounds: int = 3) -> dict:
    from events.envelope import verify_chain
    from events.store import EventStore
    store = EventStore(client, prefix=prefix)
    best = None
    for _ in range(rounds):
        started = time.perf_counter()
        events = list(store.iter_all(game_id))
        verify_chain(events, game_id)
        engine.fold(events)
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    return {"events": len(events), "seconds": round(best, 4), "events_per_second": round(len(events) / best)}


# --- main ----------------------------------------------------------------------------------------

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13"))
    parser.add_argument("--games", type=int, default=48, help="concurrent games for (a)")
    parser.add_argument("--actions", type=int, default=60, help="actions per game for (a)")
    parser.add_argument("--clients", type=int, default=12, help="client processes for (a)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads per worker")
    parser.add_argument("--sample", type=int, default=60, help="actions timed at each mark for (b)")
    parser.add_argument("--no-limits", action="store_true", help="no rate limits at all (to see what they cost)")
    args = parser.parse_args(argv)

    from workers.settings import ENV_NAMES, LIMIT_FIELDS
    quota = "none" if args.no_limits else "1000000 per minute"  # counted, never reached
    prefix = f"bench-{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "REDIS_URL": args.redis_url, "COSMIC_PREFIX": prefix, "COSMIC_ADMIN_TOKEN": ADMIN_TOKEN,
           **{ENV_NAMES[name]: quota for name in LIMIT_FIELDS}}
    client = redis.Redis.from_url(args.redis_url)
    client.ping()
    servers = []
    try:
        app_process, app_base = start_gunicorn("app.wsgi:app", env, args.workers, args.threads)
        servers.append(app_process)
        base_process, base_base = start_gunicorn("bench.service:baseline_app()", env, args.workers, args.threads)
        servers.append(base_process)
        print(f"servers up: gunicorn gthread {args.workers}x{args.threads}; Redis {args.redis_url}; prefix {prefix}",
              file=sys.stderr)

        games = []
        for n in range(args.games):
            seed = f"bench-{n}"
            commands, _ = script(seed, args.players, args.actions)
            game_id, tokens = open_game(app_base, seed, args.players)
            games.append({"id": game_id, "tokens": tokens, "commands": commands})
        actions = throughput(app_base, games, args.clients, baseline=False)
        baseline = throughput(base_base, [{**g, "id": f"base-{i}"} for i, g in enumerate(games)], args.clients,
                              baseline=True)
        a = {"actions": actions, "baseline_xadd": baseline,
             "actions_over_baseline": round(actions["rps"] / baseline["rps"], 3)}
        print(f"(a) POST /actions {actions['rps']} req/s ({actions['failed']} refused) vs one-XADD baseline "
              f"{baseline['rps']} req/s: ratio {a['actions_over_baseline']}", file=sys.stderr)

        b, long_game = latency_by_length(app_base, args.players, args.sample, early=50, late=5000)
        print(f"(b) action latency at event {b['early_event']}: median {b['early_median_ms']} ms "
              f"(p90 {b['early_p90_ms']}); at event {b['late_event']}: median {b['late_median_ms']} ms "
              f"(p90 {b['late_p90_ms']}); late/early {b['late_over_early']}", file=sys.stderr)

        c = rebuild(client, prefix, long_game)
        print(f"(c) rebuild of a {c['events']}-event game (read + verify chain + fold): {c['seconds']} s, "
              f"{c['events_per_second']} events/s", file=sys.stderr)
        print(json.dumps({"a_throughput": a, "b_latency": b, "c_rebuild": c}, sort_keys=True))
    finally:
        for process in servers:
            stop(process)
        for key in client.scan_iter(match=f"{prefix}*", count=1000):
            client.delete(key)
        from workers.queues import purge
        purge(client, prefix)
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
