"""The HTTP servers the service runs under, and the bounds they keep before a request reaches the app.

Both servers are gevent's: a connection (a live feed, a slow client) costs a greenlet and its
buffers, never a thread.

- **gunicorn** (`cosmic serve` with ``REDIS_URL``, gunicorn.conf.py, the container):
  `gunicorn_settings` and this module's `GeventWorker`, gunicorn's gevent worker answering
  the requests it refuses itself with problem documents instead of HTML.
- **the embedded server** (`cosmic serve` without ``REDIS_URL``): `embedded_server`, gevent's
  WSGI server with `BoundedHandler`.

The bounds, the same in both:

- a request line of at most `MAX_REQUEST_LINE` bytes (8190: gunicorn's largest) else 414;
  the app's own 414 problem covers URLs over `app.MAX_URL_LENGTH` (4096) below that;
- at most `MAX_HEADER_FIELDS` header fields of at most `MAX_HEADER_FIELD_SIZE` bytes each,
  else 431;
- the request's head (line and headers) within `HEAD_TIMEOUT` seconds, and the next request
  on a kept-alive connection within as long, else the connection is closed (a client sending
  one header line every few seconds holds a greenlet that long, then nothing);
- a body of at most 64 KiB (the app's ``MAX_CONTENT_LENGTH``: 413).
"""

from __future__ import annotations

import json
import logging
import os
import resource
import shutil
import sys
import tempfile

import gevent
from gevent import pywsgi
from gunicorn.http import errors as http_errors
from gunicorn.workers import ggevent

log = logging.getLogger(__name__)

MAX_REQUEST_LINE = 8190
MAX_HEADER_FIELDS = 100
MAX_HEADER_FIELD_SIZE = 8190
HEAD_TIMEOUT = 5
WORKER_CONNECTIONS = 6000  # per gunicorn worker: above COSMIC_FEEDS_PER_PROCESS (5000), so feeds never fill it


def gunicorn_settings() -> dict:
    """gunicorn's settings for this service (gunicorn.conf.py and `cosmic serve` use them both)."""
    return {
        "worker_class": "app.servers.GeventWorker",
        "workers": 2,
        "worker_connections": WORKER_CONNECTIONS,
        "timeout": 60,
        "keepalive": HEAD_TIMEOUT,  # the gevent worker reads every request's head within this many seconds
        "limit_request_line": MAX_REQUEST_LINE,
        "limit_request_fields": MAX_HEADER_FIELDS,
        "limit_request_field_size": MAX_HEADER_FIELD_SIZE,
        "accesslog": "-",
        "control_socket_disable": True,  # gunicorn 24+'s control socket is one path per user: several would clash
        "on_starting": on_starting,
        "child_exit": child_exit,
    }


