"""``cosmic serve``: the whole service in one process (embedded), or the web tier under gunicorn.

- No ``REDIS_URL``: an in-process Redis (fakeredis), games loaded from and mirrored to the
  data folder, an in-process RQ worker thread, and a threaded HTTP server, all in this one
  process. Stop it with Ctrl-C; start it again and the games are back.
- ``REDIS_URL`` set: gunicorn with threaded workers (``gthread``, needed for the
  server-sent-events feed) on that Redis; run ``cosmic worker`` next to it for the jobs.
"""

from __future__ import annotations

import dataclasses
import secrets
import signal
import sys

from workers.settings import Settings


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 2, threads: int = 16) -> int:
    """Run until interrupted; returns the exit status."""
    if settings.embedded:
        return serve_embedded(settings, host, port)
    return serve_gunicorn(host, port, workers, threads)


def serve_embedded(settings: Settings, host: str, port: int) -> int:
    """Everything in this process: fakeredis, the data folder, a worker thread, a threaded server."""
    from werkzeug.serving import make_server

    from app import create_app
    from workers import runtime as runtime_module
    from workers.embedded import EmbeddedWorker
    from workers.runtime import Runtime

    if not settings.admin_token:
        settings = dataclasses.replace(settings, admin_token=secrets.token_urlsafe(18))
        print(f"COSMIC_ADMIN_TOKEN not set; this run's admin token: {settings.admin_token}", file=sys.stderr)
    runtime = Runtime(settings)
    report = runtime.attach_data_folder(settings.data_dir)
    runtime_module.install(runtime)
    print(f"loaded {len(report['loaded'])} game(s) from {settings.data_dir}"
          + (f"; NOT loaded (see log): {', '.join(sorted(report['failed']))}" if report["failed"] else ""),
          file=sys.stderr)
    worker = EmbeddedWorker(runtime).start()
    server = make_server(host, port, create_app(runtime), threaded=True)
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"serving on http://{host}:{server.server_port} (embedded Redis, games kept in {settings.data_dir})",
          file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        worker.stop()
        runtime.close()
    return 0


def _interrupt(signum, frame):
    """SIGTERM stops the embedded server as Ctrl-C does (the data folder is already up to date)."""
    raise KeyboardInterrupt


def serve_gunicorn(host: str, port: int, workers: int, threads: int) -> int:
    """The web tier under gunicorn (each worker process builds its runtime from the environment)."""
    from gunicorn.app.base import BaseApplication

    class Gunicorn(BaseApplication):
        def load_config(self):
            for name, value in {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                                "worker_class": "gthread", "timeout": 60, "accesslog": "-",
                                "limit_request_line": 0}.items():  # the app refuses long URLs (gunicorn.conf.py)
                self.cfg.set(name, value)

        def load(self):
            from app import create_app
            return create_app()

    Gunicorn().run()
    return 0
