"""The service's metrics (Prometheus, `prometheus_client`): every metric object is defined here.

Served by ``GET /metrics`` (app/routes/metrics.py) in the Prometheus text format, on the admin
token. Under gunicorn each worker process counts for itself: with ``PROMETHEUS_MULTIPROC_DIR``
set (gunicorn.conf.py and `cosmic serve` set it to a fresh folder) `prometheus_client` keeps
the values in files there and `exposition` adds up every process's. Without it (the embedded
mode, one process) the default registry is served.

API side (serving):

- ``cosmic_http_requests_total{method,route,status}``: requests answered, by route template.
- ``cosmic_http_request_duration_seconds{method,route}``: time to the response's head (a live
  feed counts until its headers go out, not for as long as it stays open).
- ``cosmic_feeds_open{kind}``: live feeds open now (``seat``, ``anonymous``, ``admin``).
- ``cosmic_feeds_refused_total{reason}``: feeds refused by a cap (``token``, ``address``, ``process``).
- ``cosmic_feed_catch_ups_total``: times a feed fell a buffer behind and read from the store instead.
- ``cosmic_events_appended_total``: events appended by commands run in this process (the API's;
  a worker process counts its own).

Worker side (`cosmic worker`):

- ``cosmic_timer_lateness_seconds`` (histogram): from a decision's deadline to the moment its
  default was appended (`workers.timers.expire`, run by `workers.timekeeper`);
- ``cosmic_timers_fired_total{result}`` (counter): timers run, by what they did (``applied``,
  ``stale``, ``busy``, ``storage-unavailable``, ...);
- ``cosmic_timers_pending`` (gauge): timers scheduled and not fired yet;
- ``cosmic_queue_depth{queue}`` (gauge): jobs waiting in each RQ queue (``high``, ``default``,
  ``low``) and ``cosmic_queue_scheduled{queue}``: jobs scheduled for later (retries);
- ``cosmic_webhook_delivery_lag_seconds`` (histogram): from an event's append to its 2xx delivery;
- ``cosmic_webhook_attempts_total{outcome}`` (counter): delivery attempts, ``ok`` or ``failed``;
- ``cosmic_bot_moves_total`` (counter) and ``cosmic_bot_move_seconds`` (histogram): decisions
  answered by bot seats, and what one cost (choosing, checking and appending it).

The gauges are set by the worker's clock thread about once a second (`workers.timekeeper`).
`serve` starts prometheus_client's own HTTP exporter in a daemon thread: ``cosmic worker``
calls it with ``COSMIC_WORKER_METRICS`` (``[host:]port``; unset: no exporter). Each worker
process exports its own figures; Prometheus scrapes every worker.
"""

from __future__ import annotations

import logging
import os

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, start_http_server
from prometheus_client import multiprocess as _multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST

log = logging.getLogger(__name__)

CONTENT_TYPE = CONTENT_TYPE_LATEST
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

HTTP_REQUESTS = Counter("cosmic_http_requests_total", "HTTP requests answered, by route template and status",
                        ["method", "route", "status"])
HTTP_LATENCY = Histogram("cosmic_http_request_duration_seconds", "Time from a request to its response's head",
                         ["method", "route"], buckets=LATENCY_BUCKETS)
FEEDS_OPEN = Gauge("cosmic_feeds_open", "Live feeds (server-sent events) open now", ["kind"],
                   multiprocess_mode="livesum")
FEEDS_REFUSED = Counter("cosmic_feeds_refused_total", "Live feeds refused by a cap", ["reason"])
FEED_CATCH_UPS = Counter("cosmic_feed_catch_ups_total",
                         "Times a live feed fell a whole buffer behind and read from the store instead")
EVENTS_APPENDED = Counter("cosmic_events_appended_total", "Events appended by commands run in this process")


def multiprocess() -> bool:
    """Whether the values are kept in files for several processes (``PROMETHEUS_MULTIPROC_DIR``)."""
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or os.environ.get("prometheus_multiproc_dir"))


def exposition() -> bytes:
    """Every metric in the Prometheus text format: all processes' under gunicorn, else this one's."""
    if multiprocess():
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    from prometheus_client import REGISTRY
    return generate_latest(REGISTRY)


def process_exited(pid: int) -> None:
    """Forget a dead worker's live gauges (gunicorn's ``child_exit`` hook)."""
    if multiprocess():
        _multiprocess.mark_process_dead(pid)


# Worker side
LATENESS_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

TIMER_LATENESS = Histogram("cosmic_timer_lateness_seconds",
                           "Seconds from a decision's deadline to its default being appended",
                           buckets=LATENESS_BUCKETS)
TIMERS_FIRED = Counter("cosmic_timers_fired", "Timers run, by what they did", ["result"])
TIMERS_PENDING = Gauge("cosmic_timers_pending", "Timers scheduled and not fired yet")
QUEUE_DEPTH = Gauge("cosmic_queue_depth", "Jobs waiting in an RQ queue", ["queue"])
QUEUE_SCHEDULED = Gauge("cosmic_queue_scheduled", "Jobs of an RQ queue scheduled for later", ["queue"])
WEBHOOK_LAG = Histogram("cosmic_webhook_delivery_lag_seconds",
                        "Seconds from an event's append to its successful webhook delivery",
                        buckets=LATENESS_BUCKETS + (120.0, 600.0))
WEBHOOK_ATTEMPTS = Counter("cosmic_webhook_attempts", "Webhook delivery attempts", ["outcome"])
BOT_MOVES = Counter("cosmic_bot_moves", "Decisions answered by bot seats")
BOT_MOVE_SECONDS = Histogram("cosmic_bot_move_seconds", "Seconds one bot move took (choose, check, append)",
                             buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))


def serve(address: tuple[str, int]) -> bool:
    """Export this process's metrics over HTTP at ``address`` (a daemon thread); False if the port is taken."""
    host, port = address
    try:
        start_http_server(port, addr=host)
    except OSError as err:  # (another worker on this host has the port): work on, without an exporter
        log.warning("metrics: cannot listen on %s:%s (%s); this worker exports no metrics", host, port, err)
        return False
    log.info("metrics: serving on http://%s:%s/metrics", host, port)
    return True
