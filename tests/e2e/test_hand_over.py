"""Issue 30 over HTTP: a person hands its seat to a bot, the service's worker plays it, the person takes it back.

gunicorn with `cosmic worker` on real Redis (skipped without REDIS_URL). Two people (Ann, Bob) and one
heuristic bot. Ann plays a little, hands her seat to a heuristic bot, and while Bob plays on, the worker
answers Ann's decisions; Ann's token keeps reading but may not act (409). She takes the seat back: from
then on nothing answers for her, and her own answer is taken again.
"""

from __future__ import annotations

import random
import time

import pytest
import requests

from app.simulate_api import Seat
from app.simulate_api import _answer_one as answer_one

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": "Bearer e2e-admin-token"}  # the `service_processes` fixture's admin token
WAIT_SECONDS = 120


def actors_after(person: Seat, after: int) -> list[str]:
    """The actors of the game's events after version ``after`` (as the person's own log shows them)."""
    page = person.get(f"/events?after={after}&limit=1000")
    return [e["actor"] for e in page["events"]]


def owes(person: Seat) -> bool:
    return any(p["player"] == person.color for p in person.get("")["pending"])


def answers(person: Seat, rng) -> bool:
    """The person answers the decision it owes (read again when the bot seat moved the game on meanwhile)."""
    for _ in range(50):
        if answer_one(person, rng) is not None:
            return True
        time.sleep(0.05)
    return False


def play_until(done, people: list[Seat], rng) -> None:
    """``people`` answer what they owe (random legal choices) until ``done()``; the worker plays the bots."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not done():
        assert time.monotonic() < deadline, "timed out"
        assert people[0].get("")["status"] == "playing", "the game ended first"
        moved = False
        for person in people:
            if owes(person):
                moved = answer_one(person, rng) is not None or moved
        if not moved:
            time.sleep(0.05)


def test_a_person_hands_its_seat_to_a_bot_and_takes_it_back_over_http(service_processes):
    base = service_processes()
    created = requests.post(f"{base}/games", json={"seats": 3, "seed": "hand-over-e2e"}, headers=ADMIN,
                            timeout=10).json()
    game_id, host = created["id"], {"Authorization": f"Bearer {created['host_token']}"}
    ann, bob = Seat(base, game_id, "Ann"), Seat(base, game_id, "Bob")
    try:
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": "Robo", "bot": "heuristic"},
                               headers=host, timeout=10)
        assert joined.status_code == 201
        assert requests.post(f"{base}/games/{game_id}/start", headers=host, timeout=10).status_code == 200
        rng = random.Random("hand-over-e2e")
        play_until(lambda: owes(ann), [bob], rng)
        assert answers(ann, rng)  # Ann plays a decision herself first

        handed = ann.session.post(f"{base}/games/{game_id}/seats/{ann.color}/hand-over", json={"level": "heuristic"},
                                  timeout=10)
        assert handed.status_code == 200 and handed.json()["bot"] == "heuristic", handed.text
        since = handed.json()["version"]
        play_until(lambda: actors_after(ann, since).count(ann.color) >= 3, [bob], rng)  # the worker answers Ann's
        assert ann.get("/hand")["player"] == ann.color  # her token still reads
        refused = ann.session.post(f"{base}/games/{game_id}/actions", json={"action": "pass"}, timeout=10)
        assert refused.status_code == 409 and refused.json()["type"].endswith(":seat-played-by-bot")

        back = ann.session.post(f"{base}/games/{game_id}/seats/{ann.color}/take-back", timeout=10)
        assert back.status_code == 200 and back.json()["bot"] is None, back.text
        taken = back.json()["version"]
        play_until(lambda: owes(ann), [bob], rng)
        time.sleep(1.0)  # time for a bot job, were one still playing her seat
        assert owes(ann) and ann.color not in actors_after(ann, taken), "nothing answers for Ann any more"
        assert answers(ann, rng)  # her own answer is taken again
        texts = [e["text"] for e in ann.get("/events?after=0&limit=1000")["events"]
                 if e["type"] in ("SeatHandedToBot", "SeatTakenBack")]
        assert texts == [f"Ann hands the {ann.color} seat to a heuristic bot.",
                         f"Ann takes the {ann.color} seat back from its bot."]
    finally:
        ann.close()
        bob.close()
