"""Redis clients from URLs: a plain Redis, or a Redis Cluster for the game data.

``REDIS_URL`` may name a cluster as ``redis+cluster://host:port[,host:port...]`` (or
``rediss+cluster://`` for TLS): redis-py's `RedisCluster` connects to the first reachable
node given and learns the rest of the cluster from it. Every key of one game carries the
``{game_id}`` hash tag, so each game's multi-key work (the append script, snapshots,
consents) stays on one slot; keys shared by all games (the status lists, the token index)
are single keys touched one command at a time.

RQ cannot use a cluster (its keys are not hash-tagged and it moves jobs between keys), so
its queues, scheduler and locks live on ``RQ_REDIS_URL``, a plain Redis.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import redis
from redis.cluster import ClusterNode, RedisCluster

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
    """A client for ``url``: `RedisCluster` for a cluster URL, else ``redis.Redis.from_url``."""
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, **options)
    parts = urlsplit(url)
    first_host, first_port = cluster_nodes(url)[0]
    credentials = parts.netloc.rpartition("@")[0]
    plain = urlunsplit((CLUSTER_SCHEMES[parts.scheme.lower()],
                        f"{credentials + '@' if credentials else ''}{first_host}:{first_port}", "", parts.query, ""))
    startup = [ClusterNode(host, port) for host, port in cluster_nodes(url)]
    options.pop("health_check_interval", None)
    return RedisCluster.from_url(plain, startup_nodes=startup, **options)


def same_backend(client) -> redis.Redis | RedisCluster:
    """A new client (own connections) on the same server or cluster as ``client``."""
    if isinstance(client, RedisCluster):
        nodes = [ClusterNode(node.host, node.port) for node in client.get_nodes()]
        kwargs = {k: v for k, v in client.get_default_node().redis_connection.connection_pool.connection_kwargs.items()
                  if k in ("password", "username", "decode_responses", "socket_timeout", "socket_connect_timeout")}
        return RedisCluster(startup_nodes=nodes, **kwargs)
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
