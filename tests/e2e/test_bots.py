"""A person against four bots, over HTTP, to the end: the bots are played by the service's workers.

Two deployments: gunicorn with `cosmic worker` on real Redis (skipped without REDIS_URL), and
`cosmic serve` without Redis (the embedded mode's in-process Redis and worker thread). The
person is an HTTP client holding only its own token, answering its prompts with random legal
choices (`app.simulate_api`'s player); it sees the public board, its hand, its prompts and
its log. Afterwards the admin's full log must refold to the board the API serves, and the
person's log must have hidden every card it was not allowed to see.
"""

from __future__ import annotations

import random
import time

import pytest
import requests

import engine
from app.simulate_api import Seat, read_all_events
from app.simulate_api import _answer_one as answer_one
from events import catalog
from events.envelope import verify_chain
from events.redaction import hide, may_see
from projections import views

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's admin token
LEVELS = ["heuristic", "random", "heuristic", "random"]
GAME_SECONDS = 300


def play_person_against_bots(base: str, seed: str, levels: list[str]) -> tuple[str, Seat, int]:
    """Create a seeded game, seat a person and the bots, start, and let the person play to the end."""
    created = requests.post(f"{base}/games", json={"seats": 1 + len(levels), "seed": seed}, headers=ADMIN,
                            timeout=10).json()
    game_id, host = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
    person = Seat(base, game_id, "Ann")
    for k, level in enumerate(levels):  # the host token seats the bots and starts the game
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"Bot {k + 1}", "bot": level},
                               headers=host, timeout=10)
        assert joined.status_code == 201 and joined.json()["token"] is None, joined.text
    assert requests.post(f"{base}/games/{game_id}/start", headers=host, timeout=10).status_code == 200
    rng = random.Random(seed)  # the person: the random legal player of `cosmic simulate --via-api`
    answered, deadline = 0, time.monotonic() + GAME_SECONDS
    while (board := person.get(""))["status"] == "playing":
        assert time.monotonic() < deadline, f"not finished after {GAME_SECONDS}s: pending {board['pending']}"
        if any(p["player"] == person.color for p in board["pending"]):
            answered += answer_one(person, rng) is not None
        else:
            time.sleep(0.02)  # the bots' turn: the worker plays them
    return game_id, person, answered


def person_log(person: Seat) -> list[dict]:
    """Every event of the game as the person's own log shows it."""
    events, after = [], 0
    while True:
        page = person.get(f"/events?after={after}&limit=1000")
        events += page["events"]
        after = page["next_after"]
        if not page["more"]:
            return events


def check_game(base: str, game_id: str, person: Seat, answered: int, bots: list[str]) -> None:
    """Finished with a winner; the stream refolds to the served board; the person never saw a bot's cards."""
    board = person.get("")
    assert board["status"] == "finished" and board["winners"], board.get("winners")
    assert answered > 0
    full = read_all_events(base, game_id, ADMIN)
    assert verify_chain(full, game_id) == board["version"]
    assert views.board(engine.fold(full)) == board
    actors = {e["actor"] for e in full}
    assert set(bots) <= actors, "every bot decided something, through the same append as the person"

    seen = {e["seq"]: e for e in person_log(person)}
    hidden_from_person = 0
    for event in full:
        etype = catalog.TYPES[event["type"]]
        if etype.internal:
            assert event["seq"] not in seen
            continue
        shown = seen[event["seq"]]
        for name, naming in etype.private.items():
            if name in event["payload"] and not may_see(event["payload"], naming, person.color):
                assert shown["payload"][name] == hide(event["payload"][name]), (event["type"], event["seq"])
                hidden_from_person += 1
        if event["type"] == "CardsMoved" and event["payload"]["dst"] in {f"hand:{b}" for b in bots} \
                and event["payload"].get("seen_by") is not None and person.color not in event["payload"]["seen_by"]:
            assert set(shown["payload"]["cards"]) <= {None}
    assert hidden_from_person > 0
    for bot in bots:
        refused = person.session.get(f"{base}/games/{game_id}/hand", params={"player": bot}, timeout=10)
        assert refused.status_code == 403
    assert person.get("/hand")["player"] == person.color


def test_a_person_plays_four_bots_to_the_end_over_http_with_gunicorn_and_a_worker(service_processes):
    base = service_processes()
    game_id, person, answered = play_person_against_bots(base, "person-vs-bots", LEVELS)
    try:
        check_game(base, game_id, person, answered, [c for c in person.get("")["order"] if c != person.color])
    finally:
        person.close()


def test_bots_play_in_the_embedded_mode_without_redis(service_processes):
    base = service_processes.embedded()
    game_id, person, answered = play_person_against_bots(base, "embedded-bots", LEVELS)
    try:
        check_game(base, game_id, person, answered, [c for c in person.get("")["order"] if c != person.color])
    finally:
        person.close()
