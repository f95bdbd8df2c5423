"""Benchmark of the history tools on a long game: audit, replay, export/import, rewind.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/history.py [--commands 1500] [--baseline REV]

(without REDIS_URL it runs on an in-process fakeredis). The game is a 5-player random game of
``--commands`` commands (about 115 turns for 1,500), the same length in play whatever the stream
format, so engines that write different numbers of events per command compare fairly: figures are
given per event and, for the comparison, as the time each tool takes on the whole game. With
``--baseline REV`` the same script runs against a git worktree of REV in a subprocess, in the same
run, and the ratios are printed. Prints measured figures (never asserted by tests), last as one
JSON line:

- audit: reading, decoding, chain-checking, schema-loading and refolding the whole stream,
  then comparing with every checkpoint, the snapshot and the served state, in events/s;
- replay: the same fold, rewriting the snapshot and every checkpoint, in events/s;
- export (lines/s) and import under a new id (verify, re-seal, write, audit), in events/s;
- rewind: the time and the events folded to rewind to a version near the start and near the
  end of the game (the target: both bounded by ``COSMIC_CHECKPOINT_EVERY``, not by the
  game's length), and the time of the next action after the rewind against one before it.

Everything is written under a fresh key prefix, deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ENGINE_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

import fakeredis  # noqa: E402
import redis  # noqa: E402

import engine  # noqa: E402
from engine.players import random_command  # noqa: E402
from workers.audit import audit_game  # noqa: E402
from workers.replay import replay_game  # noqa: E402
from workers.rewind import rewind  # noqa: E402
from workers.runtime import Runtime  # noqa: E402
from workers.settings import Settings  # noqa: E402
from workers.transfer import export_lines, import_game  # noqa: E402


def long_game(min_commands: int) -> list[dict]:
    """Commands of a 5-player random game that lasts ``min_commands`` commands (seeds tried in turn)."""
    for seed in range(100):
        commands = [{"action": "create", "seats": 5, "seed": f"bench-{seed}", "options": {}, "at": 0}]
        commands += [{"action": "join", "name": f"p{k}", "at": 0} for k in range(5)] + [{"action": "start", "at": 0}]
        state, count = None, 0
        for command in commands:
            events, state = engine.execute(state, command)
            count += len(events)
        rng = random.Random(seed)
        while state["status"] == "playing" and len(commands) < min_commands:
            prompt = rng.choice(engine.prompts(state))
            for _ in range(50):
                command = random_command(state, prompt, rng)
                command["at"] = 1000 * len(commands)
                try:
                    events, state = engine.execute(state, command)
                except engine.EngineError:
                    continue
                commands.append(command)
                count += len(events)
                break
        if len(commands) >= min_commands:
            return commands
    raise SystemExit("no seed gave a long enough game")


def timed(fn):
    began = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1500)
    parser.add_argument("--baseline", metavar="REV", help="also measure git revision REV and compare")
    args = parser.parse_args(argv)
    base = baseline(args.baseline, args.commands) if args.baseline else None
    url = os.environ.get("REDIS_URL")
    prefix = f"bench-history-{uuid.uuid4().hex[:8]}"
    client = redis.Redis.from_url(url) if url else fakeredis.FakeRedis()
    rt = Runtime(Settings(redis_url=url, prefix=prefix), redis_client=client)
    try:
        figures = run(rt, "redis" if url else "fakeredis", args.commands)
        if base is not None:
            compare(figures, base, args.baseline)
        return 0
    finally:
        if url:
            from workers.queues import purge
            for key in client.scan_iter(match=f"{prefix}*", count=1000):
                client.delete(key)
            purge(client, prefix)  # RQ keeps its keys (queues, jobs) under rq:


def run(rt, backend: str, command_count: int) -> dict:
    commands = long_game(command_count)
    marks = []
    for command in commands:
        marks.append(rt.commands.run("long", command).version)
    head = marks[-1]
    state = rt.repository.current("long")
    figures = {"backend": backend, "commands": len(commands), "events": head,
               "turns": state["turn"]["number"], "checkpoint_every": rt.repository.checkpoint_every}

    report, seconds = timed(lambda: audit_game(rt.store, rt.repository, "long"))
    assert report.ok, report.problem
    figures["audit_events_per_s"] = round(head / seconds)
    figures["audit_s"] = round(seconds, 3)
    figures["audit_compared_states"] = len(report.compared)

    replayed, seconds = timed(lambda: replay_game(rt, "long"))
    figures["replay_events_per_s"] = round(head / seconds)
    figures["replay_s"] = round(seconds, 3)

    lines, seconds = timed(lambda: list(export_lines(rt.store, "long")))
    figures["export_lines_per_s"] = round(len(lines) / seconds)
    figures["export_s"] = round(seconds, 3)
    figures["export_bytes"] = sum(len(line) + 1 for line in lines)
    imported, seconds = timed(lambda: import_game(rt, lines, as_id="imported"))
    figures["import_events_per_s"] = round(len(lines) / seconds)
    figures["import_s"] = round(seconds, 3)

    for label, target in (("early", marks[len(marks) // 20]), ("late", marks[-40])):
        rt.repository.forget_all()
        rt.repository.current("long")  # a warm cache at the head, as in a serving process
        folded = rt.repository.folded
        result, seconds = timed(lambda target=target: rewind(rt, "long", target))
        figures[f"rewind_{label}_to_version"] = target
        figures[f"rewind_{label}_ms"] = round(seconds * 1000, 1)
        figures[f"rewind_{label}_events_folded"] = rt.repository.folded - folded
    # an action right after the last rewind vs the same kind of action in the fresh import
    after_rewind = _action_ms(rt, "long")
    in_fresh_game = _action_ms(rt, "imported")
    figures["action_ms_after_rewind"] = after_rewind
    figures["action_ms_without_rewind"] = in_fresh_game
    for name, value in figures.items():
        print(f"  {name:<32} {value}", file=sys.stderr)
    print(json.dumps(figures, sort_keys=True))
    return figures


def baseline(rev: str, command_count: int) -> dict:
    """The same figures for git revision ``rev``: a temporary worktree, measured by this script in a subprocess."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="bench-history-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "--detach", "--quiet", str(tree), rev], check=True)
        try:
            done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--commands", str(command_count)],
                                  env={**os.environ, "BENCH_ENGINE_ROOT": str(tree)}, check=True,
                                  capture_output=True, text=True)
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)], check=False)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(mine: dict, theirs: dict, rev: str) -> None:
    """The whole-game times of each tool, this checkout against ``rev``."""
    print(f"the same length of game ({mine['commands']} commands): {mine['events']} events here, "
          f"{theirs['events']} at {rev}; export {mine['export_bytes']} bytes against {theirs['export_bytes']}",
          file=sys.stderr)
    for tool in ("audit", "replay", "export", "import"):
        print(f"  {tool:<7} {mine[tool + '_s']:.3f} s here, {theirs[tool + '_s']:.3f} s at {rev}: "
              f"{theirs[tool + '_s'] / mine[tool + '_s']:.2f}x faster", file=sys.stderr)


def _action_ms(rt, game_id: str, samples: int = 15) -> float:
    """Median time of one legal action on the game (the first option of a prompt owed)."""
    rng = random.Random(game_id)
    times = []
    for k in range(samples):
        state = rt.repository.current(game_id)
        if state["status"] != "playing":
            break
        prompt = engine.prompts(state)[0]
        for _ in range(50):
            command = random_command(state, prompt, rng)
            command["at"] = 10**12 + k
            try:
                engine.execute(state, command)
            except engine.EngineError:
                continue
            _, seconds = timed(lambda command=command: rt.commands.run(game_id, command))
            times.append(seconds * 1000)
            break
    return round(statistics.median(times), 2) if times else None


if __name__ == "__main__":
    sys.exit(main())
