"""``cosmic simulate --via-api URL``: complete games through the HTTP API, one client per seat.

Each seat is its own ``requests.Session`` holding only its own bearer token, and sees only
what the API shows it: the pending list (public), its own prompts, its own hand. The
random legal player of `engine.players` picks each answer. With the admin token the games
are seeded (``<seed>:<index>``, as in-process simulation) and, at the end, every event is
read back and folded to check the engine's invariants and that the board the API served is
the fold of its stream. The summary has the shape of `engine.simulate.simulate`'s.

The creator starts each game with its host token. A seat over its write quota (a 429) waits the
``Retry-After`` it is told and sends the same request again, as a polite client does.
"""

from __future__ import annotations

import os
import random
import time
import uuid

import requests

import engine
from engine.invariants import card_places, violations
from engine.players import random_command
from engine.simulate import MAX_RETRIES, MAX_TURNS, GameResult, summarize_games
from projections import views

TIMEOUT = 30


class ApiError(RuntimeError):
    """The API answered something a well-behaved client cannot go on from."""


class Seat:
    """One player's HTTP client: its own session and token."""

    def __init__(self, base: str, game_id: str, name: str):
        self.session = requests.Session()
        self.base = base
        self.game_id = game_id
        joined = _ok(self.session.post(f"{base}/games/{game_id}/players", json={"name": name}, timeout=TIMEOUT))
        self.color = joined["color"]
        self.session.headers["Authorization"] = f"Bearer {joined['token']}"

    def get(self, path: str) -> dict:
        """GET a resource of this game as this seat."""
        return _ok(self.session.get(f"{self.base}/games/{self.game_id}{path}", timeout=TIMEOUT))

    def act(self, command: dict, version: int) -> requests.Response:
        """POST one command, pinned to the version its prompt was read at."""
        headers = {"If-Match": f'"{version}"', "Idempotency-Key": uuid.uuid4().hex}
        while True:
            response = self.session.post(f"{self.base}/games/{self.game_id}/actions", json=command, headers=headers,
                                         timeout=TIMEOUT)
            if response.status_code != 429:
                return response
            time.sleep(int(response.headers.get("Retry-After", "1")))

    def close(self) -> None:
        """Close the seat's connections."""
        self.session.close()


def _ok(response: requests.Response) -> dict:
    if response.status_code >= 300:
        raise ApiError(f"{response.request.method} {response.url}: {response.status_code} {response.text[:300]}")
    return response.json()


def _visible_state(seat: Seat, prompt: dict) -> dict | None:
    """What the random player needs for deal terms, from the board and this seat's hand only."""
    if not any(shape.get("schema") == "deal" for o in prompt["options"] for shape in o["args"].values()):
        return None
    board, hand = seat.get(""), seat.get("/hand")
    seats = {c: {"hand": hand["cards"] if c == seat.color else [None] * info["hand_size"]}
             for c, info in board["players"].items()}
    return {"turn": board["turn"], "ch": board["challenge"], "planets": board["planets"], "players": seats}


def _play_turns(seats: dict, started: dict, rng, result: GameResult, max_turns: int) -> dict:
    """Answer decisions until the game ends; returns the last action's answer."""
    last = started
    while last["status"] == "playing":
        if (last.get("turn") or 0) > max_turns:
            result.unfinished_reason = f"no winner after {max_turns} turns"
            break
        if not last["pending"]:
            result.violations.append("no decision owed in a game being played")
            break
        seat = seats[rng.choice(last["pending"])["player"]]
        last = _answer_one(seat, rng) or last
    return last


def _answer_one(seat: Seat, rng) -> dict | None:
    """Read this seat's prompt and answer it; None when it turned out to owe nothing (try again)."""
    owed = seat.get("/prompts")
    if not owed["prompts"]:
        return None
    prompt = owed["prompts"][0]
    state = _visible_state(seat, prompt)
    problem = None
    for _ in range(MAX_RETRIES):
        command = random_command(state, prompt, rng)
        command.pop("player", None)
        response = seat.act(command, owed["version"])
        if response.status_code == 200:
            return response.json()
        problem = response.json() if response.headers.get("Content-Type", "").endswith("json") else {}
        kind = (problem.get("type") or "").rsplit(":", 1)[-1]
        if kind in ("version-conflict", "not-owed"):
            return None
        if kind not in ("rules-violation", "bad-command"):
            raise ApiError(f"action refused: {response.status_code} {response.text[:300]}")
    fallback = next((o for o in prompt["options"] if o["action"] in ("pass", "decline") and not o["args"]), None)
    if fallback is not None:
        response = seat.act({"action": fallback["action"], "args": {}, "prompt": prompt["id"]}, owed["version"])
        if response.status_code == 200:
            return response.json()
    raise ApiError(f"no legal answer found for {prompt['kind']}: {problem}")


