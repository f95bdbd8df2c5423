"""End to end, the Fantasy Flight edition: gunicorn and `cosmic worker` as real processes on real Redis.

Whole ``ffg`` games are played over HTTP with one client per seat (each holding only its own
token), for 3, 4 and 5 players, and checked against the fold of their streams; then the power
choice at setup is read through every read path a seat has (board, prompts, hand, log, live
feed) to show that no seat learns another's offer or choice before the powers are dealt.
"""

from __future__ import annotations

import json

import pytest
import requests

from app.simulate_api import simulate_via_api
from tests.app.conftest import sse_messages

pytestmark = pytest.mark.e2e
ADMIN_TOKEN = "e2e-admin-token"  # the `service_processes` fixture's (tests/conftest.py)
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SECRET_EVENTS = ("PowersOffered", "PowerChosen")


@pytest.fixture
def service(service_processes):
    """The service with live feeds that close after a second, so a test can read one whole."""
    return service_processes(env={"COSMIC_SSE_MAX_SECONDS": "1"})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_ffg_games_over_http_one_client_per_seat(service, players):
    summary = simulate_via_api(service, games=1, players=players, seed=40 + players, ruleset="ffg",
                               admin_token=ADMIN_TOKEN)
    assert summary["errors"] == 0, summary["examples"]
    assert summary["invariant_violations"] == 0, summary["examples"]  # includes: served board == fold
    assert summary["finished"] == 1


def seat_reads(base: str, game_id: str, token: str) -> dict:
    """Everything one seat can read about the game, by read path."""
    seat = {"Authorization": f"Bearer {token}"}
    url = f"{base}/games/{game_id}"
    stream = requests.get(f"{url}/stream", params={"after": 0}, headers=seat, timeout=10)
    return {
        "board": requests.get(url, headers=seat, timeout=10).json(),
        "prompts": requests.get(f"{url}/prompts", headers=seat, timeout=10).json(),
        "hand": requests.get(f"{url}/hand", headers=seat, timeout=10).json(),
        "log": requests.get(f"{url}/events", params={"after": 0, "limit": 1000}, headers=seat, timeout=10).json(),
        "feed": [{"type": m["event"], **(m["data"] or {})} for m in sse_messages(stream.text)],
    }


def powers_named(reads: dict, player: str) -> list:
    """The power names a seat's reads give for ``player``'s offer or choice (log and feed; a power hidden
    from the reader is sent as null)."""
    found = []
    for path in ("log", "feed"):
        events = reads[path]["events"] if path == "log" else reads[path]
        for event in events:
            data = event.get("payload") or {}
            named = [p for p in data.get("powers") or [] if p is not None]  # a redacted offer keeps its count
            if event.get("type") in SECRET_EVENTS and data.get("player") == player and named:
                found.append((path, event["type"], named))
    return found


def test_no_seat_learns_another_seats_offer_or_choice_through_any_read_path(service):
    created = requests.post(f"{service}/games", json={"seats": 3, "ruleset": "ffg", "seed": "secret-offers"},
                            headers=ADMIN, timeout=10).json()
    game_id, tokens = created["id"], {}
    for k in range(3):
        joined = requests.post(f"{service}/games/{game_id}/players", json={"name": f"p{k}"}, timeout=10).json()
        tokens[joined["color"]] = joined["token"]
    started = requests.post(f"{service}/games/{game_id}/start",
                            headers={"Authorization": f"Bearer {created['host_token']}"}, timeout=10)
    assert started.status_code == 200, started.text

    offers = {}
    for color, token in tokens.items():
        reads = seat_reads(service, game_id, token)
        assert [p["player"] for p in reads["prompts"]["prompts"]] == [color]
        offers[color] = reads["prompts"]["prompts"][0]["info"]["offered"]
        assert all(info["powers"] == [] for info in reads["board"]["players"].values())
        assert reads["log"]["events"][0]["payload"]["seed"] is None  # the seed the admin gave stays hidden
        assert "secret-offers" not in json.dumps(reads)
        for other in tokens:
            named = powers_named(reads, other)
            if other == color:
                assert named and all(powers == offers[color] for _, _, powers in named)
            else:
                assert named == [], f"{color} reads {other}'s offer: {named}"

    chooser, *waiting = list(tokens)
    chose = requests.post(f"{service}/games/{game_id}/actions", json={"action": "choose", "args": {
        "power": offers[chooser][1]}}, headers={"Authorization": f"Bearer {tokens[chooser]}"}, timeout=10)
    assert chose.status_code == 200, chose.text
    for color in waiting:
        reads = seat_reads(service, game_id, tokens[color])
        assert powers_named(reads, chooser) == []
        assert all(info["powers"] == [] for info in reads["board"]["players"].values())
        assert offers[chooser][1] not in json.dumps(reads["board"])

    for color in waiting:
        answer = requests.post(f"{service}/games/{game_id}/actions", json={"action": "choose", "args": {
            "power": offers[color][0]}}, headers={"Authorization": f"Bearer {tokens[color]}"}, timeout=10)
        assert answer.status_code == 200, answer.text
    board = requests.get(f"{service}/games/{game_id}", timeout=10).json()
    chosen = {chooser: [offers[chooser][1]], **{c: [offers[c][0]] for c in waiting}}
    assert {c: info["powers"] for c, info in board["players"].items()} == chosen
