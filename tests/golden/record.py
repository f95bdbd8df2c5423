"""Record the golden streams: complete games played by random legal players, as the service stores them.

    PYTHONPATH=<checkout of the engine to record with> python tests/golden/record.py OUT_DIR [--format 1|2|--ffg]

Each game is played through a `Runtime` on fakeredis (so its events are sealed, numbered and
hash-chained exactly as in Redis), then written as ``<name>.jsonl.gz`` (the export format) with
``<name>.expect.json``: the final board and every hand as that engine folded them. The golden
test (tests/golden/test_golden.py) folds the files with today's engine and compares.

The committed files of stream format 1 (`FORMAT_1`) were recorded with the engine of commit
db4d922 (a worktree of it on PYTHONPATH), before the engine's speed work and the change of stream
format; those of stream format 2 (`FORMAT_2`, named ``format2-*``) with the engine of commit
b01b24e, the first to write facts and bookmarks. Stored games of both times must keep folding,
auditing and continuing.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

FORMAT_1 = {  # name: (players, options, seed); seeds picked among a few for short complete games
    "two-players": (2, {}, "golden-2-38"),
    "three-players": (3, {}, "golden-3-28"),
    "five-players": (5, {}, "golden-5-29"),
    "four-war-kickers-reverse-warp": (4, {"war_cards": True, "kickers": True, "reverse_warp": True}, "golden-4-5"),
    "six-two-powers-deadlines": (6, {"powers_per_player": 2, "decision_seconds": 30, "punt": True}, "golden-6-22"),
}
FORMAT_2 = {
    "format2-three-players": (3, {}, "golden2-3-28"),
    "format2-four-reverse-warp-deadlines-punt": (4, {"reverse_warp": True, "decision_seconds": 30, "punt": True},
                                                 "golden2-4rw-16"),
}

# the Fantasy Flight edition, recorded with the engine of commit 311fc29 (issue 11's aliens merged): its thirteen own aliens and
# the sixteen shared ones that play their FFG reading there, so the golden test guards both
FFG_POOL = ["Anti-Matter", "Barbarian", "Citadel", "Dictator", "Fido", "Fodder", "Gambler", "Grudge", "Hacker",
            "Hate", "Loser", "Machine", "Macron", "Masochist", "Mind", "Miser", "Mutant", "Philanthropist",
            "Reincarnator", "Remora", "Reserve", "Shadow", "Tick-Tock", "Vacuum", "Void", "Vulch", "Warrior",
            "Will", "Zombie"]
FORMAT_2_FFG = {
    "format2-ffg-vacuum-tick-tock-hacker-gambler": (4, {"power_pool": FFG_POOL, "decision_seconds": 30},
                                                    "golden2-ffg-4-10"),
    "format2-ffg-reserve-hacker-fido-reincarnator": (4, {"power_pool": FFG_POOL, "decision_seconds": 30},
                                                     "golden2-ffg-4-7"),
}


def record(name: str, players: int, options: dict, seed: str, out: Path, ruleset: str = "mayfair") -> None:
    """Play the game `engine.simulate.play_game` plays for this seed, through a runtime, and write it out."""
    import fakeredis

    from engine import prompts
    from engine.simulate import TIME_STEP_MS, TIMEOUT_SHARE
    from projections import views
    from workers.runtime import Runtime
    from workers.settings import Settings

    runtime = Runtime(Settings(prefix="golden"), redis_client=fakeredis.FakeRedis())
    commands = [{"action": "create", "seats": players, "seed": seed, "options": options, "at": 0}]
    if ruleset != "mayfair":
        commands[0]["ruleset"] = ruleset
    commands += [{"action": "join", "name": f"player {k + 1}", "at": 0} for k in range(players)]
    commands.append({"action": "start", "at": 0})
    for command in commands:
        state = runtime.commands.run(name, command).state
    rng = random.Random(f"players:{seed}")  # the simulator's: the same seed plays the same game
    clock = 0
    while state["status"] == "playing":
        chosen = rng.choice(prompts(state))
        clock += TIME_STEP_MS
        if chosen.get("deadline") is not None and rng.random() < TIMEOUT_SHARE:
            clock = max(clock, chosen["deadline"])
            command = {"action": "timeout", "prompt": chosen["id"], "at": clock}
        else:
            command = legal_command(state, chosen, rng, clock)
        state = runtime.commands.run(name, command).state
    events = runtime.store.read(name)
    with gzip.open(out / f"{name}.jsonl.gz", "wt", encoding="utf-8", compresslevel=9) as file:
        for event in events:
            file.write(json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    expect = {"seed": seed, "players": players, "options": options, "ruleset": ruleset, "version": state["v"],
              "status": state["status"], "winners": list(state.get("winners") or []),
              "board": views.board(state), "hands": {c: sorted(state["players"][c]["hand"]) for c in state["order"]}}
    (out / f"{name}.expect.json").write_text(json.dumps(expect, sort_keys=True, indent=1) + "\n")
    print(f"{name}: {len(events)} events, status {state['status']}, turn {state['turn']['number']}")


def legal_command(state: dict, prompt: dict, rng: random.Random, at: int) -> dict:
    """The command `engine.simulate.legal_answer` would send (same draws from ``rng``)."""
    from engine import execute, flow
    from engine.errors import EngineError
    from engine.players import random_command
    from engine.simulate import MAX_RETRIES

    for _ in range(MAX_RETRIES):
        command = random_command(state, prompt, rng)
        command["at"] = at
        try:
            execute(state, command)
            return command
        except EngineError:
            continue
    command = flow.default_command(state, prompt, rng)
    command["at"] = at
    return command


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    if sys.argv[2:] == ["--format", "1"]:
        games = {name: (*game, "mayfair") for name, game in FORMAT_1.items()}
    elif sys.argv[2:] == ["--ffg"]:
        games = {name: (*game, "ffg") for name, game in FORMAT_2_FFG.items()}
    else:
        games = {name: (*game, "mayfair") for name, game in FORMAT_2.items()}
    for name, (players, options, seed, ruleset) in games.items():
        record(name, players, options, seed, out, ruleset)
    print(f"total: {sum(f.stat().st_size for f in out.iterdir()) // 1024} KiB")


if __name__ == "__main__":
    main()
