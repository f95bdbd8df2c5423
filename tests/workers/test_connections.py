"""Issue 13: REDIS_URL may name a Redis Cluster; RQ then needs RQ_REDIS_URL, a plain Redis."""

from __future__ import annotations

import pytest
from redis.cluster import RedisCluster

from workers.connections import cluster_nodes, connect, is_cluster_url, redacted
from workers.runtime import Runtime
from workers.settings import Settings

CLUSTER = "redis+cluster://node-a:7000,node-b:7001,node-c"


def test_a_cluster_url_names_its_nodes():
    assert is_cluster_url(CLUSTER) and is_cluster_url("rediss+cluster://h:1")
    assert not is_cluster_url("redis://h:6379/0") and not is_cluster_url(None)
    assert cluster_nodes(CLUSTER) == [("node-a", 7000), ("node-b", 7001), ("node-c", 6379)]
    assert cluster_nodes("redis+cluster://user:pw@h1:1,h2:2") == [("h1", 1), ("h2", 2)]
    assert redacted("redis+cluster://user:pw@h1:1") == "redis+cluster://user:***@h1:1"


def test_a_cluster_without_a_queue_redis_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="set RQ_REDIS_URL"):
        Settings.from_env({"REDIS_URL": CLUSTER})
    with pytest.raises(ValueError, match="RQ_REDIS_URL may not name a Redis Cluster"):
        Settings.from_env({"REDIS_URL": CLUSTER, "RQ_REDIS_URL": CLUSTER})
    with pytest.raises(ValueError, match="without REDIS_URL"):
        Settings.from_env({"RQ_REDIS_URL": "redis://q:6379/0"})
    settings = Settings.from_env({"REDIS_URL": CLUSTER, "RQ_REDIS_URL": "redis://q:6379/0"})
    assert (settings.redis_url, settings.queue_url) == (CLUSTER, "redis://q:6379/0")
    assert Settings.from_env({"REDIS_URL": "redis://h:6379/2"}).queue_url == "redis://h:6379/2"


def test_the_runtime_puts_game_data_on_the_cluster_and_rq_on_the_queue_redis(redis_cluster_server, key_prefix):
    settings = Settings(redis_url=redis_cluster_server.url, rq_redis_url=redis_cluster_server.queue_url,
                        prefix=key_prefix)
    runtime = Runtime(settings)
    try:
        assert isinstance(runtime.redis, RedisCluster) and not isinstance(runtime.rq_redis, RedisCluster)
        assert runtime.queue().connection is runtime.rq_redis
        runtime.commands.run("g-conn", {"action": "create", "seats": 2, "seed": "c", "at": 0})
        assert runtime.store.version("g-conn") == 1
        assert runtime.index.list()[1] == 1  # the games list is a key of its own, no scan of the nodes
        reader = runtime.new_connection()
        assert isinstance(reader, RedisCluster) and reader.exists(runtime.store.stream_key("g-conn")) == 1
        reader.close()
    finally:
        runtime.close()
        with redis_cluster_server.client() as client:
            for key in client.scan_iter(match=f"{key_prefix}*"):
                client.delete(key)


def test_a_cluster_client_without_rq_redis_is_refused(redis_cluster_server):
    client = connect(redis_cluster_server.url)
    try:
        with pytest.raises(ValueError, match="RQ cannot use"):
            Runtime(Settings(prefix="test-refused"), redis_client=client)
    finally:
        client.close()


def test_a_cluster_node_that_refused_a_connection_is_left_alone_for_a_second():
    import socket

    import redis

    from workers import connections
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    pool = connections.NodePool(host="127.0.0.1", port=port, socket_connect_timeout=1)
    with pytest.raises(redis.ConnectionError, match="refused"):
        pool.get_connection()
    with pytest.raises(redis.ConnectionError, match="is down"):  # at once, without a connection attempt
        pool.get_connection()
    pool._down_until[f"127.0.0.1:{port}"] = 0.0  # (its second is over): it is tried again
    with pytest.raises(redis.ConnectionError, match="refused"):
        pool.get_connection()


def test_the_cluster_clients_topology_is_refreshed_after_connection_errors_once_a_second_at_most(cluster_redis):
    from workers.connections import _isolating
    client = _isolating(RedisCluster(startup_nodes=cluster_redis.get_nodes()))
    try:
        epoch = client.nodes_manager._epoch
        client.nodes_manager.initialize(last_failed_node_name="somewhere:1")  # (within a second of the first)
        assert client.nodes_manager._epoch == epoch
        node = client.get_default_node()
        client.nodes_manager.initialize(additional_startup_nodes_info=[(node.host, node.port)])  # after MOVED: never held
        assert client.nodes_manager._epoch == epoch + 1
    finally:
        client.close()
