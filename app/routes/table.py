"""The web table: static files (plain ES modules, CSS, an HTML shell) under ``/table/``.

The page is a client like any other: it reads and plays games through the public API only
(board, events, stream, prompts, actions, lobby, audit), with the token its user gives it.
Nothing is built at run time; the files are served as they are in ``app/table``. Only the
files listed in `FILES` are served (a fixed list, so no path from the URL reaches the disk).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response

from app.problems import Problem

bp = Blueprint("table", __name__)
FOLDER = Path(__file__).resolve().parent.parent / "table"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
FILES = ("index.html", "table.css", "main.js", "api.js", "live.js", "board.js", "prompts.js", "deal.js",
         "lobby.js", "replay.js", "dom.js", "catalogue.js", "cards.js", "encounter.js", "panels.js", "status.js",
         "talk.js", "seat.js")


@bp.get("/table/")
def page():
    """The table's page (lobby, board, play, replay: which one the URL's fragment says)."""
    return _send("index.html")


@bp.get("/table/<name>")
def asset(name: str):
    """One of the table's static files."""
    if name not in FILES:
        raise Problem(404, "not-found", "no such file of the web table")
    return _send(name)


# What the table's pages may do: load their own files only, talk to this origin only, never be
# framed by any page (clickjacking a seat's "play" button from another origin), no plugins, no
# <base> or form posts elsewhere. Scripts set CSS custom properties through the CSSOM, which
# style-src 'self' allows; nothing is inline.
POLICY = "; ".join((
    "default-src 'self'", "img-src 'self' data:", "style-src 'self'", "script-src 'self'", "connect-src 'self'",
    "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
))


def _send(name: str) -> Response:
    body = _read(name)
    response = Response(body, mimetype=TYPES[Path(name).suffix])
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Frame-Options"] = "DENY"  # frame-ancestors for browsers that predate it
    response.headers["Referrer-Policy"] = "no-referrer"  # links out of a game page name no game
    return response


@cache
def _read(name: str) -> bytes:
    return (FOLDER / name).read_bytes()
