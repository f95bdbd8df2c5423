"""Crash the embedded service at random moments under load; count what it had answered and then lost.

    .venv/bin/python bench/crashloop.py                  # 50 kills, prints the figures and one JSON line
    .venv/bin/python bench/crashloop.py --kills 20 --seed 7

Runs the real ``cosmic serve`` without REDIS_URL (in-process Redis, data folder in a temporary
folder) and, in each round, drives it from two threads: create a game, subscribe a webhook to
it, seat two players, start it and answer the owed decisions with an ``Idempotency-Key``. After a
random 0.1-2 s it SIGKILLs the process (no cleanup of any kind), starts it again on the same
folder and checks everything that had been answered before the kill:

- every seat token acknowledged still opens its seat (``/prompts`` is not 401);
- every action answered with an Idempotency-Key, sent again, gets the stored answer (200,
  ``Idempotent-Replayed: true``, the same body), never a 409;
- every webhook subscription acknowledged still exists;
- webhook positions never go backwards: a local receiver notes each delivery; after a restart no
  event older than the last one received before the kill arrives again. The one event in flight
  at the kill (received, its position not yet written) may come again: counted as ``resent``.

`run` returns the figures; tests/e2e/test_embedded_crash.py runs it with 20 kills and asserts 0
losses. Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from workers.settings import ENV_NAMES, LIMIT_FIELDS  # noqa: E402

BIN = Path(sys.executable).parent
ADMIN_TOKEN = "bench-crash-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Receiver:
    """A webhook receiver on loopback: notes (round, subscription, game, seq) of every delivery, answers 204."""

    def __init__(self):
        self.round = 0
        self.deliveries: list[tuple[int, str, str, int]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.lock:
                    receiver.deliveries.append((receiver.round, self.headers["X-Cosmic-Subscription"],
                                                self.headers["X-Cosmic-Game"], int(self.headers["X-Cosmic-Seq"])))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next_round(self) -> None:
        with self.lock:
            self.round += 1

    def backwards(self) -> tuple[int, int]:
        """(deliveries older than one received before, deliveries of the last one before a kill again)."""
        older = resent = 0
        high: dict[tuple[str, str], tuple[int, int]] = {}  # (subscription, game): (highest seq, its round)
        with self.lock:
            deliveries = list(self.deliveries)
        for round_, sub, game, seq in deliveries:  # in arrival order
            top, top_round = high.get((sub, game), (0, round_))
            if seq < top:
                older += 1
            elif seq == top and round_ > top_round:
                resent += 1
            if seq >= top:
                high[(sub, game)] = (seq, round_)
        return older, resent

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Service:
    """``cosmic serve`` (embedded) on one data folder, started again after every kill."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.process: subprocess.Popen | None = None
        self.base = ""

    def start(self) -> str:
        port = free_port()
        env = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
        env.update({"COSMIC_ADMIN_TOKEN": ADMIN_TOKEN, "COSMIC_DATA_DIR": str(self.folder / "data"),
                    **{ENV_NAMES[name]: "100000 per minute" for name in LIMIT_FIELDS}})
        log = open(self.folder / "serve.log", "a")  # noqa: SIM115 (the child holds it)
        self.process = subprocess.Popen([str(BIN / "cosmic"), "serve", "--port", str(port)], cwd=ROOT, env=env,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("cosmic serve exited:\n" + (self.folder / "serve.log").read_text()[-3000:])
            try:
                if requests.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return self.base
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError("cosmic serve did not become healthy")

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is flushed or closed."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    stop = kill


class Ledger:
    """What the service has answered (only complete 2xx answers count)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.tokens: list[tuple[str, str]] = []  # (game, token)
        self.answers: list[tuple[str, dict, dict, dict]] = []  # (game, headers, body, answer)
        self.hooks: list[str] = []


def fill(option: dict, rng: random.Random) -> dict | None:
    """An action body for a prompt's option: a random value for each choice, the least of a distribution."""
    body = {k: v for k, v in option.items() if k not in ("action", "args", "rule", "label")}
    body["action"] = option["action"]
    for name, shape in (option.get("args") or {}).items():
        if shape.get("type") == "choice" and shape.get("values"):
            body[name] = rng.choice(shape["values"])
        elif shape.get("type") == "distribution" and shape.get("sources"):
            source = rng.choice(sorted(shape["sources"]))
            body[name] = {source: max(1, shape.get("min", 1))}
        else:
            return None
    return body


def drive(base: str, ledger: Ledger, receiver_url: str, stop: threading.Event, rng: random.Random) -> None:
    """Play games as fast as the service answers until ``stop`` or the service dies."""
    session = requests.Session()
    try:
        while not stop.is_set():
            game = session.post(f"{base}/games", json={"seats": 2}, timeout=10)
            game.raise_for_status()
            game = game.json()
            gid, host = game["id"], {"Authorization": f"Bearer {game['host_token']}"}
            hook = session.post(f"{base}/webhooks", json={"url": receiver_url, "game_id": gid}, headers=ADMIN,
                                timeout=10)
            if hook.status_code == 201:
                with ledger.lock:
                    ledger.hooks.append(hook.json()["id"])
            seats = {}
            for name in ("Ann", "Bob"):
                joined = session.post(f"{base}/games/{gid}/players", json={"name": name}, timeout=10)
                joined.raise_for_status()
                joined = joined.json()
                seats[joined["color"]] = {"Authorization": f"Bearer {joined['token']}"}
                with ledger.lock:
                    ledger.tokens.append((gid, joined["token"]))
            started = session.post(f"{base}/games/{gid}/start", headers=host, timeout=10)
            started.raise_for_status()
            for _ in range(rng.randint(5, 30)):
                if stop.is_set():
                    return
                state = session.get(f"{base}/games/{gid}", timeout=10).json()
                owed = [p["player"] for p in state.get("pending", []) if p.get("player") in seats]
                if not owed:
                    break
                prompts = session.get(f"{base}/games/{gid}/prompts", headers=seats[owed[0]], timeout=10).json()
                bodies = [body for p in prompts.get("prompts", []) for o in p["options"]
                          if (body := fill(o, rng)) is not None]
                if not bodies:
                    break
                body = rng.choice(bodies)
                headers = {**seats[owed[0]], "Idempotency-Key": uuid.uuid4().hex}
                answer = session.post(f"{base}/games/{gid}/actions", json=body, headers=headers, timeout=10)
                if answer.status_code == 200:
                    with ledger.lock:
                        ledger.answers.append((gid, headers, body, answer.json()))
    except (requests.RequestException, ValueError, KeyError):
        return  # the service died under us (the kill), or the game took a turn we do not drive


def check(base: str, ledger: Ledger) -> dict:
    """What the restarted service lost of what it had answered: the ledger's indices, by kind."""
    lost = {"tokens": set(), "answers": set(), "answers_409": set(), "hooks": set()}
    with ledger.lock:
        tokens, answers, hooks = list(ledger.tokens), list(ledger.answers), list(ledger.hooks)
    for n, (gid, token) in enumerate(tokens):
        seen = requests.get(f"{base}/games/{gid}/prompts", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        if seen.status_code in (401, 403):
            lost["tokens"].add(n)
    for n, (gid, headers, body, answer) in enumerate(answers):
        again = requests.post(f"{base}/games/{gid}/actions", json=body, headers=headers, timeout=10)
        if not (again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
                and again.json() == answer):
            lost["answers"].add(n)
        if again.status_code == 409:
            lost["answers_409"].add(n)
    for n, sub_id in enumerate(hooks):
        if requests.get(f"{base}/webhooks/{sub_id}", headers=ADMIN, timeout=10).status_code == 404:
            lost["hooks"].add(n)
    return lost


def run(kills: int, seed: int, folder: Path, drivers: int = 2, log=print) -> dict:
    """``kills`` rounds of load, SIGKILL, restart and check; returns the figures."""
    rng = random.Random(seed)
    receiver, service, ledger = Receiver(), Service(folder), Ledger()
    kills_done = 0
    lost_ever = {"tokens": set(), "answers": set(), "answers_409": set(), "hooks": set()}
    try:
        base = service.start()
        for round_ in range(kills):
            stop = threading.Event()
            threads = [threading.Thread(target=drive, args=(base, ledger, receiver.url, stop,
                                                            random.Random(rng.random())), daemon=True)
                       for _ in range(drivers)]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(0.1, 2.0))
            service.kill()
            receiver.next_round()  # what arrives from now on comes from the restarted process
            stop.set()
            for thread in threads:
                thread.join(15)
            base = service.start()
            lost = check(base, ledger)
            kills_done += 1
            for kind, items in lost.items():
                lost_ever[kind] |= items
            log(f"kill {round_ + 1}/{kills}: {len(ledger.tokens)} tokens, {len(ledger.answers)} answers, "
                f"{len(ledger.hooks)} webhooks so far; lost: " + ", ".join(f"{len(v)} {k}" for k, v in lost.items()))
        time.sleep(2)  # let the restarted service deliver what is pending
    finally:
        service.stop()
        receiver.close()
    older, resent = receiver.backwards()
    return {"kills": kills_done, "tokens": len(ledger.tokens), "answers": len(ledger.answers), "hooks": len(ledger.hooks),
            "lost_tokens": len(lost_ever["tokens"]), "lost_answers": len(lost_ever["answers"]),
            "answers_409": len(lost_ever["answers_409"]), "lost_hooks": len(lost_ever["hooks"]),
            "deliveries": len(receiver.deliveries), "webhook_backwards": older, "webhook_resent": resent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--drivers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cosmic-crash-") as folder:
        figures = run(args.kills, args.seed, Path(folder), drivers=args.drivers)
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
