"""Do two engines play the same games? The same seeds must give the same events, in the same order.

    python bench/same_games.py --baseline REV [--games 30] [--players 3 4 5 6] [--option name=value ...]

Plays complete games between random legal players (the simulator's players, so the same seed makes
the same choices) with this checkout's engine and with the engine of git revision REV (a temporary
worktree, run in a subprocess), and compares a digest of each game's facts: every event but the
engine's bookkeeping (`BOOKKEEPING`: how it notes where its turn sequence stands, which changed form
with stream format 2) and without the ``end`` mark of a command's last event. A speed change must
print "identical" for every game; a rules change shows which games it altered.
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


def digest_of_game(seed: str, players: int, options: dict) -> str:
    """A digest of every fact of the game the simulator plays for ``seed``."""
    digest = hashlib.sha256()
    for batch in simulated_events(seed, players, options):
        for event in batch:
            if event["type"] in BOOKKEEPING:
                continue
            fact = {k: v for k, v in event.items() if k != "end"}
            if fact["type"] == "GameCreated":  # the stream format it names is not a fact of the game
                fact["payload"] = {k: v for k, v in fact["payload"].items() if k != "format"}
            digest.update(json.dumps(fact, sort_keys=True).encode())
    return digest.hexdigest()


def digests(games: int, players: list[int], options: dict) -> dict[str, str]:
    return {f"{p}:{k}": digest_of_game(f"same:{p}:{k}", p, options) for p in players for k in range(games)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    mine = digests(args.games, args.players, options)
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
                       "--players", *map(str, args.players), *[f"--option={o}" for o in args.option]]
            done = subprocess.run(command, env={**os.environ, "BENCH_ENGINE_ROOT": str(tree)}, check=True,
                                  capture_output=True, text=True)
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=False)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    differing = sorted(k for k in mine if mine[k] != theirs.get(k))
    print(f"{len(mine)} games ({', '.join(map(str, args.players))} players, options {options or 'default'}): "
          f"{len(mine) - len(differing)} identical, {len(differing)} different"
          + (f": {', '.join(differing[:10])}" if differing else ""))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
