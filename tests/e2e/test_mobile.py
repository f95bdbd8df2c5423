"""End to end (gunicorn as shipped, gevent): a phone's view of the service (issue 29).

Compression is negotiated and not applied when not asked, the catalogue answers 304, and a player
in two games follows both on one gzipped ``/me/stream`` whose events arrive while it stays open
(a compressor that held them back would deliver nothing until the feed closed).
"""

from __future__ import annotations

import pytest
import requests

from tests.app.conftest import sse_messages
from tests.e2e.test_feeds import one_action

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's (tests/conftest.py)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def game_with_player(base: str, key: str, k: int) -> tuple[str, dict[str, str]]:
    """A started three-seat game whose first seat the player took with its key; tokens by colour."""
    made = requests.post(f"{base}/games", json={"seats": 3, "seed": f"mobile-{k}"}, headers=ADMIN, timeout=30).json()
    game_id, tokens = made["id"], {}
    for k, headers in enumerate((bearer(key), {}, {})):
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"p{k}"}, headers=headers,
                               timeout=30).json()
        tokens[joined["color"]] = joined["token"]
    requests.post(f"{base}/games/{game_id}/start", headers=bearer(made["host_token"]), timeout=30).raise_for_status()
    return game_id, tokens


def whole_messages(text: str) -> list[dict]:
    """The complete SSE messages of the text received so far (a partial last one left out)."""
    return sse_messages(text[:text.rfind("\n\n") + 2]) if "\n\n" in text else []


def act(base: str, game_id: str, tokens: dict[str, str]) -> int:
    """One legal action by a seat that owes one; the game's version after it."""
    answer, _ = one_action(base, game_id, tokens)
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


@pytest.mark.parametrize("service_processes", ["redis"], indirect=True)
def test_a_phone_gets_compression_when_asked_304s_and_one_live_feed_of_its_games(service_processes):
    base = service_processes(worker=False)
    plain = requests.get(f"{base}/catalogue", headers={"Accept-Encoding": "identity"}, timeout=30)
    zipped = requests.get(f"{base}/catalogue", headers={"Accept-Encoding": "gzip"}, timeout=30)
    assert "Content-Encoding" not in plain.headers and zipped.headers["Content-Encoding"] == "gzip"
    assert zipped.json() == plain.json()  # requests decodes the gzip body
    again = requests.get(f"{base}/catalogue", headers={"If-None-Match": plain.headers["ETag"]}, timeout=30)
    assert again.status_code == 304 and again.content == b""

    key = requests.post(f"{base}/players", json={"name": "phone"}, timeout=30).json()["key"]
    games = [game_with_player(base, key, k) for k in range(2)]
    cursor = ",".join(str(requests.get(f"{base}/games/{g}", timeout=30).json()["version"]) for g, _ in games)
    feed = requests.get(f"{base}/me/stream?timeout=20", stream=True, timeout=60,
                        headers={**bearer(key), "Accept-Encoding": "gzip", "Last-Event-ID": cursor})
    try:
        assert feed.status_code == 200 and feed.headers["Content-Encoding"] == "gzip"
        chunks = feed.iter_content(chunk_size=None)  # decoded as it arrives
        text = ""
        for place, (game_id, tokens) in enumerate(games):
            before = int(cursor.split(",")[place])
            act(base, game_id, tokens)
            while not any(m["event"] not in ("your-move", "no-longer-yours") and m["data"]["game_id"] == game_id
                          and m["data"]["seq"] > before for m in whole_messages(text)):
                chunk = next(chunks, None)
                assert chunk is not None, f"the feed closed before the event came: {text[-500:]}"
                text += chunk.decode()  # the event arrives while the feed stays open
    finally:
        feed.close()
    mine = requests.get(f"{base}/me/games", headers=bearer(key), timeout=30).json()["games"]
    assert {g["game_id"] for g in mine} == {g for g, _ in games}
