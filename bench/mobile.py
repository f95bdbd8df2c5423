"""What a phone pays to follow 10 games, on the real processes (issue 29): bytes per event and per move, a long
game's catch-up, and what ``GET /me/games`` costs as games grow.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/mobile.py --games 10 --moves 200

It starts gunicorn (gunicorn.conf.py, as shipped) and one ``cosmic worker`` on REDIS_URL under a fresh key
prefix (deleted afterwards). A player (``POST /players``) holds one seat in each of ``--games``
three-seat games; this script plays every seat of them (random legal moves, ``--moves`` in all, round
robin) while measuring the ways a client can follow them, all at once over exactly those moves:

- ``polling``: after every move the client asks each game's board with ``If-None-Match`` (a 304 with no
  body when it has not moved) and, for the game that moved, its ``/prompts`` (is it my move?) — what a
  client had to do before issue 29, with nothing compressed;
- ``per-game feeds``: a live ``/games/{id}/stream`` per game (the player's seat token), plus a
  ``/prompts`` read for every event a feed carries, since a game's feed carries no prompts (counted as
  events carried x the mean ``/prompts`` answer measured while polling);
- ``/me/stream``: one live feed of all the games, its ``your-move`` messages carrying the prompts.

Each way plain and with ``Accept-Encoding: gzip``. Bytes are what the client receives: status line,
header fields and the body as sent (compressed when it was; chunked framing not counted); the requests
the client sends are not counted. "before" is polling and per-game feeds plain (all there was); the
ratio column compares each way with polling plain, measured in the same run.

Then:

- catch-up: one long game (``--long-moves`` moves, or to its end) read from its first event as the
  player's seat: ``GET /games/{id}/events`` pages (full, before) against ``?view=compact`` (after),
  plain and gzip;
- ``/me/games``: what the list reads per game. Before: the game's state folded
  (`projections.repository.Repository.current` in a process whose cache does not hold the game: a
  snapshot and the events after it), as the route did; after: the game's standing
  (`projections.standing`), one small key. Timed here against the same Redis for the short games and
  the long one (median of ``--reads``), and ``GET /me/games`` over HTTP for the player's games.

Figures are printed (a table, then one JSON line), never asserted; with the load average, since the
machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
import zlib
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gunicorn_service import Service  # noqa: E402
from workers.settings import ENV_NAMES, LIMIT_FIELDS  # noqa: E402

BIN = Path(sys.executable).parent
ADMIN_TOKEN = "mobile-bench-" + uuid.uuid4().hex
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
ROOMY_LIMITS = {ENV_NAMES[name]: "1000000 per minute" for name in LIMIT_FIELDS}
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}
ENCODINGS = (("plain", PLAIN), ("gzip", GZIP))


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


# --- the processes ----------------------------------------------------------------------------------

def Servers(redis_url: str, folder: Path) -> Service:
    """gunicorn (as shipped) and one `cosmic worker` on REDIS_URL under a fresh prefix, removed by `stop`."""
    return Service(redis_url, folder, "mobile-bench", {"COSMIC_ADMIN_TOKEN": ADMIN_TOKEN, **ROOMY_LIMITS})


# --- bytes on the wire ------------------------------------------------------------------------------

def head_bytes(answer) -> int:
    """The status line and header fields as received."""
    raw = answer.raw
    return len(f"HTTP/1.1 {answer.status_code} {answer.reason}\r\n") + \
        sum(len(k) + len(v) + 4 for k, v in raw.headers.items()) + 2


def fetch(session, url: str, headers: dict) -> tuple[requests.Response, int, bytes]:
    """A GET: (the answer, bytes received, the body as sent: compressed if it was)."""
    answer = session.get(url, headers=headers, stream=True, timeout=60)
    body = answer.raw.read(decode_content=False)
    answer.close()
    return answer, head_bytes(answer) + len(body), body


def decoded(body: bytes, answer) -> bytes:
    return zlib.decompress(body, zlib.MAX_WBITS | 16) if answer.headers.get("Content-Encoding") == "gzip" else body


class Feed(threading.Thread):
    """One live feed read in a thread: bytes as received (compressed if it was), until `close`."""

    def __init__(self, url: str, headers: dict):
        super().__init__(daemon=True)
        self.url, self.headers = url, headers
        self.received, self.chunks, self.answer = 0, [], None
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            self.answer = requests.get(self.url, headers=self.headers, stream=True, timeout=600)
            self.received = head_bytes(self.answer)
            self.ready.set()
            for chunk in self.answer.raw.stream(None, decode_content=False):
                self.chunks.append(chunk)
                self.received += len(chunk)
        except Exception:  # closed by `close`
            pass
        finally:
            self.ready.set()

    def close(self) -> None:
        if self.answer is not None:
            self.answer.close()
        self.join(10)

    def text(self) -> str:
        body = b"".join(self.chunks)
        if self.answer is not None and self.answer.headers.get("Content-Encoding") == "gzip":
            body = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(body)
        return body.decode("utf-8", "replace")


def events_in(text: str) -> int:
    """Messages of a feed that are events (not your-move / no-longer-yours / end)."""
    return sum(1 for line in text.splitlines() if line.startswith("event: ") and
               line[7:] not in ("your-move", "no-longer-yours", "end"))


# --- games ------------------------------------------------------------------------------------------

def seated_game(base: str, key: str, seed: str) -> tuple[str, str, dict[str, str]]:
    """A started three-seat game whose first seat the player took with its key: (id, its colour, tokens)."""
    made = requests.post(f"{base}/games", json={"seats": 3, "seed": seed}, headers=ADMIN, timeout=30).json()
    tokens, mine = {}, None
    for k, headers in enumerate((bearer(key), {}, {})):
        joined = requests.post(f"{base}/games/{made['id']}/players", json={"name": f"p{k}"}, headers=headers,
                               timeout=30).json()
        tokens[joined["color"]] = joined["token"]
        mine = mine or joined["color"]
    requests.post(f"{base}/games/{made['id']}/start", headers=ADMIN, timeout=30).raise_for_status()
    return made["id"], mine, tokens


def version(base: str, game_id: str) -> int:
    return requests.get(f"{base}/games/{game_id}", timeout=30).json()["version"]


# --- the three parts --------------------------------------------------------------------------------

def follow(base: str, key: str, games: list, moves: int, rng: random.Random) -> dict:
    """Bytes of each way of following the games over ``moves`` moves (see the module docstring)."""
    from tests.e2e.test_mobile_secrecy import move

    session = requests.Session()
    start = {g: version(base, g) for g, _, _ in games}
    etags = {}
    for g, _, _ in games:
        for enc, headers in ENCODINGS:
            etags[(g, enc)] = fetch(session, f"{base}/games/{g}", headers)[0].headers["ETag"]
    cursor = ",".join(str(start[g]) for g, _, _ in games)  # one number per game, in the order they were linked
    feeds = {enc: [Feed(f"{base}/games/{g}/stream?after={start[g]}&timeout=3600", {**bearer(tokens[mine]), **h})
                   for g, mine, tokens in games] for enc, h in ENCODINGS}
    mine = {enc: Feed(f"{base}/me/stream?timeout=3600", {**bearer(key), **h, "Last-Event-ID": cursor})
            for enc, h in ENCODINGS}
    every = [f for fs in feeds.values() for f in fs] + list(mine.values())
    for feed in every:
        feed.start()
    for feed in every:
        feed.ready.wait(30)
        assert feed.answer is not None and feed.answer.status_code == 200, feed.url
    polled = {"plain": 0, "gzip": 0}
    prompt_reads = {"plain": [], "gzip": []}
    played = 0
    while played < moves:
        game_id, _, tokens = games[played % len(games)]
        if not move(base, game_id, tokens, rng):
            break  # a game ended: the others stop too, so every way sees the same moves
        played += 1
        for enc, headers in ENCODINGS:
            for g, _, _ in games:
                answer, size, _ = fetch(session, f"{base}/games/{g}", {**bearer(key), **headers,
                                                                      "If-None-Match": etags[(g, enc)]})
                polled[enc] += size
                etags[(g, enc)] = answer.headers.get("ETag", etags[(g, enc)])
            _, size, _ = fetch(session, f"{base}/games/{game_id}/prompts", {**bearer(key), **headers})
            polled[enc] += size
            prompt_reads[enc].append(size)
    time.sleep(2)  # the last events reach every feed
    for feed in every:
        feed.close()
    events = sum(version(base, g) - start[g] for g, _, _ in games)
    ways = {}
    for enc, _ in ENCODINGS:
        carried = sum(events_in(f.text()) for f in feeds[enc])
        ways[f"polling {enc}"] = polled[enc]
        ways[f"per-game feeds {enc}"] = sum(f.received for f in feeds[enc]) + \
            round(carried * statistics.mean(prompt_reads[enc]))
        ways[f"/me/stream {enc}"] = mine[enc].received
    my_text = mine["plain"].text()
    return {"games": len(games), "moves": played, "events": events, "bytes": ways,
            "your_move_messages": my_text.count("event: your-move"), "me_stream_events": events_in(my_text)}


def catch_up(base: str, game_id: str, key: str) -> dict:
    """Bytes of reading a game's whole log as the player's seat: full pages against compact ones."""
    session, sizes = requests.Session(), {}
    for view in ("full", "compact"):
        for enc, headers in ENCODINGS:
            after, total, entries = 0, 0, 0
            while True:
                answer, size, body = fetch(session, f"{base}/games/{game_id}/events?after={after}&limit=1000&view={view}",
                                           {**bearer(key), **headers})
                page = json.loads(decoded(body, answer))
                total, entries, after = total + size, entries + len(page["events"]), page["next_after"]
                if not page["more"]:
                    break
            sizes[f"{view} {enc}"] = total
            sizes[f"{view} entries"] = entries
    return sizes


def my_games_cost(servers: Servers, games: dict[str, list[str]], key: str, reads: int) -> dict:
    """Per game read by ``/me/games``: the state folded (before) against the standing (after), in ms; and the
    route over HTTP."""
    import redis

    from events.store import EventStore
    from projections.repository import Repository
    from projections.standing import Standings
    from workers.settings import Settings

    defaults = Settings()
    client = redis.Redis.from_url(servers.redis_url)
    store = EventStore(client, prefix=servers.prefix)
    out = {}
    try:
        for label, ids in games.items():
            folded, read, sizes = [], [], []
            for _ in range(reads):
                repository = Repository(store, snapshot_every=defaults.snapshot_every,
                                        checkpoint_every=defaults.checkpoint_every)  # a cache without these games
                began = time.perf_counter()
                states = [repository.current(game_id) for game_id in ids]
                folded.append((time.perf_counter() - began) * 1000 / len(ids))
                sizes = [len(json.dumps(state, separators=(",", ":"))) for state in states]
                standings = Standings(store, repository)
                began = time.perf_counter()
                standings.read(ids)
                read.append((time.perf_counter() - began) * 1000 / len(ids))
            events = statistics.mean(store.version(g) for g in ids)
            out[label] = {"games": len(ids), "events_per_game": round(events),
                          "fold_ms_per_game": round(statistics.median(folded), 3),
                          "standing_ms_per_game": round(statistics.median(read), 3),
                          "state_bytes": round(statistics.mean(sizes)),
                          "standing_bytes": round(statistics.mean(len(client.get(Standings(store, None).key(g)) or b"")
                                                                  for g in ids))}
        session, times = requests.Session(), []
        for _ in range(reads):
            began = time.perf_counter()
            listed = session.get(f"{servers.base}/me/games?limit=200", headers=bearer(key), timeout=60)
            times.append((time.perf_counter() - began) * 1000)
            listed.raise_for_status()
        out["http"] = {"games": len(listed.json()["games"]), "ms_median": round(statistics.median(times), 2)}
    finally:
        client.close()
    return out


def table(rows: list[tuple], header: tuple) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(row) -> str:
        return "  ".join(str(v).rjust(w) if i else str(v).ljust(w) for i, (v, w) in enumerate(zip(row, widths,
                                                                                                 strict=True)))
    return "\n".join([line(header), line(tuple("-" * w for w in widths)), *map(line, rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=200, help="moves in all over the games followed")
    parser.add_argument("--long-moves", type=int, default=1500, help="moves of the long game (or to its end)")
    parser.add_argument("--reads", type=int, default=20, help="repetitions of each /me/games timing")
    args = parser.parse_args(argv)
    url = os.environ.get("REDIS_URL")
    if not url:
        parser.error("set REDIS_URL (a database of your own: keys go under a fresh prefix, deleted afterwards)")
    load_average = lambda: [round(x, 2) for x in os.getloadavg()]  # noqa: E731
    with tempfile.TemporaryDirectory() as folder:
        servers = Servers(url, Path(folder)).start()
        try:
            base = servers.base
            key = requests.post(f"{base}/players", json={"name": "phone"}, timeout=30).json()["key"]
            games = [seated_game(base, key, f"mobile-{k}") for k in range(args.games)]
            rng = random.Random("bench-mobile")
            followed = follow(base, key, games, args.moves, rng)
            from tests.e2e.test_mobile_secrecy import move
            long_game = seated_game(base, key, "mobile-long")
            played = 0
            while played < args.long_moves and move(base, long_game[0], long_game[2], rng):
                played += 1
            caught = catch_up(base, long_game[0], key)
            caught["moves"], caught["events"] = played, version(base, long_game[0])
            cost = my_games_cost(servers, {"short": [g for g, _, _ in games], "long": [long_game[0]]}, key, args.reads)
        finally:
            servers.stop()
    events, played = followed["events"], followed["moves"]
    base_bytes = followed["bytes"]["polling plain"]
    rows = [(way, size, round(size / max(events, 1)), round(size / max(played, 1)), f"{size / base_bytes:.3f}")
            for way, size in followed["bytes"].items()]
    print(f"{followed['games']} games, {played} moves, {events} events "
          f"({followed['me_stream_events']} on /me/stream, {followed['your_move_messages']} your-move messages)")
    print(table(rows, ("way", "bytes", "per event", "per move", "vs polling plain")))
    print(f"\ncatch-up of one game as the player's seat: {caught['moves']} moves, {caught['events']} events, "
          f"{caught['full entries']} full entries, {caught['compact entries']} compact")
    print(table([(f"{view} {enc}", caught[f"{view} {enc}"], f"{caught[f'{view} {enc}'] / caught['full plain']:.3f}")
                 for view in ("full", "compact") for enc in ("plain", "gzip")], ("log", "bytes", "vs full plain")))
    print(f"\n/me/games, per game read (median of {args.reads})")
    print(table([(label, c["games"], c["events_per_game"], c["fold_ms_per_game"], c["state_bytes"],
                  c["standing_ms_per_game"], c["standing_bytes"]) for label, c in cost.items() if label != "http"],
                ("games", "count", "events each", "before: fold ms", "state bytes", "after: standing ms",
                 "standing bytes")))
    print(f"GET /me/games over HTTP ({cost['http']['games']} games): {cost['http']['ms_median']} ms median")
    print(f"load average: {load_average()}")
    print(json.dumps({"follow": followed, "catch_up": caught, "my_games": cost, "load_average": load_average()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
