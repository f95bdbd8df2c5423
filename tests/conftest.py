"""Fixtures shared by the whole test suite (store, projection, worker and app tests).

Redis
-----
``fake_server``     a fresh ``fakeredis.FakeServer`` per test: nothing leaks between tests.
``fake_redis``      a ``fakeredis.FakeRedis`` on ``fake_server`` (Lua scripts run via lupa).
                    Clients here use ``decode_responses=False`` (replies are bytes), the
                    redis-py default and what RQ requires, so worker tests can hand the
                    same connection to RQ. Code under test must not assume str replies.
``real_redis``      a client on ``$REDIS_URL``; the test is skipped when REDIS_URL is not set,
                    and fails (not skips) when it is set but Redis does not answer. The real
                    server holds other people's data: put every key under ``key_prefix``.
``redis_client``    parametrized over ``["fake", "real"]``: a test using it runs on fakeredis
                    and, when REDIS_URL is set, again on real Redis. Tests under the folders
                    of ``CLUSTER_FOLDERS`` (the variant is deselected elsewhere) (store, projections, workers) run a third time,
                    ``[cluster]``, on a real 3-master Redis Cluster (``cluster_redis``).
``cluster_redis``   a `RedisCluster` client on the session's own cluster (`tests.rediscluster`:
                    redis-server in cluster mode on free loopback ports in a temporary
                    folder, started on first use); skipped only where redis-server is missing.
``rq_client``       the client RQ uses next to ``redis_client``: the same one, except on the
                    cluster, where it is the cluster's plain queue server (RQ_REDIS_URL).
``redis_factory``   a callable returning a *new* client on the same backend as
                    ``redis_client`` (same FakeServer, REDIS_URL or cluster): give each thread or
                    simulated process its own connection. Closed after the test.
``key_prefix``      a unique prefix per test (``test-<hex>``) for every key a test writes.
                    Afterwards every key under it on the real Redis is deleted (SCAN MATCH +
                    DEL, never FLUSHDB); fakeredis needs no cleanup.

Service processes
-----------------
``service_processes``  (``[cluster]`` variant, kept for ``CLUSTER_SERVICE_TESTS`` only: REDIS_URL
                       is the session's cluster and RQ_REDIS_URL its queue server; ``.env``
                       is the processes' environment, ``.data_client()`` a client on their data)
                       ``service_processes(web=True, worker=True, env={...})`` starts gunicorn
                       and/or ``cosmic worker`` as real processes on REDIS_URL under this test's
                       ``key_prefix`` (skipped without REDIS_URL), returns the base URL (None
                       without ``web``) and stops them, purging the prefix's RQ keys, afterwards.
                       ``.worker(name, plain_rq=False)`` starts one more worker (or RQ's own
                       ``rq worker``) and returns its process; ``.kill(process)`` crashes one
                       (SIGKILL). ``.embedded()`` starts ``cosmic serve`` without REDIS_URL
                       instead (no Redis needed). ``.logs()`` gives their output for failure
                       messages, ``.log_of(name)`` one process's.

Event types
-----------
``define_event_type``  ``define_event_type("TestThing", {"n": "int"}, ...)`` registers a
                       test-only type in `events.catalog` (names must start with ``Test``)
                       and removes it after the test.

Typical use::

    def test_something(redis_client, key_prefix):
        store = EventStore(redis_client, prefix=key_prefix)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import fakeredis
import pytest
import redis

# Without an installed package, pytest puts only test folders on sys.path, and
# ``tests/events`` would then shadow the ``events`` package as a namespace package.
PROJECT_ROOT = str(Path(__file__).resolve().parent.parent)
if PROJECT_ROOT not in sys.path:
    sys.path.insert(0, PROJECT_ROOT)

from events import catalog  # noqa: E402

# the one database index the docs give for local real-Redis runs (README, .ci/run, bench/): 13
LOCAL_REDIS_URL = "redis://127.0.0.1:6379/13"
SKIP_REAL_REASON = f"REDIS_URL is not set: real-Redis variant skipped (e.g. REDIS_URL={LOCAL_REDIS_URL})"


def _redis_url() -> str | None:
    return os.environ.get("REDIS_URL") or None


def _connect_real() -> redis.Redis:
    """A new client on REDIS_URL; fails the test with the reason when Redis does not answer."""
    url = _redis_url()
    client = redis.Redis.from_url(url, decode_responses=False)
    try:
        client.ping()
    except redis.RedisError as err:
        client.close()
        pytest.fail(f"REDIS_URL={url} is set but Redis does not answer: {err}")
    return client


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def delete_keys_under(client: redis.Redis, prefix: str) -> int:
    """Delete every key starting with ``prefix`` (SCAN MATCH + DEL, never FLUSHDB); returns how many."""
    if len(prefix) < 8:
        raise ValueError(f"refusing to delete under the short prefix {prefix!r}")
    deleted = 0
    batch = []
    for key in client.scan_iter(match=_glob_escape(prefix) + "*", count=1000):
        batch.append(key)
        if len(batch) >= 500:
            deleted += _delete_each(client, batch)
            batch = []
    return deleted + _delete_each(client, batch)


def _delete_each(client: redis.Redis, keys: list) -> int:
    # One DEL per key: keys of different games may sit on different cluster slots.
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.delete(key)
    return sum(pipe.execute()) if keys else 0


@pytest.fixture
def fake_server() -> fakeredis.FakeServer:
    """A fresh in-memory Redis server for this test only."""
    return fakeredis.FakeServer()


@pytest.fixture
def fake_redis(fake_server):
    """A fakeredis client (bytes replies) on this test's own FakeServer."""
    client = fakeredis.FakeRedis(server=fake_server, decode_responses=False)
    yield client
    client.close()


