"""Benchmark of the rules engine: turns per CPU-second, events per turn, and whether an action's cost grows.

    python bench/engine.py [--games 40] [--seed 1] [--late-events 1000] [--walks 40] [--walk-length 25]
                           [--baseline REV] [--interpreted] [--rounds 1] [--json]

Prints, for complete 5-player games between random legal players (invariant checks off):
- turns per CPU-second and games per CPU-second;
- events per turn, split into facts of the game and the engine's bookkeeping (`BOOKKEEPING`);
- the cost of decide + evolve (``engine.execute``, on a copy of the state, as the service calls it)
  per command and per event, and of evolve alone (``engine.fold``) per event, from a state at the
  start of a game and from one after ~1,000 events of the same game, and the ratio late/early
  (close to 1: the cost does not grow with the game). Since stream format 2 writes fewer events per
  command, compare engines per command; per event, the newer engine spreads a command over fewer.

The complete games are played as the simulator plays them (`engine.simulate.play_game`: commands
applied in place where the engine allows it); the walks time ``engine.execute`` with its copy.

``--baseline REV`` measures the same for the engine of git revision REV (a temporary worktree,
measured in a subprocess with that worktree first on ``sys.path``) in the same run, and prints
the ratio of this checkout to it. ``--interpreted`` also measures this checkout's engine run from
its sources (``COSMIC_COMPILED=0``: `engine.compiled`), so the share of the compiled build in a
ratio is printed beside it. Each report names how its engine ran (compiled modules, or from source).

Costs are CPU time of the measuring process (``time.process_time``), so other load on the machine
distorts the ratios little; what remains (a shared machine's caches and clock) moves a single
figure by some 5%. ``--rounds K`` measures the turns per CPU-second K times for each engine, one
engine after the other in turn, each in a fresh process, and reports the median. A benchmark: it
measures and prints; nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import contextmanager, nullcontext
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ENGINE_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from simulated import simulated_events  # noqa: E402  (bench/ is this script's folder, on sys.path)

from engine import fold, prompts  # noqa: E402
from engine.simulate import legal_answer, new_game, play_game  # noqa: E402
from engine.state import clone  # noqa: E402

PLAYERS = 5
# what the engine writes for itself (its agenda and decision clock), not what happened in the game
BOOKKEEPING = frozenset({"Bookmark", "StepsScheduled", "StepUpdated", "AgendaUnwound", "DecisionsOpened"})


def legal_step(state: dict, rng: random.Random, at: int) -> tuple[list[dict], dict]:
    """One random legal command applied to ``state`` (which is left unchanged)."""
    return legal_answer(state, rng.choice(prompts(state)), rng, at)


def throughput(games: int, seed: int) -> dict:
    """Complete games: CPU seconds, turns, events by type."""
    seconds, turns, finished = 0.0, 0, 0
    types: Counter = Counter()
    for k in range(games):
        began = time.process_time()
        result = play_game(f"{seed}:{k}", PLAYERS, check_every=10**9, keep_log=False)
        seconds += time.process_time() - began
        if result.error:
            raise SystemExit(f"game {seed}:{k} failed: {result.error}")
        turns += result.turns
        finished += result.finished
        types.update(event_types(f"{seed}:{k}"))
    events = sum(types.values())
    bookkeeping = sum(n for t, n in types.items() if t in BOOKKEEPING)
    return {"games": games, "finished": finished, "cpu_seconds": seconds, "turns": turns,
            "turns_per_cpu_second": turns / seconds, "games_per_cpu_second": games / seconds,
            "events_per_turn": events / turns, "bookkeeping_per_turn": bookkeeping / turns,
            "facts_per_turn": (events - bookkeeping) / turns,
            "top_types": dict(types.most_common(6))}


def event_types(seed: str) -> Counter:
    """The event types of the game ``play_game`` plays for ``seed`` (replayed, outside the timing)."""
    return Counter(e["type"] for batch in simulated_events(seed, PLAYERS) for e in batch)


def snapshots(seed: str, late_events: int) -> tuple[dict, dict, int]:
    """Two states at the same point of a turn (just after a turn began): at the game's start, and
    after at least ``late_events`` events of the same game, so both walks do the same kind of work."""
    for attempt in range(50):
        state, log = new_game(f"{seed}:{attempt}", PLAYERS)
        early = clone(state)
        rng = random.Random(f"bench:{seed}:{attempt}")
        count, at, turn_began = len(log), 0, False
        while (count < late_events or not turn_began) and state["status"] == "playing":
            at += 1000
            events, state = legal_step(state, rng, at)
            count += len(events)
            turn_began = any(e["type"] == "TurnBegan" for e in events)
        if state["status"] == "playing":
            return early, state, count
    raise SystemExit("no game lasted long enough; lower --late-events")


def walk_cost(start: dict, walks: int, length: int) -> dict:
    """Time many short walks of commands from one state: execute per event, then evolve alone per event.

    The states the walks went through are kept for the second part as bytes (``marshal``), not as live
    objects: a thousand live states would make every full pass of the garbage collector that falls inside
    a timed command long, and the figures would move by a third from run to run."""
    executed_seconds, events_seen, commands, recorded = 0.0, 0, 0, []
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
            commands += 1
            recorded.append((marshal.dumps(state), events))
            state = after
    evolve_seconds = 0.0
    for frozen, events in recorded:
        base, copies = marshal.loads(frozen), json.loads(json.dumps(events))
        began = time.process_time()
        fold(copies, base)
        evolve_seconds += time.process_time() - began
    return {"events": events_seen, "commands": commands, "execute_us": 1e6 * executed_seconds / events_seen,
            "command_us": 1e6 * executed_seconds / commands, "evolve_us": 1e6 * evolve_seconds / events_seen}


def engine_build() -> str:
    """How the engine on ``sys.path`` runs: how many of its modules are compiled, or from its sources
    (an engine older than `engine.compiled` always runs from its sources)."""
    try:
        from engine.compiled import compiled_modules
    except ImportError:
        return "from source"
    count = len(compiled_modules())
    return f"compiled ({count} modules)" if count else "from source"


def measure(args) -> dict:
    """Every figure, for the engine on ``sys.path`` (only the turns per CPU-second with ``--throughput-only``)."""
    figures = throughput(args.games, args.seed)
    figures["engine"] = engine_build()
    if args.throughput_only:
        return figures
    early, late, late_at = snapshots(f"{args.seed}:bench", args.late_events)
    figures["early"] = {"version": early["v"], **walk_cost(early, args.walks, args.walk_length)}
    figures["late"] = {"version": late["v"], "after_events": late_at, **walk_cost(late, args.walks, args.walk_length)}
    return figures


def report(label: str, f: dict) -> None:
    rounds = f.get("rounds", [f["turns_per_cpu_second"]])
    spread = f" (median of {len(rounds)} rounds: {', '.join(f'{r:.0f}' for r in rounds)})" if len(rounds) > 1 else ""
    print(f"{label}, engine {f.get('engine', 'from source')}: {f['games']} games of {PLAYERS} players, {f['turns']} "
          f"turns in {f['cpu_seconds']:.1f} CPU s: {f['turns_per_cpu_second']:.0f} turns per CPU-second{spread} "
          f"({f['games_per_cpu_second']:.2f} games/s), finished {f['finished']}")
    print(f"  events per turn {f['events_per_turn']:.1f}: facts {f['facts_per_turn']:.1f}, "
          f"bookkeeping {f['bookkeeping_per_turn']:.1f}; most frequent: {f['top_types']}")
    e, late = f["early"], f["late"]
    if "command_us" in e:  # (older runs of this script did not time commands)
        print(f"  decide+evolve per command: {e['command_us']:.1f} us at the start, {late['command_us']:.1f} us after "
              f"{late['after_events']} events (late/early {late['command_us'] / e['command_us']:.2f}), "
              f"{late['events'] / late['commands']:.1f} events per command late")
    print(f"  decide+evolve per event: {e['execute_us']:.1f} us at the start, {late['execute_us']:.1f} us after "
          f"{late['after_events']} events (late/early {late['execute_us'] / e['execute_us']:.2f}); evolve alone "
          f"{e['evolve_us']:.2f} / {late['evolve_us']:.2f} us (late/early {late['evolve_us'] / e['evolve_us']:.2f})")


@contextmanager
def worktree(rev: str):
    """A temporary git worktree of revision ``rev`` (removed afterwards)."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "--quiet", str(tree), rev], check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=False)


