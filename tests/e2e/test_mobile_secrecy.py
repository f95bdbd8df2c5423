"""End to end (gunicorn as shipped + ``cosmic worker``): the secrecy checks extended to ``GET /me/stream`` and
``GET /me/games`` (issue 29).

A player holds one seat in each of two seeded four-seat games (one with the powers that see others' cards:
Mind, Filch, Oracle), the other seats played by the test with their tokens. While the games are played,
the player's one feed stays open (gzipped, as a phone asks) and its list of games is read again and again;
after, the feed is read once more from the start of both games (a catch-up across a cut). Every message and
every list is then scanned with the checker of `tests.app.test_secrecy` (`check_body`) for the cards the
player's seat may not know in that game (worked out from the admin's full log by the rules, `knowledge`),
the seed, and the hash chain.
"""

from __future__ import annotations

import json
import random
import threading

import pytest
import requests

from engine.players import random_command
from tests.app.test_secrecy import POWERS, SEED, check_body, forbidden_pattern, knowledge
from tests.conftest import SERVICE_ADMIN_TOKEN

pytestmark = pytest.mark.e2e
ADMIN = {"Authorization": f"Bearer {SERVICE_ADMIN_TOKEN}"}
MOVES = 120  # per game


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def seated_game(base: str, key: str, setup: dict | None) -> tuple[str, str, dict[str, str]]:
    """A started four-seat game seeded with SEED: (id, the player's colour, every seat's token)."""
    body = {"seats": 4, "seed": SEED, **({"setup": setup} if setup else {})}
    made = requests.post(f"{base}/games", json=body, headers=ADMIN, timeout=30)
    assert made.status_code == 201, made.text
    game_id, tokens = made.json()["id"], {}
    mine = None
    for k, headers in enumerate((bearer(key), {}, {}, {})):
        joined = requests.post(f"{base}/games/{game_id}/players", json={"name": f"p{k}"}, headers=headers, timeout=30)
        assert joined.status_code == 201, joined.text
        tokens[joined.json()["color"]] = joined.json()["token"]
        mine = mine or joined.json()["color"]
    requests.post(f"{base}/games/{game_id}/start", headers=ADMIN, timeout=30).raise_for_status()
    return game_id, mine, tokens


def move(base: str, game_id: str, tokens: dict[str, str], rng: random.Random) -> bool:
    """One random legal action by a seat that owes one (deals too: their terms from the board and the hand)."""
    board = requests.get(f"{base}/games/{game_id}", timeout=30).json()
    if board["status"] != "playing":
        return False
    color = rng.choice(board["pending"])["player"]
    prompts = requests.get(f"{base}/games/{game_id}/prompts", headers=bearer(tokens[color]), timeout=30).json()
    if not prompts["prompts"]:
        return True  # answered meanwhile (a timer): look again
    prompt, state = prompts["prompts"][0], None
    if any(s.get("schema") == "deal" for o in prompt["options"] for s in o["args"].values()):
        hand = requests.get(f"{base}/games/{game_id}/hand", headers=bearer(tokens[color]), timeout=30).json()
        state = {"turn": board["turn"], "ch": board["challenge"], "planets": board["planets"],
                 "players": {c: {"hand": hand["cards"] if c == color else [None] * p["hand_size"]}
                             for c, p in board["players"].items()}}
    for _ in range(30):
        command = random_command(state, prompt, rng)
        command.pop("player")
        answer = requests.post(f"{base}/games/{game_id}/actions", json=command, headers=bearer(tokens[color]),
                               timeout=30)
        if answer.status_code in (200, 409):
            return True
        assert answer.status_code in (400, 422), answer.text
    fallback = next(o for o in prompt["options"] if o["action"] in ("pass", "decline") and not o["args"])
    answer = requests.post(f"{base}/games/{game_id}/actions", json={"action": fallback["action"]},
                           headers=bearer(tokens[color]), timeout=30)
    assert answer.status_code in (200, 409), answer.text
    return True


def blocks(text: str) -> list[tuple[str | None, str]]:
    """The SSE messages of a body, each (the game it is about, its text)."""
    found = []
    for block in text.split("\n\n"):
        data = next((line[len("data: "):] for line in block.splitlines() if line.startswith("data: ")), None)
        if data:
            found.append((json.loads(data).get("game_id"), block))
    return found


def admin_log(base: str, game_id: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = requests.get(f"{base}/games/{game_id}/events", params={"after": after, "limit": 1000,
                                                                       "include_internal": "true"},
                            headers=ADMIN, timeout=30).json()
        events += page["events"]
        after = page["next_after"]
        if not page["more"]:
            return events


@pytest.mark.parametrize("service_processes", ["redis"], indirect=True)
def test_my_stream_and_my_games_show_a_player_nothing_its_seats_may_not_know(service_processes):
    base = service_processes()
    key = requests.post(f"{base}/players", json={"name": "phone"}, timeout=30).json()["key"]
    games = [seated_game(base, key, {"powers": POWERS}), seated_game(base, key, None)]
    live, lists = [], []

    def listen():
        with requests.get(f"{base}/me/stream?timeout=300", stream=True, timeout=330,
                          headers={**bearer(key), "Accept-Encoding": "gzip"}) as feed:
            assert feed.status_code == 200 and feed.headers["Content-Encoding"] == "gzip"
            for chunk in feed.iter_content(chunk_size=None):
                live.append(chunk.decode())
                if stop.is_set():
                    return

    stop = threading.Event()
    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    rng = random.Random("mobile-secrecy")
    for step in range(MOVES):
        for game_id, _, tokens in games:
            move(base, game_id, tokens, rng)
        if step % 20 == 0:
            for query in ("", "?filter=owing", "?filter=playing"):
                lists.append(requests.get(f"{base}/me/games{query}", headers=bearer(key), timeout=30).text)
    stop.set()
    for game_id, _, tokens in games:  # one more event each, so the listener sees the stop soon
        move(base, game_id, tokens, rng)
    listener.join(60)
    lists.append(requests.get(f"{base}/me/games", headers=bearer(key), timeout=30).text)
    catch_up = requests.get(f"{base}/me/stream?timeout=3", headers={**bearer(key), "Last-Event-ID": "0,0"},
                            timeout=60).text

    messages = blocks("".join(live)) + blocks(catch_up)
    told = {game_id: [b for g, b in messages if g == game_id] for game_id, _, _ in games}
    for game_id, mine, _ in games:
        deck, known, public = knowledge(admin_log(base, game_id))
        assert len(deck) > 50 and len(deck - known[mine]) > 20  # plenty is still secret from the player
        pattern = forbidden_pattern(deck - known[mine])
        assert len(told[game_id]) > MOVES  # the feed carried this game's events (and its your-moves)
        assert any('"prompts"' in b for b in told[game_id]), "no your-move came for this game"
        for n, block in enumerate(told[game_id]):
            check_body(block, pattern, f"the player ({mine})", f"/me/stream message {n} of {game_id}")
        for n, body in enumerate(lists):
            check_body(body, pattern, f"the player ({mine})", f"/me/games answer {n}")
    assert all(g in json.dumps([json.loads(body) for body in lists]) for g, _, _ in games)