@pytest.fixture
def real_redis():
    """A client on the real Redis at REDIS_URL (bytes replies); skipped without REDIS_URL."""
    if not _redis_url():
        pytest.skip(SKIP_REAL_REASON)
    client = _connect_real()
    yield client
    client.close()


# Test folders whose `redis_client` tests also run on the Redis Cluster, and e2e tests that do.
CLUSTER_FOLDERS = ("tests/events/", "tests/projections/", "tests/workers/")
CLUSTER_SERVICE_TESTS = {  # (not the three-game refold: 100 s more on a shared machine for little news)
    "test_the_worker_snapshots_finished_games_and_the_feed_works",
    "test_a_person_plays_four_bots_to_the_end_over_http_with_gunicorn_and_a_worker",
    "test_limits_hold_across_two_gunicorn_processes_on_redis",  # the limits' counters on the cluster's slots
    "test_defaults_are_applied_within_a_second_of_their_deadlines_while_bots_keep_the_worker_busy",
    "test_deadlines_that_passed_while_no_worker_ran_fire_within_a_second_of_a_worker_starting_each_once",
}


def pytest_collection_modifyitems(config, items):
    """Keep the ``[cluster]`` variants only for the store, projection and worker tests and a few e2e tests."""
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        path = Path(str(item.path)).resolve().relative_to(PROJECT_ROOT).as_posix()
        wanted = ((params.get("redis_client") != "cluster" or path.startswith(CLUSTER_FOLDERS)) and
                  (params.get("service_processes") != "cluster" or item.originalname in CLUSTER_SERVICE_TESTS))
        (kept if wanted else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(params=["fake", "real", "cluster"])
def redis_client(request):
    """The same test on fakeredis and (with REDIS_URL) on real Redis (and, in some folders, a cluster)."""
    return request.getfixturevalue(f"{request.param}_redis")


@pytest.fixture(scope="session")
def redis_cluster_server(tmp_path_factory):
    """The session's own 3-master Redis Cluster (and queue server) on loopback; skipped without redis-server."""
    from tests import rediscluster
    if not rediscluster.available():
        pytest.skip(rediscluster.MISSING_REASON)
    started = rediscluster.LocalCluster(tmp_path_factory.mktemp("redis-cluster")).start()
    rediscluster.ACTIVE = started
    yield started
    rediscluster.ACTIVE = None
    started.stop()


@pytest.fixture
def cluster_redis(redis_cluster_server, key_prefix):
    """A cluster client (bytes replies); this test's keys are deleted from every node afterwards."""
    from workers.queues import purge
    client = redis_cluster_server.client(decode_responses=False)
    yield client
    client.close()  # (a test may have closed it already: clean up with a client of our own)
    with redis_cluster_server.client() as cleaner:
        delete_keys_under(cleaner, key_prefix)
    with redis_cluster_server.queue_client() as queue:
        delete_keys_under(queue, key_prefix)
        purge(queue, key_prefix)


@pytest.fixture
def rq_client(request, redis_client):
    """RQ's client next to ``redis_client``: itself, or the cluster's plain queue server."""
    from workers.connections import is_cluster
    if not is_cluster(redis_client):
        yield redis_client
        return
    client = request.getfixturevalue("redis_cluster_server").queue_client()
    yield client
    client.close()


@pytest.fixture
def redis_factory(request, redis_client):
    """Make more clients on ``redis_client``'s backend, e.g. one per thread."""
    from workers.connections import is_cluster
    server = request.getfixturevalue("fake_server") if isinstance(redis_client, fakeredis.FakeRedis) else None
    cluster = request.getfixturevalue("redis_cluster_server") if is_cluster(redis_client) else None
    clients = []

    def connect():
        if server is not None:
            client = fakeredis.FakeRedis(server=server, decode_responses=False)
        elif cluster is not None:
            client = cluster.client(decode_responses=False)
        else:
            client = _connect_real()
        clients.append(client)
        return client

    yield connect
    for client in clients:
        client.close()


@pytest.fixture
def key_prefix():
    """A key prefix unique to this test; its keys are removed from the real Redis afterwards.

    That includes RQ's keys for the prefix's queues and jobs, which RQ keeps under ``rq:``.
    """
    from workers.queues import purge

    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield prefix
    if _redis_url():
        client = redis.Redis.from_url(_redis_url())
        try:
            delete_keys_under(client, prefix)
            purge(client, prefix)
        finally:
            client.close()


@pytest.fixture
def define_event_type():
    """Register test-only event types (``Test...``) in the catalog for one test."""
    defined = []

    def define(name: str, fields: dict[str, str], **options) -> catalog.EventType:
        if not name.startswith("Test"):
            raise ValueError(f"test-only event types must be named Test..., not {name!r}")
        etype = catalog.define(name, f"test-only type {name}", fields, **options)
        defined.append(name)
        return etype

    yield define
    for name in defined:
        catalog.TYPES.pop(name, None)


# --- real service processes (gunicorn, cosmic worker) -----------------------------------------------

SERVICE_ADMIN_TOKEN = "e2e-admin-token"


def roomy_limits_env() -> dict:
    """Rate limits far above what a test uses, for the service processes of tests that are not about limits
    (they create games and play faster than any table); tests about limits pass their own in ``env``."""
    from workers.settings import ENV_NAMES, LIMIT_FIELDS
    return {ENV_NAMES[name]: "100000 per minute" for name in LIMIT_FIELDS}
SKIP_SERVICE_REASON = ("REDIS_URL is not set: this test starts gunicorn and/or `cosmic worker` against a real "
                       f"Redis (e.g. REDIS_URL={LOCAL_REDIS_URL} make test)")
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process(process: subprocess.Popen) -> None:
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


class ServiceProcesses:
    """gunicorn and `cosmic worker` processes of one test (see ``service_processes``)."""

    def __init__(self, prefix: str, folder: Path, cluster=None):
        self.prefix, self.folder, self.cluster = prefix, folder, cluster
        self.processes: list[subprocess.Popen] = []
        self.log_files: list[Path] = []

    @property
    def env(self) -> dict:
        """The environment the service processes get (REDIS_URL, RQ_REDIS_URL, COSMIC_PREFIX...)."""
        return self._environment(None)

    def data_client(self):
        """A client on the processes' game data (the cluster's, or REDIS_URL's)."""
        from workers.connections import connect
        return connect(self.env["REDIS_URL"])

    def __call__(self, web: bool = True, worker: bool = True, env: dict | None = None) -> str | None:
        environment = self._environment(env)
        port = free_port()
        if web:
            # gunicorn.conf.py's settings, as shipped (the gevent worker, its bounds), on a port of its own
            self._start(f"web-{len(self.processes)}", [
                str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{port}", "app.wsgi:app"], environment)
        if worker:
            self.worker(env=env)
        if not web:
            return None
        base = f"http://127.0.0.1:{port}"
        self._wait_healthy(base)
        return base

    def worker(self, name: str | None = None, *, plain_rq: bool = False, env: dict | None = None) -> subprocess.Popen:
        """Start one worker on REDIS_URL: ``cosmic worker``, or (``plain_rq``) RQ's own ``rq worker
        --with-scheduler`` on our queue names; its output goes to ``<name>.log`` (see `log_of`)."""
        from workers.queues import QUEUES, queue_name
        environment = self._environment(env)
        name = name or f"worker-{len(self.processes)}"
        command = [str(BIN / "cosmic"), "worker", "--name", f"{self.prefix}-{name}"]
        if plain_rq:
            command = [str(BIN / "rq"), "worker", "--with-scheduler", "--url", environment.get("RQ_REDIS_URL") or environment["REDIS_URL"],
                       "--name", f"{self.prefix}-{name}", *(queue_name(self.prefix, q) for q in QUEUES)]
        return self._start(name, command, environment)

    def kill(self, process: subprocess.Popen) -> None:
        """SIGKILL a process and everything it forked (a worker's scheduler): a crash, no cleanup."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def log_of(self, name: str) -> str:
        """The output of the process started as ``name``."""
        return (self.folder / f"{name}.log").read_text()

    def _environment(self, env: dict | None) -> dict:
        url = _redis_url()
        urls = {"REDIS_URL": url}
        if self.cluster is not None:
            urls = {"REDIS_URL": self.cluster.url, "RQ_REDIS_URL": self.cluster.queue_url}
        elif not url:
            pytest.skip(SKIP_SERVICE_REASON)
        return {**os.environ, **urls, "COSMIC_PREFIX": self.prefix, "COSMIC_ADMIN_TOKEN": SERVICE_ADMIN_TOKEN,
                "COSMIC_SNAPSHOT_EVERY": "50", "COSMIC_CHECKPOINT_EVERY": "500", **roomy_limits_env(), **(env or {})}

    def _start(self, name: str, command: list[str], environment: dict) -> subprocess.Popen:
        log = self.folder / f"{name}.log"
        self.log_files.append(log)
        self.processes.append(subprocess.Popen(command, cwd=PROJECT_ROOT, env=environment, stdout=log.open("w"),
                                               stderr=subprocess.STDOUT, start_new_session=True))
        return self.processes[-1]

    def embedded(self, env: dict | None = None) -> str:
        """`cosmic serve` without REDIS_URL (in-process Redis and worker, data in the test's folder); its URL."""
        port = free_port()
        environment = {name: value for name, value in os.environ.items() if name != "REDIS_URL"}
        environment.update({"COSMIC_ADMIN_TOKEN": SERVICE_ADMIN_TOKEN, "COSMIC_DATA_DIR": str(self.folder / "data"),
                            **roomy_limits_env(), **(env or {})})
        self._start(f"serve-{len(self.processes)}", [str(BIN / "cosmic"), "serve", "--port", str(port)], environment)
        base = f"http://127.0.0.1:{port}"
        self._wait_healthy(base)
        return base

    def _wait_healthy(self, base: str, seconds: float = 30) -> None:
        import requests
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check_running()
            try:
                if requests.get(f"{base}/health", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        pytest.fail("the service did not become healthy:\n" + self.logs())

    def check_running(self) -> None:
        """Fail the test with its output if a process has exited."""
        for process in self.processes:
            if process.poll() is not None:
                pytest.fail(f"{process.args[0]} exited with {process.returncode}:\n{self.logs()}")

    def logs(self, tail: int = 3000) -> str:
        """The processes' output (the end of each log)."""
        return "\n".join(f"--- {log.name}\n{log.read_text()[-tail:]}" for log in self.log_files if log.exists())

    def stop(self) -> None:
        for process in self.processes:
            stop_process(process)
        url = self.cluster.queue_url if self.cluster is not None else _redis_url()
        if url and self.processes:
            from workers.queues import purge
            client = redis.Redis.from_url(url)
            try:
                purge(client, self.prefix)
            finally:
                client.close()
        if self.cluster is not None:
            with self.cluster.client() as client:
                delete_keys_under(client, self.prefix)


@pytest.fixture(params=["redis", "cluster"])
def service_processes(request, key_prefix, tmp_path):
    """Start real service processes on REDIS_URL (or the cluster) under this test's prefix; see the module docstring."""
    cluster = request.getfixturevalue("redis_cluster_server") if request.param == "cluster" else None
    started = ServiceProcesses(key_prefix, tmp_path, cluster)
    yield started
    started.stop()


def pytest_report_header(config):
    """Say once, at the top, whether the real-Redis and end-to-end variants run, and why not."""
    from tests import rediscluster
    cluster = ("Redis Cluster: the [cluster] variants start a 3-master cluster from redis-server on loopback"
               if rediscluster.available() else f"Redis Cluster: skipped ({rediscluster.MISSING_REASON})")
    return [cluster, _real_header()]


def _real_header() -> str:
    url = _redis_url()
    if url:
        return f"real Redis: {url} (the store, projection, API and worker tests run on it too; e2e tests start gunicorn)"
    return ("real Redis: REDIS_URL is not set, so every test variant marked [real] and the end-to-end tests "
            f"are skipped (set REDIS_URL={LOCAL_REDIS_URL} to run them, as .ci/run does)")
