"""``cosmic serve``: the whole service in one process (embedded), or the web tier under gunicorn.

Both serve with gevent (app/servers.py): a live feed or a slow client costs a greenlet, not a
thread, and the same bounds on request lines, headers and bodies apply.

- No ``REDIS_URL``: an in-process Redis (fakeredis), games loaded from and mirrored to the
  data folder, the in-process RQ worker, and gevent's WSGI server, all in this one process.
  `cosmic serve` monkey-patches the standard library first (app/cli.py), so the worker's threads
  are greenlets too and fakeredis' locks and waits are gevent's. Greenlets only switch when one
  waits, and neither fakeredis (no sockets) nor the compiled engine ever waits: a burst of bot
  moves would hold the server for the whole burst. So every append yields (`yield_after_append`):
  a request waits for at most one move, never for a burst. Stop it with Ctrl-C; start it again
  and the games are back.
- ``REDIS_URL`` set: gunicorn with its gevent worker (gunicorn.conf.py's settings,
  `app.servers.gunicorn_settings`) on that Redis; run ``cosmic worker`` next to it for the jobs.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import signal
import sys

from workers.settings import Settings


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 2,
          connections: int | None = None) -> int:
    """Run until interrupted; returns the exit status."""
    if settings.embedded:
        return serve_embedded(settings, host, port)
    return serve_gunicorn(host, port, workers, connections)


def serve_embedded(settings: Settings, host: str, port: int) -> int:
    """Everything in this process: fakeredis, the data folder, the worker, gevent's WSGI server."""
    from app import create_app
    from app.servers import embedded_server
    from workers import runtime as runtime_module
    from workers.embedded import EmbeddedWorker
    from workers.runtime import Runtime

    if not settings.admin_token:
        settings = dataclasses.replace(settings, admin_token=secrets.token_urlsafe(18))
        print(f"COSMIC_ADMIN_TOKEN not set; this run's admin token: {settings.admin_token}", file=sys.stderr)
    os.umask(0o077)  # every file this process makes (the data folder's above all) is its owner's alone
    runtime = Runtime(settings)
    report = runtime.attach_data_folder(settings.data_dir)
    runtime_module.install(runtime)
    print(f"loaded {len(report['loaded'])} game(s) from {settings.data_dir}"
          + (f"; NOT loaded (see log): {', '.join(sorted(report['failed']))}" if report["failed"] else ""),
          file=sys.stderr)
    runtime.commands.add_listener(yield_after_append)
    worker = EmbeddedWorker(runtime).start()
    server = embedded_server(host, port, create_app(runtime))
    server.start()
    stop_on_signals(server)
    print(f"serving on http://{host}:{server.server_port} (embedded Redis, games kept in {settings.data_dir})",
          file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop(timeout=1)
        worker.stop()
        runtime.close()
    return 0


def yield_after_append(game_id, before, after, events) -> None:
    """Let every other greenlet run after an append (a listener of the embedded runtime's commands).

    Under gevent, code that never waits is never interrupted: a bot job playing 200 moves on
    the in-process Redis would keep every request waiting until it ends. Each move appends, so
    yielding here bounds a request's wait by one move.
    """
    import gevent
    gevent.sleep(0)


def stop_on_signals(server) -> None:
    """SIGTERM and Ctrl-C (SIGINT) stop the embedded server: ``serve_forever`` returns, and the worker and
    the runtime are then closed in order (the data folder is already up to date).

    Handled by gevent's hub, in a greenlet of their own. Python's own handlers raise KeyboardInterrupt in
    whichever greenlet runs at that moment: in the one flushing the service's keys (holding their lock),
    that greenlet died with the lock held, and the closing save waited for it for ever.
    """
    import gevent

    for signum in (signal.SIGTERM, signal.SIGINT):
        gevent.signal_handler(signum, lambda: gevent.spawn(server.stop, 1))


def serve_gunicorn(host: str, port: int, workers: int, connections: int | None) -> int:
    """The web tier under gunicorn's gevent worker (each worker process builds its runtime from the environment)."""
    from gunicorn.app.base import BaseApplication

    from app.servers import gunicorn_settings

    class Gunicorn(BaseApplication):
        def load_config(self):
            settings = {**gunicorn_settings(), "bind": f"{host}:{port}", "workers": workers}
            if connections:
                settings["worker_connections"] = connections
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self):
            from app.wsgi import app
            return app

    Gunicorn().run()
    return 0
