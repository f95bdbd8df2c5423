"""Record the golden streams: complete games played by random legal players, as the service stores them.

    PYTHONPATH=<checkout of the engine to record with> python tests/golden/record.py OUT_DIR [--format 1|2|--ffg|--ffg2]

Each game is played through a `Runtime` on fakeredis (so its events are sealed, numbered and
hash-chained exactly as in Redis), then written as two files (`write_recording`):

``<name>.jsonl.xz``     each event as the engine emitted it, one canonical JSON line per event
                        (``type``, ``payload``, ``actor``, ``time``, and ``end`` where it is true),
                        compressed with xz (stdlib `lzma`)
``<name>.expect.json``  what sealing them again needs (``game_id``, and ``schema_versions``: the
                        payload schema version the store gave each event type), the last event's
                        ``hash`` (``head_hash``), and the final board and every hand as that engine
                        folded them

Everything else a stored event holds is derived: ``seq`` is the line's place, ``prev_hash`` and
``hash`` come from hashing. The hashes were nearly all of an export's size (64 hex digits twice
per event, which no compressor shrinks); the head hash alone anchors the whole chain. The golden
test (tests/golden/test_golden.py) re-seals the events with today's `events.envelope`, so it
rebuilds the exact lines the store held and checks that their chain ends at ``head_hash``, then
folds, audits, imports and plays them on with today's engine. Before writing, `write_recording`
re-seals with the engine being recorded and refuses a recording that would not come back byte
for byte.

The committed files of stream format 1 (`FORMAT_1`) were recorded with the engine of commit
db4d922 (a worktree of it on PYTHONPATH), before the engine's speed work and the change of stream
format; those of stream format 2 (`FORMAT_2`, named ``format2-*``) with the engine of commit
b01b24e, the first to write facts and bookmarks. Stored games of both times must keep folding,
auditing and continuing. (They were recorded as whole exports, ``<name>.jsonl.gz``, and later
rewritten in this form from those files; re-sealing gave back every line unchanged.)
"""

from __future__ import annotations

import json
import lzma
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

# the Fantasy Flight edition after issue 25 (compensation by ships lost to the warp, the encounter-long Cosmic Zap,
# powers chosen before the hands are dealt, Ionic Gas before compensation...), recorded with the engine of branch
# ffg-rules (``--ffg2``); the two above, recorded before, keep folding and playing on as they were stored
FFG2_POOL = ["Barbarian", "Hacker", "Macron", "Masochist", "Reserve", "Tripler", "Void", "Zombie"]
FORMAT_2_FFG2 = {
    "format2-ffg2-zombie-void-reserve-masochist": (4, {"power_pool": FFG2_POOL, "decision_seconds": 30},
                                                   "golden2-ffg2-4-3"),
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
    expect = {"seed": seed, "players": players, "options": options, "ruleset": ruleset, "version": state["v"],
              "status": state["status"], "winners": list(state.get("winners") or []),
              "board": views.board(state), "hands": {c: sorted(state["players"][c]["hand"]) for c in state["order"]}}
    write_recording(out, name, events, expect)
    print(f"{name}: {len(events)} events, status {state['status']}, turn {state['turn']['number']}")


EMITTED = ("type", "payload", "actor", "time", "end")  # what the engine emits; the store's seal adds the rest
SEALED = ("game_id", "seq", "schema_version", "prev_hash", "hash")


def write_recording(out: Path, name: str, events: list[dict], expect: dict) -> None:
    """Write a game's sealed events (as the store holds them) and its ``expect`` record in the golden form.

    Raises `ValueError` if the events hold a field this form does not keep or cannot derive, or if
    sealing the kept parts again (with the engine on the path) does not give back the same lines.
    """
    from events.envelope import canonical_json, seal

    game_id, versions = events[0]["game_id"], {}
    for seq, event in enumerate(events, start=1):
        unknown = set(event) - set(EMITTED) - set(SEALED)
        if unknown:
            raise ValueError(f"event {seq} holds fields the golden form does not keep: {sorted(unknown)}")
        if event["seq"] != seq or event["game_id"] != game_id or \
                versions.setdefault(event["type"], event["schema_version"]) != event["schema_version"]:
            raise ValueError(f"event {seq}: its sequence number, game or schema version cannot be derived")
    kept = [emitted(event) for event in events]
    rebuilt = seal(kept, game_id, 0, "", versions.__getitem__)
    if [canonical_json(event) for event in rebuilt] != [canonical_json(event) for event in events]:
        raise ValueError(f"{name}: sealing the kept fields again does not give back the stored events")
    text = "".join(canonical_json(event) + "\n" for event in kept)
    (out / f"{name}.jsonl.xz").write_bytes(lzma.compress(text.encode("utf-8"), preset=9 | lzma.PRESET_EXTREME))
    expect = {**expect, "game_id": game_id, "schema_versions": versions, "head_hash": events[-1]["hash"]}
    (out / f"{name}.expect.json").write_text(json.dumps(expect, sort_keys=True, indent=1) + "\n")


def emitted(event: dict) -> dict:
    """The parts of a sealed event the golden form keeps: the event as the engine emitted it."""
    kept = {"type": event["type"], "payload": event["payload"], "actor": event["actor"], "time": event["time"]}
    if event.get("end"):
        kept["end"] = True
    return kept


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
    elif sys.argv[2:] == ["--ffg2"]:
        games = {name: (*game, "ffg") for name, game in FORMAT_2_FFG2.items()}
    else:
        games = {name: (*game, "mayfair") for name, game in FORMAT_2.items()}
    for name, (players, options, seed, ruleset) in games.items():
        record(name, players, options, seed, out, ruleset)
    print(f"total: {sum(f.stat().st_size for f in out.iterdir()) // 1024} KiB")


if __name__ == "__main__":
    main()
