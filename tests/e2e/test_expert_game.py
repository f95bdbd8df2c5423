"""A whole game of `expert` bots over HTTP, with every decision on a clock (issue 30).

gunicorn and `cosmic worker` on real Redis, with the shipped settings (the expert's budget of
`COSMIC_EXPERT_STEPS` rollout answers, capped at `COSMIC_EXPERT_SECONDS` of CPU and at half the
time left before a deadline). Every decision has `decision_seconds` (the shortest the options
allow: 5 s) and deals `deal_seconds`, so the clock's threads run beside the bots' search; the
expert must answer each of its decisions itself, before its deadline: not one default may be
applied by a timer. Afterwards the stream refolds to the served board, and every decision was
taken by a bot seat through the same append as a person's.
"""

from __future__ import annotations

import time

import pytest
import requests

import engine
from app.simulate_api import read_all_events
from events.envelope import verify_chain
from projections import views

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's admin token
SEATS = 3
GAME_SECONDS = 900


def test_expert_bots_play_a_whole_game_over_http_and_no_clock_runs_out(service_processes):
    base = service_processes()
    created = requests.post(f"{base}/games", json={
        "seats": SEATS, "seed": "experts-on-the-clock",
        "options": {"decision_seconds": 5, "deal_seconds": 5}}, headers=ADMIN, timeout=10).json()
    game_id, host = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
    for k in range(SEATS):
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"Expert {k + 1}", "bot": "expert"},
                               headers=host, timeout=10)
        assert joined.status_code == 201, joined.text
    assert requests.post(f"{base}/games/{game_id}/start", headers=host, timeout=10).status_code == 200

    deadline = time.monotonic() + GAME_SECONDS
    while (board := requests.get(f"{base}/games/{game_id}", timeout=10).json())["status"] == "playing":
        assert time.monotonic() < deadline, f"not finished after {GAME_SECONDS}s: turn {board['turn']}"
        time.sleep(0.5)
    assert board["status"] == "finished" and board["winners"]

    full = read_all_events(base, game_id, ADMIN)
    assert verify_chain(full, game_id) == board["version"]
    assert views.board(engine.fold(full)) == board
    timed_out = [(e["seq"], e["payload"]) for e in full if e["type"] == "DecisionTimedOut"]
    assert timed_out == [], "an expert let its clock run out"
    actors = {e["actor"] for e in full}
    assert set(board["order"]) <= actors, "every seat decided through the same append as a person"