def play_game_via_api(url: str, seed: str, players: int, options: dict | None = None, *, ruleset: str = "mayfair",
                      admin_token: str | None = None, max_turns: int = MAX_TURNS) -> GameResult:
    """Play one game through the API with one client per seat; see the module docstring."""
    base = url.rstrip("/")
    result = GameResult(seed=seed)
    rng = random.Random(f"players:{seed}")
    admin = {"Authorization": f"Bearer {admin_token}"} if admin_token else {}
    seats: dict[str, Seat] = {}
    try:
        body = {"seats": players, "ruleset": ruleset, "options": options or {}}
        if admin_token:
            body["seed"] = seed
        created = _ok(requests.post(f"{base}/games", json=body, headers=admin, timeout=TIMEOUT))
        game_id = created["id"]
        for k in range(players):
            seat = Seat(base, game_id, f"player {k + 1}")
            seats[seat.color] = seat
        first = next(iter(seats.values()))
        started = _ok(requests.post(f"{base}/games/{game_id}/start", timeout=TIMEOUT,
                                    headers={"Authorization": f"Bearer {created['host_token']}"}))
        last = _play_turns(seats, started, rng, result, max_turns)
        board = first.get("")
        result.powers = {c: list(p["powers"]) for c, p in board["players"].items()}
        result.events = board["version"]
        result.turns = (board.get("turn") or {}).get("number") or 0
        result.finished = board["status"] == "finished"
        result.winners = list(board.get("winners") or last.get("winners") or [])
        result.winner_seats = [board["order"].index(c) for c in result.winners]
        result.winner_powers = [p for c in result.winners for p in board["players"][c]["powers"]]
        result.violations += _check(base, game_id, board, started["version"], admin)
    except (ApiError, requests.RequestException, KeyError, ValueError) as exc:
        result.error = f"{type(exc).__name__}: {exc}"
    finally:
        for seat in seats.values():
            seat.close()
    return result


def _check(base: str, game_id: str, board: dict, started_version: int, admin: dict) -> list[str]:
    """Token counts from the public board; with the admin token, the full invariants and board = fold."""
    found = []
    for color in board["order"]:
        count = sum(t.get(color, 0) for t in board["planets"].values()) + board["warp"].get(color, 0)
        count += board["removed"].get(color, 0) + sum(s.get(color, 0) for s in board["cone"].values())
        count += sum(s.get(color, 0) for s in board["fan"].values())
        if count != 20:
            found.append(f"{color} has {count} tokens on the served board, not 20")
    if not admin:
        return found
    events = read_all_events(base, game_id, admin)
    # the cards as the deck was formed (ffg: once the powers are chosen, after the start)
    formed = next((k + 1 for k, e in enumerate(events) if e["type"] == "DeckFormed" and e["payload"]["deck"] == "deck"),
                  started_version)
    start = engine.fold(events[:max(started_version, formed)])
    final = engine.fold(events)
    if views.board(final) != board:
        found.append("the served board is not the fold of the stream")
    deck = sorted(card_places(start))
    destiny = sorted(start["destiny"] + start["destiny_discard"])
    return found + violations(final, deck, destiny)


def read_all_events(base: str, game_id: str, headers: dict) -> list[dict]:
    """Every event of a game, page by page, as the holder of ``headers`` may see them."""
    events, after = [], 0
    while True:
        page = _ok(requests.get(f"{base}/games/{game_id}/events", params={"after": after, "limit": 1000,
                                                                          "include_internal": "true"},
                                headers=headers, timeout=TIMEOUT))
        events += page["events"]
        after = page["next_after"]
        if not page["more"]:
            return events


def simulate_via_api(url: str, games: int, players: int, seed: int, options: dict | None = None, *,
                     ruleset: str = "mayfair", progress=None, admin_token: str | None = None) -> dict:
    """Play ``games`` games through the API at ``url``; the summary of `engine.simulate.simulate`."""
    admin_token = admin_token or os.environ.get("COSMIC_ADMIN_TOKEN") or None
    return summarize_games(games, players, seed, options, ruleset,
                           lambda game_seed: play_game_via_api(url, game_seed, players, options, ruleset=ruleset,
                                                               admin_token=admin_token),
                           progress=progress)
