"""How strong the bots are: any levels against each other, in process, as the service's bots play.

Each seat chooses with `workers.bots.choose` from what its seat may know (the seat's view; the
expert's knowledge with placeholders), exactly as the ``play_bots`` job does; a pick the rules
refuse is drawn again, and after 25 refusals the decision's default applies (as the job does).
The seats' levels move round the table from game to game (game k starts the list at seat k), so
seat order favours no level.

The table: ``--levels expert,heuristic,heuristic,heuristic,heuristic`` (one level per seat), or
``--hero expert --field heuristic`` (one hero seat, the rest the field), or the older
``--heuristic 1`` (heuristic seats, the rest random). ``--players`` (3-6) and ``--ruleset``
(mayfair or ffg) as in the service.

Prints one JSON line: games, finished, per level the seat-games played, the games won (a shared
win counts for each winner), the win rate per seat-game with its 95% Wilson interval, whether
that interval excludes the even share (1/P), and the CPU seconds the level spent choosing: per
decision on average (every decision, the ones it does not search included) and the longest. For a level with one seat per game the interval is the exact figure of interest; for
a level with several seats it treats seat-games as independent, which they are not quite.

The expert's budget per decision: ``--expert-steps`` (rollout answers; the default is the
service's) and ``--expert-seconds`` (the CPU cap). A bench with a smaller budget than the
service's measures a weaker expert: say so when quoting it.

    .venv/bin/python bench/bots.py --games 100 --players 5 --heuristic 1
    .venv/bin/python bench/bots.py --games 60 --players 5 --hero expert --field heuristic --ruleset ffg
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.decide import prompts  # noqa: E402
from engine.levels import LEVELS  # noqa: E402
from engine.search import expert  # noqa: E402
from engine.simulate import MAX_TURNS, legal_answer, new_game  # noqa: E402
from workers.bots import ATTEMPTS, choose  # noqa: E402

Z95 = 1.959964


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (95% by default); None for no trials."""
    if n <= 0:
        return None
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Clocked:
    """CPU seconds and decisions, per level, spent choosing."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.decisions: dict[str, int] = {}
        self.longest: dict[str, float] = {}

    def answer(self, state: dict, prompt: dict, level: str, rng, clock: int):
        """A legal answer as a bot of ``level`` gives it (the decision's default after 25 refusals)."""
        def chooser(s, p, r):
            started = time.process_time()
            try:
                return choose(s, p, level, r)
            finally:
                spent = time.process_time() - started
                self.seconds[level] = self.seconds.get(level, 0.0) + spent
                self.longest[level] = max(self.longest.get(level, 0.0), spent)
                self.decisions[level] = self.decisions.get(level, 0) + 1
        return legal_answer(state, prompt, rng, clock, choose=chooser, attempts=ATTEMPTS)


def play(seed: str, levels: list[str], ruleset: str = "mayfair", clocked: Clocked | None = None,
         options: dict | None = None) -> tuple[dict, dict[str, str]]:
    """One game; ``levels[k]`` plays seat k of the table order. Returns the final state and colour -> level."""
    clocked = clocked or Clocked()
    state, _ = new_game(seed, len(levels), options, ruleset)
    level_of = dict(zip(state["order"], levels, strict=True))
    rng, clock = random.Random(f"bench:{seed}"), 0
    while state["status"] == "playing" and (not state.get("turn") or state["turn"]["number"] <= MAX_TURNS):
        prompt = rng.choice(prompts(state))
        clock += 1000
        _, state = clocked.answer(state, prompt, level_of[prompt["player"]], rng, clock)
    return state, level_of


def _one(job) -> tuple:
    """Play game ``index`` of a run (in a pool's process): the final status, winners, seats and CPU spent."""
    index, seed, base, ruleset, players = job
    shift = index % players
    levels = base[shift:] + base[:shift]
    clocked = Clocked()
    state, level_of = play(f"{seed}:{index}", levels, ruleset, clocked)
    final = {"status": state["status"], "winners": list(state.get("winners") or []),
             "turn": state["turn"]["number"] if state.get("turn") else 0}
    return index, final, level_of, clocked.seconds, clocked.decisions, clocked.longest


def _collect(played, clocked: Clocked, started: float, progress: bool) -> list:
    results = []
    for index, final, level_of, seconds, decisions, longest in played:
        for level, spent in seconds.items():
            clocked.seconds[level] = clocked.seconds.get(level, 0.0) + spent
            clocked.decisions[level] = clocked.decisions.get(level, 0) + decisions[level]
            clocked.longest[level] = max(clocked.longest.get(level, 0.0), longest[level])
        results.append((final, level_of))
        if progress:
            print(json.dumps({"game": index, "winners": [level_of[w] for w in final["winners"]],
                              "turns": final["turn"], "seconds": round(time.perf_counter() - started, 1)}),
                  file=sys.stderr, flush=True)
    return results


def table(args) -> list[str]:
    """The levels of one game's seats, before rotation."""
    if args.levels:
        levels = [level.strip() for level in args.levels.split(",")]
        if len(levels) != args.players:
            if args.players_given:
                raise SystemExit(f"--levels names {len(levels)} seats but --players is {args.players}")
            args.players = len(levels)
    elif args.hero:
        levels = [args.hero] + [args.field] * (args.players - 1)
    else:
        levels = ["heuristic"] * args.heuristic + ["random"] * (args.players - args.heuristic)
    unknown = sorted(set(levels) - set(LEVELS))
    if unknown:
        raise SystemExit(f"unknown level {unknown[0]!r}; levels: {', '.join(LEVELS)}")
    return levels


def summarize(games: int, players: int, ruleset: str, base: list[str], results: list, clocked: Clocked,
              seconds: float) -> dict:
    """The JSON summary of a run (see the module)."""
    seats = dict.fromkeys(base, 0)
    wins = dict.fromkeys(base, 0)
    finished = 0
    for state, level_of in results:
        for level in level_of.values():
            seats[level] += 1
        if state["status"] == "finished":
            finished += 1
            for winner in state["winners"]:
                wins[level_of[winner]] += 1
    even = 1 / players
    levels = {}
    for level in seats:
        interval = wilson(wins[level], seats[level])
        decisions = clocked.decisions.get(level, 0)
        levels[level] = {
            "seats_per_game": base.count(level), "seat_games": seats[level], "wins": wins[level],
            "win_rate": round(wins[level] / seats[level], 3) if seats[level] else None,
            "interval95": [round(interval[0], 3), round(interval[1], 3)] if interval else None,
            "excludes_even_share": (interval[0] > even or interval[1] < even) if interval else None,
            "decisions": decisions,
            "cpu_per_decision": round(clocked.seconds.get(level, 0.0) / decisions, 5) if decisions else None,
            "cpu_longest_decision": round(clocked.longest.get(level, 0.0), 4) if decisions else None}
    return {"games": games, "players": players, "ruleset": ruleset, "table": base, "finished": finished,
            "seconds": round(seconds, 1), "even_share": round(even, 3), "levels": levels}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=None, help="3 to 6 (default 5, or as many as --levels)")
    parser.add_argument("--levels", help="one level per seat, comma-separated (rotated round the table)")
    parser.add_argument("--hero", help="the level of one seat (with --field for the others)")
    parser.add_argument("--field", default="heuristic", help="the level of the other seats (with --hero)")
    parser.add_argument("--heuristic", type=int, default=1, help="heuristic seats per game, the rest random "
                                                                  "(without --levels or --hero)")
    parser.add_argument("--ruleset", default="mayfair", choices=("mayfair", "ffg"))
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--first", type=int, default=0, help="the index of the first game (to split a run)")
    parser.add_argument("--expert-steps", type=int, default=None, help="the expert's rollout answers per decision")
    parser.add_argument("--expert-seconds", type=float, default=None, help="the expert's CPU cap per decision")
    parser.add_argument("--expert-horizon", type=int, default=None, help="the expert's horizon in encounters")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, in as many processes")
    parser.add_argument("--progress", action="store_true", help="print a line per game to stderr")
    args = parser.parse_args(argv)
    args.players_given = args.players is not None
    args.players = args.players or 5
    base = table(args)
    expert.configure(steps=args.expert_steps, seconds=args.expert_seconds, encounters=args.expert_horizon)
    started = time.perf_counter()
    clocked = Clocked()
    results = []
    jobs = [(index, args.seed, base, args.ruleset, args.players) for index in range(args.first, args.first + args.games)]
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            played = pool.imap(_one, jobs)
            results = _collect(played, clocked, started, args.progress)
    else:
        results = _collect(map(_one, jobs), clocked, started, args.progress)
    summary = summarize(args.games, args.players, args.ruleset, base, results, clocked,
                        time.perf_counter() - started)
    summary["seed"], summary["first"] = args.seed, args.first
    if "expert" in base:
        budget = expert.budget()
        summary["expert_budget"] = {"steps": budget.steps, "seconds": budget.seconds, "encounters": budget.encounters}
    print(json.dumps(summary, sort_keys=True))
    return summary


if __name__ == "__main__":
    main()
