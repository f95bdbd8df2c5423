"""Helpers for the webhook tests: a receiver on loopback, subscribing over the API, what should arrive.

`Receiver` is an ``http.server`` in a thread that records every request and answers its first
``fail_first`` requests with 500, the others with 200 (the worker tests' ``receiver``
fixture makes them and closes them after the test). `subscribe` creates a subscription
through the API; `check_deliveries` holds a receiver's requests against the events a
subscription should get.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from events.envelope import canonical_json
from events.redaction import ADMIN, is_internal, redact, shown_to
from projections.sentences import Table, sentence
from workers import webhooks

SECRET = "a-secret-of-sixteen-or-more"


class Receiver:
    """Records every request; answers ``fail_first`` of them with 500, then 200."""

    def __init__(self, fail_first: int = 0):
        self.fail_first = fail_first
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    status = 500 if len(receiver.requests) < receiver.fail_first else 200
                    receiver.requests.append({"headers": dict(self.headers), "body": body, "status": status,
                                              "path": self.path})
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_port}{path}"

    def accepted(self, path: str | None = None) -> list[dict]:
        """The requests answered 200 (optionally to one path), in arrival order."""
        with self.lock:
            return [r for r in self.requests if r["status"] == 200 and (path is None or r["path"] == path)]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def subscribe(client, headers: dict, **body) -> dict:
    """POST /webhooks (which must answer 201); the new subscription, with its secret."""
    answer = client.post("/webhooks", json=body, headers=headers)
    assert answer.status_code == 201, answer.json
    return answer.json


def deliverable(events: list[dict], types: set[str] | None = None, viewer=ADMIN) -> list[dict]:
    """The events a subscription gets: no engine bookkeeping, nothing its viewer is not shown (another pair's
    private message); only ``types`` if given."""
    return [e for e in events if not is_internal(e) and shown_to(e, viewer) and (types is None or e["type"] in types)]


def check_deliveries(received: list[dict], expected: list[dict], viewer=ADMIN, secret: str = SECRET,
                     table: Table | None = None) -> None:
    """Each expected event exactly once, in order, as ``viewer`` sees it, told in the sentence the log tells it
    with (``table``: the game's names and edition), with a valid signature."""
    bodies = [r["body"] for r in received]
    got, wanted = [json.loads(b)["seq"] for b in bodies], [e["seq"] for e in expected]
    assert got == wanted, f"delivered seqs {got}, expected {wanted}"
    for request, event in zip(received, expected, strict=True):
        body = json.loads(request["body"])
        assert request["body"] == canonical_json(body).encode("utf-8")  # canonical JSON, as signed
        told = body.pop("text")
        assert body == json.loads(canonical_json(redact(event, viewer)))
        assert told == sentence(event, viewer, table) if table is not None else told
        assert webhooks.verify(secret, request["body"], request["headers"]["X-Cosmic-Signature"])
        assert request["headers"]["X-Cosmic-Event-Id"] == f"{event['game_id']}:{event['seq']}"
