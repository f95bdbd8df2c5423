"""Fixtures for worker tests: a runtime on this test's Redis backend and prefix, its RQ keys purged after."""

from __future__ import annotations

import pytest

from workers import runtime as runtime_module
from workers.queues import purge
from workers.runtime import Runtime
from workers.settings import Settings


@pytest.fixture
def runtime(redis_client, key_prefix):
    """A runtime installed as this process's (jobs find it with ``current()``), uninstalled afterwards."""
    built = Runtime(Settings(prefix=key_prefix, admin_token="adm", snapshot_every=10**6, checkpoint_every=10**6),
                    redis_client=redis_client)
    runtime_module.install(built)
    yield built
    runtime_module.install(None)
    purge(redis_client, key_prefix)
