"""Configuration from environment variables."""

from __future__ import annotations

import pytest

from workers.settings import ENV_NAMES, Settings


def test_defaults_without_environment():
    settings = Settings.from_env({})
    assert settings.embedded and settings.prefix == "cosmic" and settings.admin_token is None
    assert settings.snapshot_every == 100 and settings.checkpoint_every == 500


def test_every_variable_is_read():
    env = {"REDIS_URL": "redis://h:1/2", "RQ_REDIS_URL": "redis://q:3/0", "COSMIC_PREFIX": "p1", "COSMIC_ADMIN_TOKEN": "t", "COSMIC_DATA_DIR": "/d",
           "COSMIC_SNAPSHOT_EVERY": "7", "COSMIC_CHECKPOINT_EVERY": "70", "COSMIC_CACHE_GAMES": "9",
           "COSMIC_IDEMPOTENCY_TTL": "60", "COSMIC_SSE_KEEPALIVE": "2.5", "COSMIC_SSE_MAX_SECONDS": "30",
           "COSMIC_ACTION_RETRIES": "2", "COSMIC_BOT_MOVES": "3", "COSMIC_WEBHOOK_TIMEOUT": "1.5",
           "COSMIC_WEBHOOK_BACKOFF": "0.2", "COSMIC_WEBHOOK_BACKOFF_MAX": "4", "COSMIC_WEBHOOK_LOG_SIZE": "5",
           "COSMIC_WEBHOOK_ALLOW_PRIVATE": "true",
           "COSMIC_LIMIT_CREATE_TOKEN": "1 per minute", "COSMIC_LIMIT_CREATE_ADDRESS": "2 per minute",
           "COSMIC_LIMIT_FORK_TOKEN": "3 per hour", "COSMIC_LIMIT_FORK_ADDRESS": "4 per hour",
           "COSMIC_LIMIT_WEBHOOK_TOKEN": "5/minute", "COSMIC_LIMIT_WEBHOOK_ADDRESS": "none",
           "COSMIC_LIMIT_MESSAGE_TOKEN": "2 per 10 seconds", "COSMIC_LIMIT_MESSAGE_ADDRESS": "9 per minute",
           "COSMIC_LIMIT_PLAYER_TOKEN": "3 per day", "COSMIC_LIMIT_PLAYER_ADDRESS": "6 per day",
           "COSMIC_LIMIT_WRITE_TOKEN": "7 per second; 70 per minute", "COSMIC_LIMIT_WRITE_ADDRESS": "8 per second",
           "COSMIC_TRUSTED_PROXIES": "2", "COSMIC_FEEDS_PER_TOKEN": "6", "COSMIC_FEEDS_PER_ADDRESS": "7",
           "COSMIC_FEEDS_PER_PROCESS": "8", "COSMIC_WORKER_METRICS": "0.0.0.0:9101",
           "COSMIC_SEAL_KEY": "k" * 32, "COSMIC_EXPERT_STEPS": "900", "COSMIC_EXPERT_SECONDS": "0.25"}
    assert set(env) == set(ENV_NAMES.values())
    settings = Settings.from_env(env)
    assert not settings.embedded
    assert (settings.redis_url, settings.prefix, settings.admin_token, settings.data_dir) == ("redis://h:1/2", "p1", "t", "/d")
    assert settings.rq_redis_url == settings.queue_url == "redis://q:3/0"
    assert (settings.snapshot_every, settings.checkpoint_every, settings.cache_games) == (7, 70, 9)
    assert (settings.idempotency_ttl, settings.sse_keepalive, settings.sse_max_seconds, settings.action_retries) == \
        (60, 2.5, 30.0, 2)
    assert (settings.bot_moves, settings.webhook_timeout, settings.webhook_backoff, settings.webhook_backoff_max,
            settings.webhook_log_size, settings.webhook_allow_private) == (3, 1.5, 0.2, 4.0, 5, True)
    assert (settings.limit_create_token, settings.limit_create_address, settings.limit_fork_token,
            settings.limit_fork_address, settings.limit_webhook_token, settings.limit_webhook_address,
            settings.limit_write_token, settings.limit_write_address) == (
        "1 per minute", "2 per minute", "3 per hour", "4 per hour", "5/minute", "none",
        "7 per second; 70 per minute", "8 per second")
    assert (settings.limit_message_token, settings.limit_message_address) == ("2 per 10 seconds", "9 per minute")
    assert (settings.limit_player_token, settings.limit_player_address) == ("3 per day", "6 per day")
    assert settings.trusted_proxies == 2
    assert (settings.feeds_per_token, settings.feeds_per_address, settings.feeds_per_process) == (6, 7, 8)
    assert settings.worker_metrics_address == ("0.0.0.0", 9101)
    assert settings.seal_key == "k" * 32
    assert (settings.expert_steps, settings.expert_seconds) == (900, 0.25)


def test_the_worker_metrics_address_is_a_port_with_a_host_or_nothing():
    assert Settings.from_env({}).worker_metrics_address is None
    assert Settings.from_env({"COSMIC_WORKER_METRICS": "9101"}).worker_metrics_address == ("127.0.0.1", 9101)
    assert Settings.from_env({"COSMIC_WORKER_METRICS": "off"}).worker_metrics_address is None


@pytest.mark.parametrize("env, name", [({"COSMIC_SNAPSHOT_EVERY": "many"}, "COSMIC_SNAPSHOT_EVERY"),
                                       ({"COSMIC_SNAPSHOT_EVERY": "0"}, "COSMIC_SNAPSHOT_EVERY"),
                                       ({"COSMIC_PREFIX": "a{b}"}, "COSMIC_PREFIX"),
                                       ({"COSMIC_WEBHOOK_ALLOW_PRIVATE": "maybe"}, "COSMIC_WEBHOOK_ALLOW_PRIVATE"),
                                       ({"COSMIC_WEBHOOK_BACKOFF": "-1"}, "COSMIC_WEBHOOK_BACKOFF"),
                                       ({"COSMIC_WORKER_METRICS": "host:port"}, "COSMIC_WORKER_METRICS"),
                                       ({"COSMIC_WORKER_METRICS": "70000"}, "COSMIC_WORKER_METRICS"),
                                       ({"COSMIC_FEEDS_PER_TOKEN": "0"}, "COSMIC_FEEDS_PER_TOKEN")])
def test_bad_values_name_their_variable(env, name):
    with pytest.raises(ValueError, match=name):
        Settings.from_env(env)


def test_an_expert_budget_must_be_some_steps_and_some_seconds():
    for env in ({"COSMIC_EXPERT_STEPS": "0"}, {"COSMIC_EXPERT_SECONDS": "0"}, {"COSMIC_EXPERT_SECONDS": "120"}):
        with pytest.raises(ValueError, match="COSMIC_EXPERT"):
            Settings.from_env(env)
