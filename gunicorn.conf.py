"""gunicorn's settings for this service (gunicorn reads ./gunicorn.conf.py from the directory it starts in;
`cosmic serve` applies the same ones). Command-line flags still win.

They live in app/servers.py (`gunicorn_settings`): the gevent worker (a live feed or a slow client
costs a greenlet, not a thread), 6000 connections per worker, a request line of at most 8190 bytes,
100 header fields of at most 8190 bytes, every request's head within 5 s, problem documents for
what gunicorn refuses itself, the open-file limit raised to its hard limit, and a fresh
PROMETHEUS_MULTIPROC_DIR for GET /metrics.
"""

from app.servers import gunicorn_settings

globals().update(gunicorn_settings())
