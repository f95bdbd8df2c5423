"""The WSGI entry point for gunicorn: ``gunicorn app.wsgi:app`` (configuration from the environment).

Each worker process serves thousands of connections as greenlets, so its Redis client takes a
bounded pool: at most `REDIS_CONNECTIONS` connections, a request waiting (as a greenlet) for a
free one rather than opening more. Idle live feeds hold none (app/hub.py); the bound only caps a
burst of requests running at once. (On a Redis Cluster, redis-py's per-node pools apply.)
"""

from __future__ import annotations

from app import create_app

REDIS_CONNECTIONS = 64


def build():
    """This process's app, its runtime on a bounded Redis pool (plain Redis) or as the runtime builds it."""
    import redis

    from workers import connections
    from workers import runtime as runtime_module
    from workers.runtime import Runtime
    from workers.settings import Settings

    settings = Settings.from_env()
    if settings.redis_url and not connections.is_cluster_url(settings.redis_url):
        pool = redis.BlockingConnectionPool.from_url(settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=5,
                                                     health_check_interval=30)
        runtime_module.install(Runtime(settings, redis_client=redis.Redis(connection_pool=pool)))
    return create_app()


app = build()