def on_starting(server=None) -> None:
    """Before the workers start: room for many connections, and a fresh folder for the metrics."""
    raise_file_limit()
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):  # the last run's values are not this run's
            if name.endswith(".db"):
                os.unlink(os.path.join(folder, name))
    else:
        folder = tempfile.mkdtemp(prefix="cosmic-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
        import atexit
        atexit.register(shutil.rmtree, folder, True)


def child_exit(server, worker) -> None:
    """A worker process ended: its live gauges (open feeds) no longer count."""
    from workers.metrics import process_exited
    process_exited(worker.pid)


def raise_file_limit() -> int:
    """Lift this process's open-file limit to its hard limit (each open feed is a socket); returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft


# --- problem documents written straight to the socket -------------------------------------------

REASONS = {400: "Bad Request", 413: "Content Too Large", 414: "URI Too Long", 431: "Request Header Fields Too Large"}


def problem_bytes(status: int, slug: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response carrying a problem document, closing the connection."""
    from app.problems import MEDIA_TYPE, TITLES, TYPE_PREFIX
    body = json.dumps({"type": TYPE_PREFIX + slug, "title": TITLES[slug], "status": status,
                       "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: {MEDIA_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("latin-1") + body


LINE_TOO_LONG = (414, "uri-too-long", f"the request line is longer than {MAX_REQUEST_LINE} bytes")
HEADERS_TOO_LARGE = (431, "headers-too-large", f"the request has more than {MAX_HEADER_FIELDS} header fields "
                                               f"or one longer than {MAX_HEADER_FIELD_SIZE} bytes")


class GeventWorker(ggevent.GeventWorker):
    """gunicorn's gevent worker; what it refuses before the app (a request line or headers too large,
    malformed HTTP) it answers with a problem document, as the app answers everything else."""

    def handle_error(self, req, client, addr, exc):
        if isinstance(exc, http_errors.LimitRequestLine):
            answer = LINE_TOO_LONG
        elif isinstance(exc, http_errors.LimitRequestHeaders):
            answer = HEADERS_TOO_LARGE
        elif isinstance(exc, (http_errors.InvalidRequestLine, http_errors.InvalidRequestMethod,
                              http_errors.InvalidHTTPVersion, http_errors.InvalidHeader,
                              http_errors.InvalidHeaderName, http_errors.ObsoleteFolding,
                              http_errors.InvalidChunkSize, http_errors.ChunkMissingTerminator,
                              http_errors.InvalidChunkExtension)):
            answer = (400, "malformed-http", f"the request is not valid HTTP/1.1: {str(exc)[:200]}")
        else:
            return super().handle_error(req, client, addr, exc)
        self.log.debug("refused before the app: %s", exc)
        try:
            client.sendall(problem_bytes(*answer))
        except OSError:
            pass


# --- the embedded server -------------------------------------------------------------------------

class _SlowHead(gevent.Timeout):
    """The request's head did not arrive in time."""


class _RequestLineTooLong(Exception):
    pass


class _HeadersTooLarge(ValueError):
    pass


class BoundedHandler(pywsgi.WSGIHandler):
    """gevent's WSGI handler with this module's bounds, answering refusals with problem documents."""

    def handle_one_request(self):
        try:
            return super().handle_one_request()
        except _SlowHead:
            return None  # close the connection; nothing was asked in time
        except _RequestLineTooLong:
            return ("414", problem_bytes(*LINE_TOO_LONG))
        finally:
            self._stop_head_clock()

    def read_requestline(self):
        self._head_clock = _SlowHead.start_new(HEAD_TIMEOUT, _SlowHead)
        line = self.rfile.readline(MAX_REQUEST_LINE + 1)
        if len(line) > MAX_REQUEST_LINE or (len(line) == MAX_REQUEST_LINE and not line.endswith(b"\n")):
            raise _RequestLineTooLong()
        return line.decode("latin-1")

    def read_request(self, raw_requestline):
        try:
            return super().read_request(raw_requestline)
        finally:
            self._stop_head_clock()

    def _stop_head_clock(self):
        clock = self.__dict__.pop("_head_clock", None)
        if clock is not None:
            clock.close()

    def MessageClass(self, fp, *args):  # noqa: N802 (pywsgi's name)
        """The headers, read line by line within the bounds (http.client's parser allows 64 KiB lines)."""
        lines = []
        while True:
            line = fp.readline(MAX_HEADER_FIELD_SIZE + 3)
            if line in (b"\r\n", b"\n", b""):
                break
            if len(line) > MAX_HEADER_FIELD_SIZE + 2 or len(lines) >= MAX_HEADER_FIELDS:
                raise _HeadersTooLarge()
            lines.append(line)
        from email.parser import Parser
        return Parser(_class=pywsgi.OldMessage).parsestr(b"".join(lines).decode("iso-8859-1"))

    def _handle_client_error(self, ex):
        if isinstance(ex, _HeadersTooLarge):
            self.log_error("(from %s) %s", self.client_address, HEADERS_TOO_LARGE[2])
            return ("431", problem_bytes(*HEADERS_TOO_LARGE))
        status, _ = super()._handle_client_error(ex)
        return (status, problem_bytes(400, "malformed-http", "the request is not valid HTTP/1.1"))


def embedded_server(host: str, port: int, app) -> pywsgi.WSGIServer:
    """gevent's WSGI server on ``host:port`` with `BoundedHandler` (not started)."""
    raise_file_limit()
    return pywsgi.WSGIServer((host, port), app, handler_class=BoundedHandler, log=sys.stderr, error_log=sys.stderr)
