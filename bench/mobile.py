"""Bytes a phone pays to follow 10 games: polling, one feed per game, or ``GET /me/stream`` (issue 29).

In process (Flask's test client on an in-process fakeredis; no network, so the figures are body
bytes, not headers or TLS). A player holds one seat in each of ``--games`` three-seat games; random
legal moves (``--moves`` in all, spread over the games) are played through the API. Then the
client's ways of following them are measured over exactly those moves:

- ``polling``: after every move the client asks each game's board with ``If-None-Match`` (a 304, no
  body, when it has not moved) and, for the game that moved, its ``/prompts`` (is it my move?);
  with and without ``Accept-Encoding: gzip``;
- ``per-game feeds``: each game's ``/stream`` from where the moves began, plus a ``/prompts`` read
  per event of a game (a feed carries no prompts);
- ``/me/stream``: one feed from the same place, your-move messages (with the prompts) included;
  each feed also with ``Accept-Encoding: gzip`` (flushed after every message: `app.compact.live`).

Prints one JSON line: events, and per way the bytes, the bytes per event and per move.

    .venv/bin/python bench/mobile.py --games 10 --moves 200
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fakeredis  # noqa: E402

from app import create_app  # noqa: E402
from tests.app.conftest import ADMIN_TOKEN, ROOMY_LIMITS, ApiGame, bearer  # noqa: E402
from workers.runtime import Runtime  # noqa: E402
from workers.settings import Settings  # noqa: E402

GZIP = {"Accept-Encoding": "gzip"}


def seat(client, key: str, k: int) -> ApiGame:
    game = ApiGame(client, seats=3, seed=f"mobile-{k}")
    joined = client.post(game.url("/players"), json={"name": "me"}, headers=bearer(key)).json
    game.tokens[joined["color"]] = joined["token"]
    for n in range(2):
        other = client.post(game.url("/players"), json={"name": f"other {n}"}).json
        game.tokens[other["color"]] = other["token"]
    return game.start()


def run(games: int, moves: int) -> dict:
    rt = Runtime(Settings(prefix="bench-mobile", admin_token=ADMIN_TOKEN, sse_keepalive=0.2, sse_max_seconds=1, feeds_per_token=1000,
                          **ROOMY_LIMITS), redis_client=fakeredis.FakeRedis())
    app = create_app(rt)
    client = app.test_client()
    key = client.post("/players", json={"name": "me"}).json["key"]
    me = bearer(key)
    table = [seat(client, key, k) for k in range(games)]
    start = {g.id: client.get(g.url()).json["version"] for g in table}
    etags = {(g.id, enc): client.get(g.url(), headers=h).headers["ETag"] for g in table
             for enc, h in (("plain", {}), ("gzip", GZIP))}
    polled = {"plain": 0, "gzip": 0}
    played = 0
    while played < moves:
        game = table[played % len(table)]
        if game.move() is None:
            continue
        played += 1
        for enc, extra in (("plain", {}), ("gzip", GZIP)):
            for other in table:
                answer = client.get(other.url(), headers={**me, **extra, "If-None-Match": etags[(other.id, enc)]})
                polled[enc] += len(answer.data)
                etags[(other.id, enc)] = answer.headers["ETag"]
            polled[enc] += len(client.get(game.url("/prompts"), headers={**me, **extra}).data)
    events = sum(client.get(g.url()).json["version"] - start[g.id] for g in table)
    per_game = {"plain": 0, "gzip": 0}
    for enc, extra in (("plain", {}), ("gzip", GZIP)):
        for game in table:
            answer = client.get(game.url(f"/stream?after={start[game.id]}&timeout=1"), headers={**me, **extra})
            assert answer.status_code == 200, answer.data[:300]
            body = answer.data
            per_game[enc] += len(body)
            seen = (gzip.decompress(body) if enc == "gzip" else body).count(b"\nevent: ")
            per_game[enc] += seen * len(client.get(game.url("/prompts"), headers={**me, **extra}).data)
    cursor = ",".join(str(start[g.id]) for g in table)  # one number per game, in the order they were linked
    mine = {}
    for enc, extra in (("plain", {}), ("gzip", GZIP)):
        answer = client.get("/me/stream?timeout=1", headers={**me, **extra, "Last-Event-ID": cursor})
        assert answer.status_code == 200, answer.data[:300]
        mine[enc] = len(answer.data)
    ways = {"polling": polled["plain"], "polling-gzip": polled["gzip"], "per-game-feeds": per_game["plain"],
            "per-game-feeds-gzip": per_game["gzip"], "me-stream": mine["plain"], "me-stream-gzip": mine["gzip"]}
    return {"games": games, "moves": played, "events": events,
            "bytes": ways, "per_event": {k: round(v / max(events, 1)) for k, v in ways.items()},
            "per_move": {k: round(v / max(played, 1)) for k, v in ways.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.games, args.moves)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
