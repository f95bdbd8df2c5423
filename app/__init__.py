"""The HTTP service (Flask) and the ``cosmic`` command line.

`create_app(runtime)` builds the Flask app on a `workers.runtime.Runtime` (by default this
process's, from the environment). The routes live in `app.routes`, request schemas in
`app.schemas`, errors in `app.problems`, authentication in `app.auth`.
"""

from __future__ import annotations

# The longest URL the app serves; longer ones get its 414 problem. It stays below the servers' own
# bound on the request line (8190 bytes: gunicorn's largest, see gunicorn.conf.py; the embedded
# server's too), which answers longer lines with its own 414 before the app sees them.
MAX_URL_LENGTH = 4096


def create_app(runtime=None):
    """The Flask app serving the games of ``runtime``."""
    from flask import Flask

    from app import compact, limits, problems
    from app.auth import Tokens
    from app.feedcaps import FeedCaps
    from app.hub import FeedHub
    from app.players import Players
    from app.routes import feed, games, history, me, meta, metrics, play, seats, table, talk, webhooks
    from app.routes.common import GameIdConverter
    from workers import runtime as runtime_module

    runtime = runtime or runtime_module.current()
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    app.json.compact = True
    app.url_map.converters["gid"] = GameIdConverter
    app.url_map.strict_slashes = False
    app.extensions["cosmic"] = runtime
    app.extensions["cosmic.tokens"] = Tokens(runtime.store)
    app.extensions["cosmic.players"] = Players(runtime.store)
    settings = runtime.settings
    caps = FeedCaps(runtime.redis, settings.prefix, per_token=settings.feeds_per_token,
                    per_address=settings.feeds_per_address, per_process=settings.feeds_per_process)
    app.extensions["cosmic.feedcaps"] = caps
    app.extensions["cosmic.hub"] = FeedHub(runtime.store, runtime.new_connection, on_tick=caps.renew)
    problems.register(app)
    for blueprint in (meta.bp, games.bp, play.bp, feed.bp, webhooks.bp, history.bp, table.bp, metrics.bp,
                      talk.bp, me.bp, seats.bp):
        app.register_blueprint(blueprint)
    limits.install(app, runtime.settings)
    compact.install(app)
    _count_requests(app, runtime)

    @app.before_request
    def url_not_too_long():
        """A URL longer than any this API makes is a 414 problem (gunicorn's own limit sends HTML)."""
        from flask import request
        if len(request.full_path) > MAX_URL_LENGTH:
            raise problems.Problem(414, "uri-too-long", f"the URL is longer than {MAX_URL_LENGTH} characters")

    if runtime.service_keys is not None:
        _durable_answers(app, runtime)

    @app.after_request
    def no_sniffing(response):
        """Browsers must take every body for the type it is sent as (JSON, problem, event stream), and
        no answer is shown in another origin's frame or names its URL to the next page (the web table
        sets a fuller policy of its own: app/routes/table.py)."""
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
        return response

    return app


def _durable_answers(app, runtime) -> None:
    """The embedded mode: what an answer tells (a token, an idempotent answer, a subscription) is on disk before it leaves.

    After a flush that fails (a full disk) the answer is replaced by a 503: the client retries
    rather than hold a token or an answer that a crash would take back (workers/servicekeys.py).
    """
    import logging

    from app import problems

    @app.after_request
    def flush_service_keys(response):
        try:
            runtime.durable()
        except OSError:
            logging.getLogger(__name__).exception("data folder: could not save the service's keys before answering")
            return problems.problem_response(503, "service-unavailable", "the answer could not be saved to the data folder; "
                                             "try again", headers={"Retry-After": "1"})
        return response


def _count_requests(app, runtime) -> None:
    """Request counts and latencies per route template, and the events this process appends (workers/metrics.py)."""
    import time

    from flask import g, request

    from workers import metrics

    @app.before_request
    def start_clock():
        g.cosmic_started = time.perf_counter()

    @app.after_request
    def count(response):
        started = g.pop("cosmic_started", None)
        route = request.url_rule.rule if request.url_rule is not None else "(unmatched)"
        metrics.HTTP_REQUESTS.labels(request.method, route, str(response.status_code)).inc()
        if started is not None:
            metrics.HTTP_LATENCY.labels(request.method, route).observe(time.perf_counter() - started)
        return response

    runtime.commands.add_listener(lambda game_id, before, after, events: metrics.EVENTS_APPENDED.inc(len(events)))
