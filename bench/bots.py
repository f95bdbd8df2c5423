"""How strong the bots are: heuristic seats against random seats, in process, as the service's bots play.

Each seat chooses with `workers.bots.choose` from its own seat's view (the public board and
its own cards), exactly as the ``play_bots`` job does; a pick the rules refuse is drawn
again, and after 25 refusals the decision's default applies (as the job does). The heuristic
seats move round the table from game to game, so seat order does not favour either level.
Prints one JSON line: games, finished, per level the seats played, games won (a shared win
counts for each winner) and the win rate per seat-game; with P players an even share is 1/P.

    .venv/bin/python bench/bots.py --games 200 --players 5 --heuristic 1
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.decide import prompts  # noqa: E402
from engine.simulate import MAX_TURNS, legal_answer, new_game  # noqa: E402
from workers.bots import ATTEMPTS, choose  # noqa: E402


def answer(state: dict, prompt: dict, level: str, rng, clock: int):
    """A legal answer as a bot of ``level`` gives it (the decision's default after 25 refusals)."""
    return legal_answer(state, prompt, rng, clock, choose=lambda s, p, r: choose(s, p, level, r),
                        attempts=ATTEMPTS)


def play(seed: str, levels: list[str]) -> tuple[dict, dict[str, str]]:
    """One game; ``levels[k]`` plays seat k of the table order. Returns the final state and colour -> level."""
    state, _ = new_game(seed, len(levels))
    level_of = dict(zip(state["order"], levels, strict=True))
    rng, clock = random.Random(f"bench:{seed}"), 0
    while state["status"] == "playing" and state["turn"]["number"] <= MAX_TURNS:
        prompt = rng.choice(prompts(state))
        clock += 1000
        _, state = answer(state, prompt, level_of[prompt["player"]], rng, clock)
    return state, level_of


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--heuristic", type=int, default=1, help="heuristic seats per game (the rest are random)")
    parser.add_argument("--seed", default="bots")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    seats = {"heuristic": 0, "random": 0}
    wins = {"heuristic": 0, "random": 0}
    finished = 0
    for index in range(args.games):
        base = ["heuristic"] * args.heuristic + ["random"] * (args.players - args.heuristic)
        shift = index % args.players
        levels = base[shift:] + base[:shift]
        state, level_of = play(f"{args.seed}:{index}", levels)
        for level in levels:
            seats[level] += 1
        if state["status"] == "finished":
            finished += 1
            for winner in state["winners"]:
                wins[level_of[winner]] += 1
    summary = {"games": args.games, "players": args.players, "heuristic_seats": args.heuristic,
               "finished": finished, "seconds": round(time.perf_counter() - started, 1),
               "even_share": round(1 / args.players, 3),
               "levels": {level: {"seat_games": seats[level], "wins": wins[level],
                                  "win_rate": round(wins[level] / seats[level], 3) if seats[level] else None}
                          for level in seats}}
    print(json.dumps(summary, sort_keys=True))
    return summary


if __name__ == "__main__":
    main()
