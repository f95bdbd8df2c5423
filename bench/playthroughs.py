"""Random playthroughs over the option matrix: every game ends, or keeps offering legal moves.

    python bench/playthroughs.py [--games 10000] [--jobs 2] [--seed 1] [--only NAME ...] [--json FILE]

For each option set (the defaults, then each option of RULES.md section 1 set on its own to
its non-default value; then the same for the ``ffg`` edition, its own options only) it plays
``--games`` complete games between random legal players,
spread evenly over the player counts the set allows (3-6; 2 for ``honeymoon``), checking
every invariant after every command (`engine.simulate.play_game`). It prints one line per
set (and a line by player count) and a total, and exits with status 1 when any game crashed or broke an invariant (a
decision always owed is one of them). A game still going at the simulator's turn cap (1,000
turns) is counted under "capped": it kept offering legal moves, but random players did not
finish it (two players without the honeymoon, mostly: see tests/engine/test_simulation.py).

Not a test (it takes hours at 10,000 games per set): the suite plays a few games per option in
``tests/engine/test_simulation.py``; this is the long run behind a release note.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import rulesets  # noqa: E402
from engine.options import OPTIONS  # noqa: E402
from engine.simulate import play_game  # noqa: E402

PLAYER_COUNTS = (3, 4, 5, 6)
FFG_PLAYER_COUNTS = (3, 4, 5)
# the value each option takes when it is "on its own"; options not listed are flipped (booleans)
NON_DEFAULT = {"powers_per_player": 2, "deal_seconds": 5, "decision_seconds": 30}
SKIPPED = {"power_pool"}  # a restriction of the pool, not a rule: covered by the catalogue tests


def option_sets() -> list[tuple[str, dict, tuple[int, ...]]]:
    """(label, options, player counts) for the defaults and each option on its own, of each edition
    (an ``ffg`` set's label starts with ``ffg``, and its options ride in the ``ruleset`` key)."""
    sets = [("defaults", {}, PLAYER_COUNTS), ("two players", {}, (2,))]
    for name, (kind, default, _allowed, _meaning) in OPTIONS.items():
        if name in SKIPPED:
            continue
        value = NON_DEFAULT.get(name, (not default) if kind is bool else None)
        if value is None:
            continue
        counts = (2,) if name == "honeymoon" else PLAYER_COUNTS
        sets.append((f"{name}={json.dumps(value)}", {name: value}, counts))
    ffg = rulesets.FFG
    sets.append(("ffg", {"ruleset": "ffg"}, FFG_PLAYER_COUNTS))
    for name, (kind, default, _allowed, _meaning) in OPTIONS.items():
        if name in SKIPPED or name in ffg.fixed_options:
            continue
        value = NON_DEFAULT.get(name, (not default) if kind is bool else None)
        if value is None:
            continue
        counts = (2,) if name == "honeymoon" else FFG_PLAYER_COUNTS
        sets.append((f"ffg {name}={json.dumps(value)}", {"ruleset": "ffg", name: value}, counts))
    return sets


def _play(job: tuple[str, int, dict]) -> dict:
    seed, players, options = job
    options = dict(options)
    ruleset = options.pop("ruleset", "mayfair")
    result = play_game(seed, players, options, ruleset=ruleset)
    return {"error": result.error, "violations": result.violations, "finished": result.finished,
            "unfinished": result.unfinished_reason, "turns": result.turns, "seed": seed, "players": players}


def run_set(pool, label: str, options: dict, counts: tuple[int, ...], games: int, seed: int) -> dict:
    jobs = [(f"{seed}:{label}:{index}", counts[index % len(counts)], options) for index in range(games)]
    started = time.perf_counter()
    summary = {"set": label, "games": games, "players": list(counts), "finished": 0, "errors": 0,
               "invariant_violations": 0, "unfinished": 0, "turns": 0, "examples": [],
               "by_players": {str(n): {"games": 0, "finished": 0, "errors": 0, "invariant_violations": 0,
                                       "unfinished": 0} for n in counts}}
    for outcome in pool.imap_unordered(_play, jobs, chunksize=4):
        seats = summary["by_players"][str(outcome["players"])]
        seats["games"] += 1
        seats["finished"] += outcome["finished"]
        seats["errors"] += outcome["error"] is not None
        seats["invariant_violations"] += len(outcome["violations"])
        seats["unfinished"] += outcome["unfinished"] is not None
        summary["turns"] += outcome["turns"]
        summary["finished"] += outcome["finished"]
        summary["errors"] += outcome["error"] is not None
        summary["invariant_violations"] += len(outcome["violations"])
        summary["unfinished"] += outcome["unfinished"] is not None
        problem = outcome["error"] or "; ".join(outcome["violations"][:2])
        if problem and len(summary["examples"]) < 3:
            summary["examples"].append({"seed": outcome["seed"], "players": outcome["players"],
                                        "problem": problem[-600:]})
    summary["seconds"] = round(time.perf_counter() - started, 1)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per option set")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", help="labels (or option names) of the sets to run")
    parser.add_argument("--json", type=Path, help="also write the summaries to this file")
    args = parser.parse_args(argv)
    sets = option_sets()
    if args.only:
        sets = [s for s in sets if s[0] in args.only or s[0].split("=")[0] in args.only]
    summaries = []
    print(f"{'option set':32} {'games':>6} {'finished':>8} {'errors':>6} {'violations':>10} "
          f"{'capped':>6} {'turns':>8} {'seconds':>8}", flush=True)
    with multiprocessing.Pool(args.jobs) as pool:
        for label, options, counts in sets:
            summary = run_set(pool, label, options, counts, args.games, args.seed)
            summaries.append(summary)
            print(f"{label:32} {summary['games']:>6} {summary['finished']:>8} {summary['errors']:>6} "
                  f"{summary['invariant_violations']:>10} {summary['unfinished']:>6} {summary['turns']:>8} "
                  f"{summary['seconds']:>8}", flush=True)
            print("    by players: " + "; ".join(
                f"{n}: {c['games']} games, {c['finished']} finished, {c['errors']} errors, "
                f"{c['invariant_violations']} violations, {c['unfinished']} capped"
                for n, c in summary["by_players"].items()), flush=True)
            for example in summary["examples"]:
                print(f"    {example}", flush=True)
    bad = sum(s["errors"] + s["invariant_violations"] for s in summaries)
    capped = sum(s["unfinished"] for s in summaries)
    print(f"total: {sum(s['games'] for s in summaries)} games, {bad} with an error or a broken invariant, "
          f"{capped} still going at the turn cap", flush=True)
    if args.json:
        args.json.write_text(json.dumps(summaries, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
