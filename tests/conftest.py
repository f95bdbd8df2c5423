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
                    and, when REDIS_URL is set, again on real Redis.
``redis_factory``   a callable returning a *new* client on the same backend as
                    ``redis_client`` (same FakeServer, or REDIS_URL): give each thread or
                    simulated process its own connection. Closed after the test.
``key_prefix``      a unique prefix per test (``test-<hex>``) for every key a test writes.
                    Afterwards every key under it on the real Redis is deleted (SCAN MATCH +
                    DEL, never FLUSHDB); fakeredis needs no cleanup.

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
import sys
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

SKIP_REAL_REASON = "REDIS_URL is not set: real-Redis variant skipped (e.g. REDIS_URL=redis://127.0.0.1:6379/15)"


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


@pytest.fixture(params=["fake", "real"])
def redis_client(request):
    """The same test on fakeredis and (with REDIS_URL) on real Redis."""
    return request.getfixturevalue(f"{request.param}_redis")


@pytest.fixture
def redis_factory(request, redis_client):
    """Make more clients on ``redis_client``'s backend, e.g. one per thread."""
    server = request.getfixturevalue("fake_server") if isinstance(redis_client, fakeredis.FakeRedis) else None
    clients = []

    def connect():
        if server is not None:
            client = fakeredis.FakeRedis(server=server, decode_responses=False)
        else:
            client = _connect_real()
        clients.append(client)
        return client

    yield connect
    for client in clients:
        client.close()


@pytest.fixture
def key_prefix():
    """A key prefix unique to this test; its keys are removed from the real Redis afterwards."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    yield prefix
    if _redis_url():
        client = redis.Redis.from_url(_redis_url())
        try:
            delete_keys_under(client, prefix)
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
