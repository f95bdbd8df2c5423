"""A master of the Redis Cluster dies (SIGKILL): it stalls only its own games (issue 27), and once started
again from its AOF nothing acknowledged is lost (issue 13).

Real processes: a 3-master cluster of the test's own (`tests.rediscluster`, every write
fsynced to the append-only file before it is acknowledged, ``cluster-require-full-coverage
no`` so the other masters keep serving), its plain queue Redis, gunicorn and one `cosmic
worker` on it, and two games of four bots on different masters. The master holding the
first game's slot is killed while the bots play: that game answers 503 while its master is
down, the other game goes on being served. The master is started again on its own files;
nobody restarts gunicorn or the worker. Then both games must reach their end, every event of
the first game acknowledged before the kill must be there unchanged (same hash chain), and the
audit of both games must be clean.

Replicas are not used here: Redis replicates asynchronously, so a replica promoted after a
crash may lack the last acknowledged writes (docs/cluster.md); restarting from an fsynced AOF
loses none.

The isolation test kills the master that holds the keys shared by every game (the games list,
the token index, the webhook subscriptions) while HTTP players act in games on every master:
the games on the two other masters must answer every request, none slower than a second (a
functional bound for a loaded machine; bench/load.py measures), with no append of theirs
failing a listener (their after-append work never waits on the dead master: a games list entry it
cannot write there is retried by a job), and their bots
play on; the games on the dead master answer 503 with Retry-After.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import pytest
import requests

from engine.players import random_command
from events.envelope import verify_chain
from events.store import EventStore
from tests import rediscluster
from tests.conftest import ServiceProcesses

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # ServiceProcesses' admin token


class PartialCluster(rediscluster.LocalCluster):
    """A local cluster whose masters keep serving their slots while another master is down."""

    def start(self, timeout: float = 30):
        started = super().start(timeout)
        for node in self.nodes:
            with node.client() as client:
                client.config_set("cluster-require-full-coverage", "no")
        return started


@pytest.fixture
def own_cluster(tmp_path):
    if not rediscluster.available():
        pytest.skip(rediscluster.MISSING_REASON)
    made = PartialCluster(tmp_path / "cluster").start()
    yield made
    made.stop()


def bot_game(base: str, seed: str) -> str:
    game = requests.post(f"{base}/games", json={"seats": 4, "seed": seed}, headers=ADMIN, timeout=10).json()["id"]
    for k in range(4):
        assert requests.post(f"{base}/games/{game}/players", json={"name": f"Bot {k}", "bot": "random"},
                             headers=ADMIN, timeout=10).status_code == 201
    return game


def served(base: str, game: str) -> requests.Response | None:
    try:
        return requests.get(f"{base}/games/{game}", timeout=10)
    except requests.RequestException:
        return None


def test_a_killed_master_restarted_from_its_aof_loses_no_acknowledged_event_and_the_service_recovers(
        own_cluster, key_prefix, tmp_path):
    service = ServiceProcesses(key_prefix, tmp_path, own_cluster)
    try:
        base = service()
        store = EventStore(own_cluster.client(), prefix=key_prefix)
        first = bot_game(base, "failover-1")
        victim = own_cluster.master_of(store.stream_key(first))
        second = bot_game(base, "failover-2")
        while own_cluster.master_of(store.stream_key(second)) is victim:  # a game on another master
            second = bot_game(base, "failover-2")
        for game in (first, second):
            assert requests.post(f"{base}/games/{game}/start", headers=ADMIN, timeout=10).status_code == 200

        deadline = time.monotonic() + 90
        acknowledged = 0
        while acknowledged < 120:  # let the bots play a while
            assert time.monotonic() < deadline, "the bots did not play:\n" + service.logs()
            answer = served(base, first)
            acknowledged = max(acknowledged, answer.json()["version"] if answer and answer.ok else 0)
            time.sleep(0.05)
        before = [event["hash"] for event in store.read(first)]  # at least what was acknowledged
        assert len(before) >= acknowledged

        victim.kill()
        outage = served(base, first)
        assert outage is not None and outage.status_code == 503 and outage.headers.get("Retry-After")
        other = served(base, second)  # the other master's game is still served
        assert other is not None and other.status_code == 200, other.text if other is not None else None
        time.sleep(2)
        victim.start()
        victim.wait_up()
        own_cluster.wait_ok()

        deadline = time.monotonic() + 120
        for game in (first, second):
            while True:
                board = served(base, game)
                if board is not None and board.ok and board.json()["status"] == "finished":
                    break
                assert time.monotonic() < deadline, (f"game {game} stalled after the outage "
                                                     f"({board.status_code if board is not None else None}: "
                                                     f"{board.text[:300] if board is not None else ''}):\n"
                                                     + service.logs())
                time.sleep(0.5)
        service.check_running()  # gunicorn and the worker never exited

        events = list(store.iter_all(first))
        assert [event["hash"] for event in events[:len(before)]] == before  # nothing acknowledged was lost
        assert verify_chain(events, first) == store.version(first) == len(events)
        for game in (first, second):
            audit = subprocess.run([sys.executable, "-m", "app.cli", "audit", game], env=service.env,
                                   capture_output=True, text=True, timeout=120)
            assert audit.returncode == 0, audit.stdout + audit.stderr
        store.redis.close()
    finally:
        service.stop()


def http_game(base: str, seed: str) -> tuple[str, str]:
    """A started game of one HTTP player and two bots; (game id, the player's token)."""
    game = requests.post(f"{base}/games", json={"seats": 3, "seed": seed}, headers=ADMIN, timeout=10).json()["id"]
    token = requests.post(f"{base}/games/{game}/players", json={"name": "Ann"}, timeout=10).json()["token"]
    for k in range(2):
        assert requests.post(f"{base}/games/{game}/players", json={"name": f"Bot {k}", "bot": "random"},
                             headers=ADMIN, timeout=10).status_code == 201  # bots: the host's or the admin's
    assert requests.post(f"{base}/games/{game}/start", headers=ADMIN, timeout=10).status_code == 200
    return game, token


class Player(threading.Thread):
    """Reads its game's board and prompts and answers them, noting (when, request, status, seconds) of each."""

    def __init__(self, base: str, game: str, token: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.base, self.game, self.stop = base, game, stop
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"
        self.rng = random.Random(game)
        self.answers: list[tuple[float, str, int | str, float, str | None]] = []

    def ask(self, method: str, path: str, **kwargs) -> requests.Response | None:
        started = time.monotonic()
        try:
            answer = self.session.request(method, f"{self.base}/games/{self.game}{path}", timeout=20, **kwargs)
        except requests.RequestException as err:
            self.answers.append((started, f"{method} {path}", type(err).__name__, time.monotonic() - started, None))
            return None
        self.answers.append((started, f"{method} {path}", answer.status_code, time.monotonic() - started,
                             answer.headers.get("Retry-After")))
        return answer

    def run(self) -> None:
        while not self.stop.is_set():
            self.ask("GET", "")
            owed = self.ask("GET", "/prompts")
            prompts = owed.json().get("prompts") if owed is not None and owed.status_code == 200 else None
            if prompts and prompts[0]["kind"] == "deal":  # (terms need the board: this player gives up at once)
                self.ask("POST", "/actions", json={"action": "give_up", "prompt": prompts[0]["id"]})
            elif prompts:
                command = random_command(None, prompts[0], self.rng)
                command.pop("player", None)
                self.ask("POST", "/actions", json=command)
            time.sleep(0.05)


def test_a_killed_master_stalls_only_its_own_games(own_cluster, key_prefix, tmp_path):
    service = ServiceProcesses(key_prefix, tmp_path, own_cluster)
    victim = own_cluster.master_of(f"{key_prefix}:webhooks:all")  # the keys every game shares sit here
    try:
        base = service()
        store = EventStore(own_cluster.client(), prefix=key_prefix)
        games: dict[str, tuple[str, object]] = {}
        for k in range(60):  # two games on each master at least
            game, token = http_game(base, f"isolation-{k}")
            games[game] = (token, own_cluster.master_of(store.stream_key(game)))
            per_master = {node.port: sum(1 for _, m in games.values() if m is node) for node in own_cluster.nodes}
            if min(per_master.values()) >= 2:
                break
        dead = [game for game, (_, master) in games.items() if master is victim]
        healthy = [game for game, (_, master) in games.items() if master is not victim]
        assert dead and len(healthy) >= 4

        stop = threading.Event()
        players = {game: Player(base, game, token, stop) for game, (token, _) in games.items()}
        for player in players.values():
            player.start()
        time.sleep(3)
        versions = {game: store.version(game) for game in healthy}
        killed = time.monotonic()
        victim.kill()
        time.sleep(8)
        stop.set()
        for player in players.values():
            player.join(30)

        after = {game: [a for a in players[game].answers if a[0] >= killed] for game in games}
        served = [a for game in healthy for a in after[game]]
        assert served and all(status == 200 or (what.startswith("POST") and status in (400, 409, 422))
                               for _, what, status, _, _ in served), \
            [a for a in served if a[2] != 200][:10]
        slowest = max(served, key=lambda a: a[3])
        assert slowest[3] < 1.0, (slowest, service.logs())
        assert sum(1 for _, what, _, _, _ in served if what.startswith("POST")) >= len(healthy)  # they played on
        refused = [a for game in dead for a in after[game] if a[0] >= killed + 1]  # (in-flight ones aside)
        assert refused and all(status == 503 and retry for _, _, status, _, retry in refused), refused[:10]

        store.redis.close()
        store = EventStore(own_cluster.client(), prefix=key_prefix)  # (a client that knows the node is gone)
        moved_on = [game for game in healthy if store.version(game) > versions[game]]
        stalled = {game: requests.get(f"{base}/games/{game}", timeout=10).json().get("pending")
                   for game in healthy if game not in moved_on}
        assert len(moved_on) == len(healthy), ("the bots and players of the healthy games stopped", stalled)
        failed_listeners = [line for log in service.log_files if log.exists()
                            for line in log.read_text().splitlines() if "failed after an append to game" in line]
        assert not [line for line in failed_listeners if any(game in line for game in healthy)], failed_listeners[:5]
        store.redis.close()
    finally:
        if victim not in own_cluster.running():  # (the clean-up scans every master)
            victim.start()
            victim.wait_up()
            own_cluster.wait_ok()
        service.stop()
