"""Do two engines play the same games? The same seeds must give the same events, in the same order.

    python bench/same_games.py --baseline REV [--games 30] [--players 3 4 5 6] [--option name=value ...]
                               [--ruleset mayfair|ffg] [--every-set] [--bookkeeping]

Plays complete games between random legal players (the simulator's players, so the same seed makes
the same choices) with this checkout's engine and with the engine of git revision REV (a temporary
worktree, run in a subprocess), and compares a digest of each game's facts: every event but the
engine's bookkeeping (`BOOKKEEPING`: how it notes where its turn sequence stands, which changed form
with stream format 2) and without the ``end`` mark of a command's last event. A speed change must
print "identical" for every game; a rules change shows which games it altered.

``--every-set``: instead of one option set, every set `bench/playthroughs.py` plays (the defaults and
each option on its own, of each edition), ``--games`` games of each spread over its player counts.
``--bookkeeping``: compare every event, the engine's bookkeeping and the ``end`` marks included (two
engines of the same stream format that should differ in nothing but speed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ENGINE_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from simulated import simulated_events  # noqa: E402  (bench/ is this script's folder, on sys.path)

# the engine's bookkeeping in every stream format so far (not imported: older engines lack some)
BOOKKEEPING = frozenset({"Bookmark", "StepsScheduled", "StepUpdated", "AgendaUnwound", "DecisionsOpened"})


def digest_of_game(seed: str, players: int, options: dict, ruleset: str = "mayfair",
                   bookkeeping: bool = False) -> str:
    """A digest of every fact of the game the simulator plays for ``seed`` (every event, with ``bookkeeping``)."""
    digest = hashlib.sha256()
    for batch in simulated_events(seed, players, options, ruleset=ruleset):
        for event in batch:
            if bookkeeping:
                digest.update(json.dumps(event, sort_keys=True).encode())
                continue
            if event["type"] in BOOKKEEPING:
                continue
            fact = {k: v for k, v in event.items() if k != "end"}
            if fact["type"] == "GameCreated":  # the stream format it names is not a fact of the game
                fact["payload"] = {k: v for k, v in fact["payload"].items() if k != "format"}
            digest.update(json.dumps(fact, sort_keys=True).encode())
    return digest.hexdigest()


def digests(games: int, players: list[int], options: dict, ruleset: str = "mayfair",
            bookkeeping: bool = False) -> dict[str, str]:
    return {f"{p}:{k}": digest_of_game(f"same:{p}:{k}", p, options, ruleset, bookkeeping)
            for p in players for k in range(games)}


def every_set() -> list[dict]:
    """The option sets of `bench/playthroughs.py` (this checkout's), as JSON the baseline's run is given."""
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    from playthroughs import option_sets
    found = []
    for label, options, counts in option_sets():
        options = dict(options)
        found.append({"label": label, "ruleset": options.pop("ruleset", "mayfair"), "options": options,
                      "players": list(counts)})
    return found


def digests_of_sets(sets: list[dict], games: int, bookkeeping: bool) -> dict[str, str]:
    """``games`` games of each set, spread over its player counts."""
    return {f"{s['label']}:{k}": digest_of_game(f"same:{s['label']}:{k}", s["players"][k % len(s["players"])],
                                                s["options"], s["ruleset"], bookkeeping)
            for s in sets for k in range(games)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--ruleset", default="mayfair", choices=("mayfair", "ffg"))
    parser.add_argument("--every-set", action="store_true")
    parser.add_argument("--bookkeeping", action="store_true")
    parser.add_argument("--sets", help=argparse.SUPPRESS)  # (the baseline's run is given the parent's sets)
    args = parser.parse_args(argv)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    sets = json.loads(args.sets) if args.sets else (every_set() if args.every_set else None)
    if sets is not None:
        mine = digests_of_sets(sets, args.games, args.bookkeeping)
    else:
        mine = digests(args.games, args.players, options, args.ruleset, args.bookkeeping)
    if args.json or not args.baseline:
        print(json.dumps(mine))
        return 0
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="same-games-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "--quiet", str(tree), args.baseline],
                       check=True)
        try:
            command = [sys.executable, str(Path(__file__).resolve()), "--json", "--games", str(args.games),
                       "--players", *map(str, args.players), *[f"--option={o}" for o in args.option],
                       "--ruleset", args.ruleset, *(["--bookkeeping"] if args.bookkeeping else []),
                       *(["--sets", json.dumps(sets)] if sets is not None else [])]
            done = subprocess.run(command, env={**os.environ, "BENCH_ENGINE_ROOT": str(tree)}, check=True,
                                  capture_output=True, text=True)
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=False)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    differing = sorted(k for k in mine if mine[k] != theirs.get(k))
    what = (f"every option set ({len(sets)})" if sets is not None else
            f"{', '.join(map(str, args.players))} players, {args.ruleset}, options {options or 'default'}")
    compared = "every event" if args.bookkeeping else "facts"
    print(f"{len(mine)} games ({what}; {compared}): {len(mine) - len(differing)} identical, "
          f"{len(differing)} different" + (f": {', '.join(differing[:10])}" if differing else ""))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