def measured_in(env: dict, args, throughput_only: bool = False) -> dict:
    """The figures of this script run in a subprocess with ``env`` (which engine: `BENCH_ENGINE_ROOT`,
    `COSMIC_COMPILED`)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--json", "--games", str(args.games),
               "--seed", str(args.seed), "--late-events", str(args.late_events), "--walks",
               str(args.walks), "--walk-length", str(args.walk_length)]
    if throughput_only:
        command.append("--throughput-only")
    done = subprocess.run(command, env={**os.environ, **env}, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(variants: dict[str, dict], args) -> dict[str, dict]:
    """Every figure for each engine (label -> environment), each in its own process; with ``--rounds``, the
    turns per CPU-second measured again in turn and reported as the median."""
    figures = {label: measured_in(env, args) for label, env in variants.items()}
    for figure in figures.values():
        figure["rounds"] = [figure["turns_per_cpu_second"]]
    for _ in range(args.rounds - 1):
        for label, env in variants.items():
            figures[label]["rounds"].append(measured_in(env, args, throughput_only=True)["turns_per_cpu_second"])
    for figure in figures.values():
        figure["turns_per_cpu_second"] = statistics.median(figure["rounds"])
    return figures


def ratios(this: dict, other: dict) -> str:
    return (f"turns per CPU-second {this['turns_per_cpu_second'] / other['turns_per_cpu_second']:.2f}x, "
            f"events per turn {this['events_per_turn'] / other['events_per_turn']:.2f}x, "
            f"decide+evolve per command (late) {this['late']['command_us'] / other['late']['command_us']:.2f}x, "
            f"per event (late) {this['late']['execute_us'] / other['late']['execute_us']:.2f}x")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--late-events", type=int, default=1000)
    parser.add_argument("--walks", type=int, default=40)
    parser.add_argument("--walk-length", type=int, default=25)
    parser.add_argument("--baseline", metavar="REV", help="also measure the engine of this git revision and compare")
    parser.add_argument("--interpreted", action="store_true",
                        help="also measure this checkout's engine run from its sources (COSMIC_COMPILED=0)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure the turns per CPU-second this many times per engine, in turn; report the median")
    parser.add_argument("--json", action="store_true", help="print only the figures, as one JSON line")
    parser.add_argument("--throughput-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.json:
        print(json.dumps(measure(args)))
        return
    here = {"BENCH_ENGINE_ROOT": str(ROOT)}
    variants = {"this checkout": here}
    if args.interpreted:
        variants["this checkout from source"] = {**here, "COSMIC_COMPILED": "0"}
    with worktree(args.baseline) if args.baseline else nullcontext() as tree:
        if tree is not None:
            variants[f"baseline {args.baseline}"] = {"BENCH_ENGINE_ROOT": str(tree)}
        figures = compare(variants, args)
    for label, figure in figures.items():
        report(label, figure)
    this = figures["this checkout"]
    for label, other in figures.items():
        if label != "this checkout":
            print(f"ratio this checkout / {label}: {ratios(this, other)}")
    if args.interpreted and args.baseline:
        source, base = figures["this checkout from source"], figures[f"baseline {args.baseline}"]
        print(f"ratio this checkout from source / baseline {args.baseline}: {ratios(source, base)}")


if __name__ == "__main__":
    main()
