"""Answers sized for a phone: compression when the client asks for it, and validators on every cacheable read.

Compression (flask-compress, a maintained library; brotli through the ``brotli`` package):

- An answer is compressed only when the request's ``Accept-Encoding`` names ``br`` or ``gzip``
  (br first when both are named with the same weight), its type is one of `COMPRESSED` (JSON,
  problems, the contract, the web table's files) and its body is at least `MIN_SIZE` bytes (a
  smaller one gains nothing). It then carries ``Content-Encoding`` and ``Vary: Accept-Encoding``
  (every answer carries the ``Vary``, so a cache never hands a compressed body to a client that
  did not ask for one). Without ``Accept-Encoding`` nothing is compressed.
- The live feeds (``text/event-stream``) are not left to flask-compress, whose compressor holds
  bytes back until its block fills: a live feed must send each event as it happens. When the
  client takes gzip, `live` compresses a feed itself with zlib, flushing (``Z_SYNC_FLUSH``) after
  every message, so each message leaves whole and at once, and the deflate window still spans the
  messages (the repeated field names of a long catch-up cost little). Without gzip a feed is sent
  as it is.

Validators (ETag, ``If-None-Match``, 304):

- The reads of one game's version (board, hand, prompts, events) carry ``ETag: "<version>"``
  (`app.http.versioned`); every other cacheable read (the catalogue, the games list, the contract,
  the web table's files) gets an ETag from its body's digest here. A request whose
  ``If-None-Match`` names the current one is answered 304 with no body.
- A game's version is its ETag whatever the encoding (``"12"``, gzipped or not): clients read it
  as the version and send it back in ``If-Match``, and ``Vary: Accept-Encoding`` keeps a cache's
  copies of the two bodies apart. Any other compressed answer's strong ETag names its encoding
  (``"<digest>:gzip"``, flask-compress's form). The suffixed form is accepted back wherever a
  version is (``If-None-Match``, and ``If-Match`` on writes: `app.http.ETAG_RE`), as an older
  client may hold one.
- ``Cache-Control: no-store`` answers (tokens, health) get no validator, and are not compressed.
"""

from __future__ import annotations

import hashlib
import re
import zlib

from flask import request
from flask_compress import Compress

COMPRESSED = ("application/json", "application/problem+json", "application/yaml", "text/html", "text/css",
              "text/javascript", "image/svg+xml")
VALIDATED = COMPRESSED
ALGORITHMS = ("br", "gzip")
MIN_SIZE = 500
ENCODING_SUFFIX = re.compile(r":(?:br|gzip|deflate|zstd)$")


def install(app) -> None:
    """Compress ``app``'s answers on request, and give its cacheable reads validators and 304s."""
    app.config.update(COMPRESS_MIMETYPES=list(COMPRESSED), COMPRESS_ALGORITHM=list(ALGORITHMS),
                      COMPRESS_MIN_SIZE=MIN_SIZE, COMPRESS_STREAMS=False, COMPRESS_LEVEL=6, COMPRESS_BR_LEVEL=4)
    _Compress(app)
    app.wsgi_app = _RefusedCodings(app.wsgi_app)
    # registered after flask-compress, so it runs before it (Flask runs these last-registered first):
    # the digest is of the identity body, and a 304 never pays for compressing
    app.after_request(_validate)


class _Compress(Compress):
    """flask-compress, except for ``no-store`` answers: those carry tokens (a seat's, a host's), and a secret
    compressed beside text the client chose (a seat's name) is what BREACH-style guessing feeds on."""

    def after_request(self, response):
        if "no-store" in (response.headers.get("Cache-Control") or ""):
            return response
        version_tag = response.headers.get("ETag") if getattr(response, "names_a_version", False) else None
        response = super().after_request(response)
        if version_tag is not None:
            response.headers["ETag"] = version_tag  # the game's version, whatever the encoding
        return response


class _RefusedCodings:
    """Takes the codings a client refuses (``gzip;q=0``, RFC 9110 section 12.5.3) out of ``Accept-Encoding``
    before the app reads it: flask-compress 1.25 would pick a coding of quality 0 when it is the only one named."""

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        header = environ.get("HTTP_ACCEPT_ENCODING")
        if header and "q=0" in header.replace(" ", ""):
            environ["HTTP_ACCEPT_ENCODING"] = ", ".join(part for part in header.split(",") if not _refused(part))
        return self.wsgi_app(environ, start_response)


def _refused(coding: str) -> bool:
    """Whether one item of ``Accept-Encoding`` has quality 0 (``q=0``, ``q=0.0``, ``q=0.000``)."""
    _, _, params = coding.partition(";")
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value.strip()) == 0
            except ValueError:
                return False
    return False


def takes_gzip(accept_encoding: str | None) -> bool:
    """Whether ``Accept-Encoding`` takes gzip (named, or ``*``, with a quality above 0)."""
    for item in (accept_encoding or "").split(","):
        coding = item.split(";", 1)[0].strip().lower()
        if coding in ("gzip", "x-gzip", "*") and not _refused(item):
            return True
    return False


def live(body, headers: dict) -> tuple:
    """A live feed's body and headers, gzipped with a flush after every message when the client takes gzip."""
    headers = {**headers, "Vary": ", ".join(filter(None, (headers.get("Vary"), "Accept-Encoding")))}
    if not takes_gzip(request.headers.get("Accept-Encoding")):
        return body, headers
    return _flushed_gzip(body), {**headers, "Content-Encoding": "gzip"}


def _flushed_gzip(body):
    compressor = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    try:
        for chunk in body:
            data = chunk.encode("utf-8") if isinstance(chunk, str) else chunk
            yield compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
        yield compressor.flush()
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()  # the feed's own generator: leaves its hub subscription


def _client_etags() -> list[str]:
    """The opaque tags of ``If-None-Match`` (quotes, ``W/`` and an encoding suffix taken off)."""
    header = request.headers.get("If-None-Match") or ""
    tags = []
    for part in header.split(","):
        part = part.strip()
        if part.startswith("W/"):
            part = part[2:]
        tags.append(ENCODING_SUFFIX.sub("", part.strip('"')))
    return [tag for tag in tags if tag]


def _validate(response):
    """An ETag from the body's digest on a cacheable read that has none, and a 304 when the client has it."""
    if request.method not in ("GET", "HEAD"):
        return response
    if response.status_code == 304:
        _echo_encoded_tag(response)
        return response
    if (response.status_code != 200 or response.is_streamed or response.mimetype not in VALIDATED
            or "no-store" in (response.headers.get("Cache-Control") or "")):
        return response
    if "ETag" not in response.headers:
        response.set_etag(hashlib.sha256(response.get_data()).hexdigest()[:32])
    tag, _ = response.get_etag()
    if tag is not None and tag in _client_etags():
        response.status_code = 304
        response.set_data(b"")
        response.headers.pop("Content-Length", None)
        response.headers.pop("Content-Type", None)
        _echo_encoded_tag(response)
    return response


def _echo_encoded_tag(response) -> None:
    """A 304 carries the tag the client holds: ``"12:gzip"`` when that is what it was sent."""
    tag, weak = response.get_etag()
    if tag is None or weak:
        return
    header = request.headers.get("If-None-Match") or ""
    for part in header.split(","):
        held = part.strip().strip('"')
        if ENCODING_SUFFIX.sub("", held) == tag and held != tag:
            response.set_etag(held)
            return
