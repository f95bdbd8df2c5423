"""The service's configuration, read from environment variables (documented in README.md)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Settings:
    """Every knob of the service; `from_env` names the variable of each."""

    redis_url: str | None = None         # REDIS_URL: none = embedded Redis (fakeredis) in process; may be a cluster
    rq_redis_url: str | None = None      # RQ_REDIS_URL: RQ's queues, scheduler and locks (default REDIS_URL)
    prefix: str = "cosmic"               # COSMIC_PREFIX: first part of every key and queue name
    admin_token: str | None = None       # COSMIC_ADMIN_TOKEN: none = no admin access
    data_dir: str = "data"               # COSMIC_DATA_DIR: where the embedded mode keeps its games
    snapshot_every: int = 100            # COSMIC_SNAPSHOT_EVERY: events between Redis snapshots
    checkpoint_every: int = 500          # COSMIC_CHECKPOINT_EVERY: events between kept checkpoints
    cache_games: int = 1000              # COSMIC_CACHE_GAMES: game states cached per process
    idempotency_ttl: int = 86400         # COSMIC_IDEMPOTENCY_TTL: seconds an Idempotency-Key is kept
    sse_keepalive: float = 15.0          # COSMIC_SSE_KEEPALIVE: seconds between keep-alive comments
    sse_max_seconds: float = 300.0       # COSMIC_SSE_MAX_SECONDS: longest a stream stays open
    feeds_per_token: int = 4             # COSMIC_FEEDS_PER_TOKEN: live feeds a seat token may hold open at once
    feeds_per_address: int = 32          # COSMIC_FEEDS_PER_ADDRESS: anonymous live feeds open at once per client address
    feeds_per_process: int = 5000        # COSMIC_FEEDS_PER_PROCESS: live feeds one API process serves at once
    action_retries: int = 5              # COSMIC_ACTION_RETRIES: re-decides after a conflicting append
    bot_moves: int = 50                  # COSMIC_BOT_MOVES: bot decisions per job before it hands over
    expert_steps: int = 4000             # COSMIC_EXPERT_STEPS: rollout answers an expert bot's decision may cost
    expert_seconds: float = 0.5          # COSMIC_EXPERT_SECONDS: CPU seconds an expert bot's decision may take at most
    webhook_timeout: float = 5.0         # COSMIC_WEBHOOK_TIMEOUT: seconds a webhook POST may take
    webhook_backoff: float = 2.0         # COSMIC_WEBHOOK_BACKOFF: seconds before the first retry (doubling)
    webhook_backoff_max: float = 600.0   # COSMIC_WEBHOOK_BACKOFF_MAX: longest wait between retries
    webhook_log_size: int = 1000         # COSMIC_WEBHOOK_LOG_SIZE: delivery attempts kept per subscription
    webhook_allow_private: bool = False  # COSMIC_WEBHOOK_ALLOW_PRIVATE: players' webhooks may target private hosts
    # Rate limits (app/limits.py; README "Limits"): flask-limiter strings ("N per minute; M per hour"), or
    # "none". Per bearer token (its digest) and per client address; the admin token is never limited.
    limit_create_token: str = "10 per minute; 60 per hour"       # COSMIC_LIMIT_CREATE_TOKEN: POST /games
    limit_create_address: str = "20 per minute; 200 per hour"    # COSMIC_LIMIT_CREATE_ADDRESS
    limit_fork_token: str = "5 per minute; 20 per hour"          # COSMIC_LIMIT_FORK_TOKEN: POST /games/{id}/fork
    limit_fork_address: str = "10 per minute; 60 per hour"       # COSMIC_LIMIT_FORK_ADDRESS
    limit_webhook_token: str = "10 per minute; 30 per hour"      # COSMIC_LIMIT_WEBHOOK_TOKEN: POST /webhooks
    limit_webhook_address: str = "20 per minute; 100 per hour"   # COSMIC_LIMIT_WEBHOOK_ADDRESS
    limit_message_token: str = "5 per 10 seconds; 30 per minute"  # COSMIC_LIMIT_MESSAGE_TOKEN: table talk per seat
    limit_message_address: str = "150 per minute"                 # COSMIC_LIMIT_MESSAGE_ADDRESS
    limit_player_token: str = "5 per minute; 20 per hour"        # COSMIC_LIMIT_PLAYER_TOKEN: POST /players
    limit_player_address: str = "5 per minute; 20 per hour"      # COSMIC_LIMIT_PLAYER_ADDRESS
    limit_write_token: str = "120 per minute"                     # COSMIC_LIMIT_WRITE_TOKEN: every POST and DELETE
    limit_write_address: str = "600 per minute"                   # COSMIC_LIMIT_WRITE_ADDRESS
    trusted_proxies: int = 0             # COSMIC_TRUSTED_PROXIES: proxies in front whose X-Forwarded-For is believed
    worker_metrics: str | None = None    # COSMIC_WORKER_METRICS: [host:]port of `cosmic worker`'s metrics; unset: none
    seal_key: str | None = None          # COSMIC_SEAL_KEY: the key exports are sealed with (workers/seal.py); unset: generated

    @property
    def embedded(self) -> bool:
        """Whether the service runs on an in-process Redis (no REDIS_URL)."""
        return not self.redis_url

    @property
    def worker_metrics_address(self) -> tuple[str, int] | None:
        """Where ``cosmic worker`` serves its metrics: (host, port), or None for nowhere."""
        return address(self.worker_metrics)

    @property
    def queue_url(self) -> str | None:
        """The Redis of RQ's queues: RQ_REDIS_URL, else REDIS_URL (never a cluster; see `check`)."""
        return self.rq_redis_url or self.redis_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from the environment; ValueError naming the variable for a bad value."""
        env = os.environ if environ is None else environ
        values = {}
        for spec in fields(cls):
            name = ENV_NAMES[spec.name]
            raw = env.get(name)
            if raw is None or raw == "":
                continue
            values[spec.name] = _parse(name, raw, spec.default)
        settings = cls(**values)
        settings.check()
        return settings

    def check(self) -> None:
        """Refuse values the service cannot run with."""
        if not self.prefix or any(c in self.prefix for c in "{}*?[] "):
            raise ValueError(f"COSMIC_PREFIX {self.prefix!r} may not be empty or hold braces, globs or spaces")
        for name in ("snapshot_every", "checkpoint_every", "cache_games", "idempotency_ttl"):
            if getattr(self, name) < 1:
                raise ValueError(f"{ENV_NAMES[name]} must be at least 1")
        if self.seal_key is not None and len(self.seal_key.encode("utf-8")) < 16:
            raise ValueError("COSMIC_SEAL_KEY must have at least 16 bytes (32 random ones, e.g. `openssl rand -hex 32`)")
        self._check_redis_urls()
        address(self.worker_metrics)  # (a ValueError naming the variable)
        if self.sse_keepalive <= 0 or self.sse_max_seconds <= 0 or self.action_retries < 0:
            raise ValueError("COSMIC_SSE_KEEPALIVE and COSMIC_SSE_MAX_SECONDS must be positive, "
                             "COSMIC_ACTION_RETRIES not negative")
        if min(self.feeds_per_token, self.feeds_per_address, self.feeds_per_process) < 1:
            raise ValueError("COSMIC_FEEDS_PER_TOKEN, COSMIC_FEEDS_PER_ADDRESS and COSMIC_FEEDS_PER_PROCESS "
                             "must be at least 1")
        if self.bot_moves < 1 or self.webhook_log_size < 1:
            raise ValueError("COSMIC_BOT_MOVES and COSMIC_WEBHOOK_LOG_SIZE must be at least 1")
        if self.expert_steps < 1 or not 0 < self.expert_seconds <= 60:
            raise ValueError("COSMIC_EXPERT_STEPS must be at least 1, COSMIC_EXPERT_SECONDS from 0 to 60 (above 0)")
        if self.webhook_timeout <= 0 or self.webhook_backoff <= 0 or self.webhook_backoff_max < self.webhook_backoff:
            raise ValueError("COSMIC_WEBHOOK_TIMEOUT and COSMIC_WEBHOOK_BACKOFF must be positive, "
                             "COSMIC_WEBHOOK_BACKOFF_MAX at least COSMIC_WEBHOOK_BACKOFF")
        self._check_limits()

    def _check_limits(self) -> None:
        from limits import parse_many
        for name in LIMIT_FIELDS:
            value = getattr(self, name)
            if value.strip().lower() == "none":
                continue
            try:
                parse_many(value)
            except ValueError:
                raise ValueError(f"{ENV_NAMES[name]} must be rate limits such as '10 per minute; 60 per hour' "
                                 f"(or 'none'), not {value!r}") from None
        if self.trusted_proxies < 0:
            raise ValueError("COSMIC_TRUSTED_PROXIES may not be negative")

    def _check_redis_urls(self) -> None:
        from workers.connections import is_cluster_url
        if self.rq_redis_url and not self.redis_url:
            raise ValueError("RQ_REDIS_URL is set without REDIS_URL: the embedded mode keeps its queues in process")
        if is_cluster_url(self.rq_redis_url):
            raise ValueError("RQ_REDIS_URL may not name a Redis Cluster: RQ needs a plain Redis for its queues")
        if is_cluster_url(self.redis_url) and not self.rq_redis_url:
            raise ValueError("REDIS_URL names a Redis Cluster, which RQ cannot use: set RQ_REDIS_URL to a plain "
                             "Redis for the job queues (e.g. RQ_REDIS_URL=redis://queue-host:6379/0)")


ENV_NAMES = {
    "redis_url": "REDIS_URL", "rq_redis_url": "RQ_REDIS_URL", "prefix": "COSMIC_PREFIX", "admin_token": "COSMIC_ADMIN_TOKEN",
    "data_dir": "COSMIC_DATA_DIR", "snapshot_every": "COSMIC_SNAPSHOT_EVERY",
    "checkpoint_every": "COSMIC_CHECKPOINT_EVERY", "cache_games": "COSMIC_CACHE_GAMES",
    "idempotency_ttl": "COSMIC_IDEMPOTENCY_TTL", "sse_keepalive": "COSMIC_SSE_KEEPALIVE",
    "sse_max_seconds": "COSMIC_SSE_MAX_SECONDS", "action_retries": "COSMIC_ACTION_RETRIES",
    "feeds_per_token": "COSMIC_FEEDS_PER_TOKEN", "feeds_per_address": "COSMIC_FEEDS_PER_ADDRESS",
    "feeds_per_process": "COSMIC_FEEDS_PER_PROCESS",
    "bot_moves": "COSMIC_BOT_MOVES", "expert_steps": "COSMIC_EXPERT_STEPS",
    "expert_seconds": "COSMIC_EXPERT_SECONDS", "webhook_timeout": "COSMIC_WEBHOOK_TIMEOUT",
    "webhook_backoff": "COSMIC_WEBHOOK_BACKOFF", "webhook_backoff_max": "COSMIC_WEBHOOK_BACKOFF_MAX",
    "webhook_log_size": "COSMIC_WEBHOOK_LOG_SIZE", "webhook_allow_private": "COSMIC_WEBHOOK_ALLOW_PRIVATE",
    **{f"limit_{kind}_{who}": f"COSMIC_LIMIT_{kind.upper()}_{who.upper()}"  # the rate limits' quotas
       for kind in ("create", "fork", "webhook", "message", "player", "write") for who in ("token", "address")},
    "trusted_proxies": "COSMIC_TRUSTED_PROXIES",
    "worker_metrics": "COSMIC_WORKER_METRICS",
    "seal_key": "COSMIC_SEAL_KEY",
}
LIMIT_FIELDS = tuple(name for name in ENV_NAMES if name.startswith("limit_"))


TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def address(text: str | None) -> tuple[str, int] | None:
    """``[host:]port`` as (host, port), host 127.0.0.1 by default; None (no server) for unset, empty or ``off``."""
    if text is None or text.strip().lower() in ("", "off", "none", "0"):
        return None
    host, sep, port = text.strip().rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"COSMIC_WORKER_METRICS must be [host:]port, not {text!r}") from None
    if not 0 < number < 65536:
        raise ValueError(f"COSMIC_WORKER_METRICS: no such port {number}")
    return (host.strip("[]") if sep and host else "127.0.0.1"), number


def _parse(name: str, raw: str, default):
    if isinstance(default, bool):
        if raw.strip().lower() not in TRUE + FALSE:
            raise ValueError(f"{name} must be true or false, not {raw!r}")
        return raw.strip().lower() in TRUE
    if default is None or isinstance(default, str):
        return raw
    try:
        return type(default)(raw)
    except ValueError:
        raise ValueError(f"{name} must be a {type(default).__name__}, not {raw!r}") from None
