"""Answers sized for a phone (app/compact.py): compression only when asked, validators and 304s on cacheable reads."""

from __future__ import annotations

import gzip
import json
import zlib

import brotli

from app.compact import takes_gzip
from tests.app.conftest import ApiGame, bearer, sse_messages


def test_the_catalogue_is_gzipped_when_asked_and_decodes_to_the_same_json(client):
    plain = client.get("/catalogue")
    zipped = client.get("/catalogue", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert len(zipped.data) < len(plain.data) / 3
    assert json.loads(gzip.decompress(zipped.data)) == plain.json
    assert "Accept-Encoding" in plain.headers["Vary"] and "Accept-Encoding" in zipped.headers["Vary"]


def test_br_is_preferred_when_the_client_takes_both(client):
    plain = client.get("/catalogue")
    answer = client.get("/catalogue", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.headers["Content-Encoding"] == "br"
    assert json.loads(brotli.decompress(answer.data)) == plain.json


def test_nothing_is_compressed_when_the_client_refuses_it(client):
    assert "Content-Encoding" not in client.get("/catalogue", headers={"Accept-Encoding": "identity"}).headers
    assert "Content-Encoding" not in client.get("/catalogue", headers={"Accept-Encoding": "gzip;q=0"}).headers


def test_the_catalogue_has_an_etag_and_answers_304_without_a_body(client):
    first = client.get("/catalogue")
    tag = first.headers["ETag"]
    assert "max-age" in first.headers["Cache-Control"] and "public" in first.headers["Cache-Control"]
    again = client.get("/catalogue", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == tag
    other = client.get("/catalogue?ruleset=ffg", headers={"If-None-Match": tag})
    assert other.status_code == 200 and other.headers["ETag"] != tag


def test_a_compressed_answers_etag_names_its_encoding_and_revalidates(client):
    zipped = client.get("/catalogue", headers={"Accept-Encoding": "gzip"})
    tag = zipped.headers["ETag"]
    assert tag.endswith(':gzip"')
    again = client.get("/catalogue", headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == tag


def test_event_pages_and_the_board_compress_and_their_version_etag_still_works(client):
    game = ApiGame(client).join_all(3).start()
    for _ in range(5):
        game.move()
    headers = {"Accept-Encoding": "gzip", **game.as_("red" if "red" in game.tokens else next(iter(game.tokens)))}
    plain = client.get(game.url("/events"), headers={k: v for k, v in headers.items() if k != "Accept-Encoding"})
    zipped = client.get(game.url("/events"), headers=headers)
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.data)) == plain.json
    version = plain.json["version"]
    assert zipped.headers["ETag"] == plain.headers["ETag"] == f'"{version}"'  # the version, whatever the encoding
    cached = client.get(game.url("/events"), headers={**headers, "If-None-Match": zipped.headers["ETag"]})
    assert cached.status_code == 304 and cached.data == b""
    board = client.get(game.url(), headers={"Accept-Encoding": "gzip"})
    assert board.headers["Content-Encoding"] == "gzip"
    assert client.get(game.url(), headers={"If-None-Match": board.headers["ETag"]}).status_code == 304


def test_a_compressed_etag_pins_a_write_like_the_version_it_names(client):
    """A compressed board keeps its version ETag; the suffixed form an older client may hold pins a write too."""
    game = ApiGame(client).join_all(3)
    tag = client.get(game.url(), headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    version = int(tag.strip('"'))
    tag = f'"{version}:gzip"'
    host = bearer(game.host_token)
    stale = client.post(game.url("/start"), headers={**host, "If-Match": f'"{version - 1}:gzip"'})
    assert stale.status_code == 409
    started = client.post(game.url("/start"), headers={**host, "If-Match": tag})
    assert started.status_code == 200, started.json


def test_a_live_feed_is_plain_unless_asked_and_gzipped_with_a_flush_after_every_message(client):
    game = ApiGame(client).join_all(3).start()
    for _ in range(5):
        game.move()
    plain = client.get(game.url("/stream?timeout=0.5"))
    plain_text = plain.get_data(as_text=True)
    assert plain.mimetype == "text/event-stream" and "Content-Encoding" not in plain.headers
    assert "Accept-Encoding" in plain.headers["Vary"]
    zipped = client.get(game.url("/stream?timeout=0.5"), headers={"Accept-Encoding": "gzip, br"}, buffered=False)
    assert zipped.headers["Content-Encoding"] == "gzip"
    decoder, text = zlib.decompressobj(zlib.MAX_WBITS | 16), ""
    for chunk in zipped.response:  # as the server sends them
        text += decoder.decompress(chunk).decode()
        assert text.endswith("\n\n")  # every chunk decodes to whole messages: nothing held back
    zipped.close()
    assert sse_messages(text) == sse_messages(plain_text) != []
    assert "Content-Encoding" not in client.get(game.url("/stream?timeout=0.2"),
                                                headers={"Accept-Encoding": "gzip;q=0, br"}).headers


def test_takes_gzip_reads_qualities():
    assert takes_gzip("gzip") and takes_gzip("br;q=1, gzip;q=0.5") and takes_gzip("*")
    assert not takes_gzip(None) and not takes_gzip("br") and not takes_gzip("gzip;q=0") and not takes_gzip("*;q=0")


def test_small_answers_and_tokens_are_left_alone(client):
    health = client.get("/health", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in health.headers and "ETag" not in health.headers
    made = client.post("/games", json={"seats": 3}, headers={"Accept-Encoding": "gzip"})
    assert made.status_code == 201 and "Content-Encoding" not in made.headers


def test_the_games_list_and_the_contract_revalidate(client):
    ApiGame(client, seed=None)
    for url in ("/games", "/openapi.yaml", "/table/main.js"):
        first = client.get(url)
        assert first.status_code == 200 and first.headers.get("ETag"), url
        assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304, url
