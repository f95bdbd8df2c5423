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
"""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as _multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST

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
