"""Benchmark of the rules engine: throughput, and whether an action's cost depends on game length.

    python bench/engine.py [--games 50] [--seed 1] [--late-events 1000] [--walks 40] [--walk-length 25]

Prints:
- games/s and events/s for complete 5-player games between random legal players;
- the cost of decide + evolve (``engine.execute``) and of evolve alone (``engine.fold``) per event,
  measured from a state at the start of a game and from a state after ~1,000 events of the same
  game, and the ratio late/early (close to 1 means the cost does not grow with the game).

Costs are CPU time of this process (``time.process_time``), so other load on the machine does
not distort the ratio. A benchmark, not a test: it measures and prints; nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import fold, prompts  # noqa: E402
from engine.simulate import legal_answer, new_game, simulate  # noqa: E402
from engine.state import clone  # noqa: E402

PLAYERS = 5


def legal_step(state: dict, rng: random.Random, at: int) -> tuple[list[dict], dict]:
    """One random legal command applied to ``state`` (which is left unchanged)."""
    return legal_answer(state, rng.choice(prompts(state)), rng, at)


def snapshots(seed: str, late_events: int) -> tuple[dict, dict, int]:
    """Two states at the same point of a turn (just after a turn began): at the game's start, and
    after at least ``late_events`` events of the same game, so both walks do the same kind of work."""
    state, log = new_game(seed, PLAYERS)
    early = clone(state)
    rng = random.Random(f"bench:{seed}")
    count, at, turn_began = len(log), 0, False
    while count < late_events or not turn_began:
        if state["status"] != "playing":
            raise SystemExit(f"game {seed} ended after {count} events; pick another seed")
        at += 1000
        events, state = legal_step(state, rng, at)
        count += len(events)
        turn_began = any(e["type"] == "TurnBegan" for e in events)
    return early, state, count


def walk_cost(start: dict, walks: int, length: int) -> dict:
    """Time many short walks of commands from one state: execute per event, then evolve alone per event."""
    executed_seconds, events_seen, recorded = 0.0, 0, []
    for walk in range(walks):
        rng = random.Random(f"walk:{walk}")
        state, at = start, start.get("time", 0)
        for _ in range(length):
            if state["status"] != "playing":
                break
            at += 1000
            began = time.process_time()
            events, after = legal_step(state, rng, at)
            executed_seconds += time.process_time() - began
            events_seen += len(events)
            recorded.append((state, events))
            state = after
    evolve_seconds = 0.0
    for state, events in recorded:
        base, copies = clone(state), json.loads(json.dumps(events))
        began = time.process_time()
        fold(copies, base)
        evolve_seconds += time.process_time() - began
    return {"events": events_seen, "execute_us": 1e6 * executed_seconds / events_seen,
            "evolve_us": 1e6 * evolve_seconds / events_seen}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--late-events", type=int, default=1000)
    parser.add_argument("--walks", type=int, default=40)
    parser.add_argument("--walk-length", type=int, default=25)
    args = parser.parse_args(argv)

    summary = simulate(args.games, PLAYERS, args.seed)
    print(f"throughput, {args.games} games of {PLAYERS} players (seed {args.seed}): "
          f"{summary['games_per_second']:.2f} games/s, {summary['events_per_second']:.0f} events/s, "
          f"{summary['mean_events_per_game']:.0f} events/game, finished {summary['finished']}, "
          f"errors {summary['errors']}, violations {summary['invariant_violations']}")

    early, late, late_at = snapshots(f"{args.seed}:bench", args.late_events)
    early_cost = walk_cost(early, args.walks, args.walk_length)
    late_cost = walk_cost(late, args.walks, args.walk_length)
    print(f"decide+evolve per event at game start (version {early['v']}): {early_cost['execute_us']:.1f} us "
          f"over {early_cost['events']} events; evolve alone {early_cost['evolve_us']:.2f} us")
    print(f"decide+evolve per event after {late_at} events (version {late['v']}): "
          f"{late_cost['execute_us']:.1f} us over {late_cost['events']} events; "
          f"evolve alone {late_cost['evolve_us']:.2f} us")
    print(f"ratio late/early: decide+evolve {late_cost['execute_us'] / early_cost['execute_us']:.2f}, "
          f"evolve {late_cost['evolve_us'] / early_cost['evolve_us']:.2f}")


if __name__ == "__main__":
    main()
