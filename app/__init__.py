"""The HTTP service (Flask) and the ``cosmic`` command line.

`create_app(runtime)` builds the Flask app on a `workers.runtime.Runtime` (by default this
process's, from the environment). The routes live in `app.routes`, request schemas in
`app.schemas`, errors in `app.problems`, authentication in `app.auth`.
"""

from __future__ import annotations

MAX_URL_LENGTH = 16 * 1024


def create_app(runtime=None):
    """The Flask app serving the games of ``runtime``."""
    from flask import Flask

    from app import limits, problems
    from app.auth import Tokens
    from app.routes import feed, games, history, meta, play, table, webhooks
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
    problems.register(app)
    for blueprint in (meta.bp, games.bp, play.bp, feed.bp, webhooks.bp, history.bp, table.bp):
        app.register_blueprint(blueprint)
    limits.install(app, runtime.settings)

    @app.before_request
    def url_not_too_long():
        """A URL longer than any this API makes is a 414 problem (gunicorn's own limit sends HTML)."""
        from flask import request
        if len(request.full_path) > MAX_URL_LENGTH:
            raise problems.Problem(414, "uri-too-long", f"the URL is longer than {MAX_URL_LENGTH} characters")

    @app.after_request
    def no_sniffing(response):
        """Browsers must take every body for the type it is sent as (JSON, problem, event stream)."""
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    return app
