"""The service's Prometheus metrics (prometheus_client), and how `cosmic worker` exports them.

Worker side (this module's metrics so far; the API's are defined here too, by the serving side):

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

from prometheus_client import Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

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
