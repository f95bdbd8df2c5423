"""A throwaway Redis Cluster on loopback, started from the machine's ``redis-server``.

`LocalCluster` starts ``masters`` cluster-mode servers (and ``replicas`` replicas per master)
in a folder of its own, on ports free at the time (the cluster bus port is chosen free too,
with ``cluster-port``), joins them with ``redis-cli --cluster create --cluster-yes`` and waits
until every node reports ``cluster_state:ok``. It also starts one plain server for RQ's
queues, since RQ cannot use a cluster. Each server keeps an append-only file (fsync on
every write), so a killed master can be started again from its own files.

Used by the test suite (tests/conftest.py: the ``cluster`` variant of the Redis fixtures,
and the failover test) and by ``bench/load.py``.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis
from redis.cluster import ClusterNode, RedisCluster

ACTIVE: LocalCluster | None = None  # the test session's cluster, once started (see `queue_client_for`)
MISSING_REASON = "redis-server or redis-cli is not installed: the Redis Cluster variant cannot start a cluster"


def available() -> bool:
    """Whether this machine can start a local cluster (redis-server and redis-cli on PATH)."""
    return shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None


def _free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports nobody listens on right now (held open together while chosen)."""
    sockets = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


@dataclass
class Node:
    """One redis-server of the cluster (or the plain queue server)."""

    port: int
    bus_port: int
    folder: Path
    cluster: bool = True
    process: subprocess.Popen | None = None

    def command(self) -> list[str]:
        args = [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
                "--protected-mode", "no", "--logfile", "server.log"]
        if self.cluster:
            args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                     "--cluster-port", str(self.bus_port), "--cluster-node-timeout", "1500"]
        return args

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2, socket_connect_timeout=2)

    def wait_up(self, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        with self.client() as client:
            while True:
                try:
                    if client.ping():
                        return
                except redis.RedisError:
                    if time.monotonic() > deadline or (self.process and self.process.poll() is not None):
                        raise RuntimeError(f"redis-server on port {self.port} did not start: "
                                           f"{self.log_tail()}") from None
                    time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: a crash, nothing flushed beyond what the AOF already holds."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_tail(self, chars: int = 1500) -> str:
        log = self.folder / "server.log"
        return log.read_text(errors="replace")[-chars:] if log.exists() else "(no log)"


@dataclass
class LocalCluster:
    """A Redis Cluster of ``masters`` masters (``replicas`` replicas each) and a plain queue Redis."""

    folder: Path
    masters: int = 3
    replicas: int = 0
    nodes: list[Node] = field(default_factory=list)
    queue: Node | None = None

    @property
    def url(self) -> str:
        """REDIS_URL for the service: ``redis+cluster://`` and every node."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)

    @property
    def queue_url(self) -> str:
        """RQ_REDIS_URL for the service: the plain server."""
        return f"redis://127.0.0.1:{self.queue.port}/0"

    def start(self, timeout: float = 30) -> LocalCluster:
        """Start the servers, create the cluster and wait until it serves every slot."""
        count = self.masters * (1 + self.replicas)
        ports = _free_ports(2 * count + 1)
        self.nodes = [Node(ports[2 * k], ports[2 * k + 1], self.folder / f"node-{ports[2 * k]}") for k in range(count)]
        self.queue = Node(ports[-1], 0, self.folder / "queue", cluster=False)
        for node in [*self.nodes, self.queue]:
            node.start()
        for node in [*self.nodes, self.queue]:
            node.wait_up()
        create = [shutil.which("redis-cli"), "--cluster", "create",
                  *(f"127.0.0.1:{node.port}" for node in self.nodes),
                  "--cluster-replicas", str(self.replicas), "--cluster-yes"]
        done = subprocess.run(create, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            self.stop()
            raise RuntimeError(f"redis-cli --cluster create failed: {done.stdout[-2000:]} {done.stderr[-2000:]}")
        self.wait_ok(timeout)
        return self

    def wait_ok(self, timeout: float = 30, nodes: list[Node] | None = None) -> None:
        """Wait until every running node says ``cluster_state:ok`` and all of them agree on the slots' masters."""
        deadline = time.monotonic() + timeout
        while True:
            if self._agreed(nodes):
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not become ok: " +
                                   " | ".join(node.log_tail(400) for node in self.nodes))
            time.sleep(0.1)

    def _agreed(self, nodes: list[Node] | None) -> bool:
        views = set()
        for node in nodes or self.running():
            try:
                with node.client() as client:
                    if client.cluster("info").get("cluster_state") != "ok":
                        return False
                    slots = client.execute_command("CLUSTER", "SLOTS")
            except redis.RedisError:
                return False
            views.add(tuple(sorted((int(s[0]), int(s[1]), int(s[2][1])) for s in slots)))
        return len(views) == 1 and sum(end - start + 1 for start, end, _ in next(iter(views))) == 16384

    def running(self) -> list[Node]:
        """The cluster nodes whose process is alive."""
        return [node for node in self.nodes if node.process is not None and node.process.poll() is None]

    def client(self, **options) -> RedisCluster:
        """A cluster client (bytes replies unless told otherwise)."""
        return RedisCluster(startup_nodes=[ClusterNode("127.0.0.1", node.port) for node in self.running()],
                            **options)

    def queue_client(self, **options) -> redis.Redis:
        """A client on the plain queue server."""
        return redis.Redis.from_url(self.queue_url, **options)

    def master_of(self, key: str) -> Node:
        """The node serving the slot of ``key`` now."""
        with self.client() as client:
            port = client.get_node_from_key(key).port
        return next(node for node in self.nodes if node.port == port)

    def memory_used(self) -> int:
        """Bytes used by the masters' data sets (``used_memory`` summed over the masters)."""
        total = 0
        for node in self.running():
            with node.client() as client:
                if client.info("replication").get("role") == "master":
                    total += int(client.info("memory")["used_memory"])
        return total

    def stop(self) -> None:
        """Stop every server (the folder is the caller's to remove)."""
        for node in [*self.nodes, *([self.queue] if self.queue else [])]:
            node.stop()


def queue_client_for(data_client) -> redis.Redis | None:
    """RQ's client to pair with a game-data client: a new client on the session cluster's queue
    server when ``data_client`` is a cluster client, else None (RQ shares the data client)."""
    if ACTIVE is None or not isinstance(data_client, RedisCluster):
        return None
    return ACTIVE.queue_client()
