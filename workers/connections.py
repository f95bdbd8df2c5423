"""Redis clients from URLs: a plain Redis, or a Redis Cluster for the game data.

``REDIS_URL`` may name a cluster as ``redis+cluster://host:port[,host:port...]`` (or
``rediss+cluster://`` for TLS): redis-py's `RedisCluster` connects to the first reachable
node given and learns the rest of the cluster from it. Every key of one game carries the
``{game_id}`` hash tag, so each game's multi-key work (the append script, snapshots,
consents) stays on one slot; keys shared by all games (the status lists, the token index)
are single keys touched one command at a time.

RQ cannot use a cluster (its keys are not hash-tagged and it moves jobs between keys), so
its queues, scheduler and locks live on ``RQ_REDIS_URL``, a plain Redis.

A failed master must cost only the games on it (issue 27). redis-py's cluster client, left to
itself, answers a connection error by trying the command again up to ten times (redis-py 8),
refreshing the cluster's topology before each try, and each refresh drops the connections of a
healthy node that every other thread then makes again: one dead master turned every command
sent to it into a burst of refreshes and reconnections felt by all. `connect` builds the
cluster client so that a node that refused (or dropped) a connection is *down* for
`DOWN_SECONDS`: a command for it fails at once (its caller answers 503 with Retry-After, a job
tries again later), the command is tried once more at most, and the topology is refreshed after
such errors at most once per `DOWN_SECONDS` (a refresh that follows a MOVED answer, which tells
where a slot went, is never held back). Connecting gives up after `CONNECT_TIMEOUT` seconds, so a
node that hangs instead of refusing is down soon too.
"""

from __future__ import annotations

import threading
import time
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

DOWN_SECONDS = 1.0       # how long a node that failed a connection is left alone
CONNECT_TIMEOUT = 2.0    # seconds a connection to a cluster node may take to open
CLUSTER_RETRIES = 1      # tries of a command after a connection error (after a topology refresh)

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def is_cluster_url(url: str | None) -> bool:
    """Whether a URL names a Redis Cluster (``redis+cluster://`` or ``rediss+cluster://``)."""
    return bool(url) and urlsplit(url).scheme.lower() in CLUSTER_SCHEMES


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The ``(host, port)`` of each node a cluster URL lists (port 6379 when left out)."""
    netloc = urlsplit(url).netloc.rpartition("@")[2]
    nodes = []
    for part in filter(None, netloc.split(",")):
        host, _, port = part.rpartition(":") if ":" in part else (part, "", "6379")
        nodes.append((host.strip("[]"), int(port or 6379)))
    if not nodes:
        raise ValueError(f"the cluster URL {redacted(url)} names no node")
    return nodes


def connect(url: str, **options) -> redis.Redis | RedisCluster:
    """A client for ``url``: a cluster client (see the module docstring) for a cluster URL, else
    ``redis.Redis.from_url``."""
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, **options)
    parts = urlsplit(url)
    first_host, first_port = cluster_nodes(url)[0]
    credentials = parts.netloc.rpartition("@")[0]
    plain = urlunsplit((CLUSTER_SCHEMES[parts.scheme.lower()],
                        f"{credentials + '@' if credentials else ''}{first_host}:{first_port}", "", parts.query, ""))
    startup = [ClusterNode(host, port) for host, port in cluster_nodes(url)]
    options.pop("health_check_interval", None)
    return _isolating(RedisCluster.from_url(plain, startup_nodes=startup, **cluster_options(options)))


def cluster_options(options: dict) -> dict:
    """``options`` for a ``RedisCluster`` of this service: short connects, no backoff sleeps, nodes that
    refused a connection left alone (`NodePool`); the rate limits' counters use them too."""
    return {"socket_connect_timeout": CONNECT_TIMEOUT, "retry": Retry(NoBackoff(), CLUSTER_RETRIES), **options,
            "connection_pool_class": NodePool}


class NodePool(redis.ConnectionPool):
    """One cluster node's connections: none is handed out while the node is down (see the module docstring)."""

    _down_until: dict[str, float] = {}  # "host:port" -> monotonic time (shared by every client of the process)

    def get_connection(self, *args, **kwargs):
        node = f"{self.connection_kwargs.get('host')}:{self.connection_kwargs.get('port')}"
        until = self._down_until.get(node)
        if until is not None and time.monotonic() < until:
            raise redis.ConnectionError(f"the Redis Cluster node {node} is down (it failed a connection less than "
                                        f"{DOWN_SECONDS:g} s ago)")
        try:
            connection = super().get_connection(*args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError):
            self._down_until[node] = time.monotonic() + DOWN_SECONDS
            raise
        self._down_until.pop(node, None)
        return connection


def _isolating(client: RedisCluster) -> RedisCluster:
    """Hold the client's topology refreshes after connection errors to one per `DOWN_SECONDS`."""
    manager = client.nodes_manager
    initialize = manager.initialize
    lock = threading.Lock()
    last = [time.monotonic()]

    def refresh(*args, **kwargs):
        if args or kwargs.get("additional_startup_nodes_info"):  # after MOVED: where a slot went
            return initialize(*args, **kwargs)
        with lock:
            if time.monotonic() - last[0] < DOWN_SECONDS:
                return None
            last[0] = time.monotonic()
        return initialize(*args, **kwargs)

    manager.initialize = refresh
    return client


def same_backend(client) -> redis.Redis | RedisCluster:
    """A new client (own connections) on the same server or cluster as ``client``."""
    if isinstance(client, RedisCluster):
        nodes = [ClusterNode(node.host, node.port) for node in client.get_nodes()]
        pool = client.get_default_node().redis_connection.connection_pool
        kwargs = {k: v for k, v in pool.connection_kwargs.items()
                  if k in ("password", "username", "decode_responses", "socket_timeout", "socket_connect_timeout")}
        scheme = "rediss" if issubclass(pool.connection_class, redis.SSLConnection) else "redis"
        first = f"{scheme}://{nodes[0].host}:{nodes[0].port}"
        return _isolating(RedisCluster.from_url(first, startup_nodes=nodes, **cluster_options(kwargs)))
    pool = client.connection_pool
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class,
                                                            **pool.connection_kwargs))


def is_cluster(client) -> bool:
    """Whether a client talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)


def redacted(url: str | None) -> str:
    """A URL without its password, for messages."""
    if not url:
        return repr(url)
    parts = urlsplit(url)
    user, _, rest = parts.netloc.rpartition("@")
    if not user:
        return url
    return urlunsplit((parts.scheme, f"{user.partition(':')[0]}:***@{rest}", parts.path, parts.query, ""))
