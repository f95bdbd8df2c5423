"""The ``cosmic`` subcommands about games' histories: audit, replay, export, import, rewind, fork.

They work on the configured store: with ``REDIS_URL``, that Redis (under ``COSMIC_PREFIX``);
without it, the embedded mode's data folder (``COSMIC_DATA_DIR``). There, ``audit`` and
``export`` read the game files directly (no lock: safe while ``cosmic serve`` runs), and the
commands that write (``import``, ``rewind``, ``fork``, ``replay``) load the folder under its
lock, so they refuse to run while ``cosmic serve`` holds it (use the HTTP API then).

Exit status: 0 done (an audit found nothing wrong), 1 an audit found a problem or the
operation was refused, 2 no such game or file, or the data folder is busy.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

EXIT_OK, EXIT_PROBLEM, EXIT_MISSING = 0, 1, 2


def add_commands(sub) -> None:
    """Register the subcommands on the ``cosmic`` parser's subparsers."""
    aud = sub.add_parser("audit", help="verify games' hash chains and sequence, refold and compare with what is served")
    _games_arguments(aud, files=True)
    aud.add_argument("--json", action="store_true", help="one JSON report per line on stdout")
    aud.set_defaults(func=cmd_audit)

    rep = sub.add_parser("replay", help="rebuild games' snapshots, checkpoints and list entries from their streams")
    _games_arguments(rep)
    rep.set_defaults(func=cmd_replay)

    exp = sub.add_parser("export", help="write a game's stream as JSON lines (the importable, full export)")
    exp.add_argument("game_id")
    exp.add_argument("-o", "--output", help="file to write (default: standard output)")
    exp.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help="load a game from JSON lines (verified, then audited)")
    imp.add_argument("file")
    imp.add_argument("--as", dest="as_id", metavar="NEW_ID", help="import under another game id (re-sealed)")
    imp.set_defaults(func=cmd_import)

    rew = sub.add_parser("rewind", help="rewind a game to an earlier version (as the admin)")
    rew.add_argument("game_id")
    rew.add_argument("to_version", type=int)
    rew.set_defaults(func=cmd_rewind)

    frk = sub.add_parser("fork", help="make a new game from a game's first N events (as the admin)")
    frk.add_argument("game_id")
    frk.add_argument("--version", type=int, default=None, help="default: the current version")
    frk.add_argument("--as", dest="as_id", metavar="NEW_ID", help="the new game's id (default: a random one)")
    frk.set_defaults(func=cmd_fork)

    for parser in (aud, rep, exp, rew, frk):
        accept_dashed_game_ids(parser)


def accept_dashed_game_ids(parser) -> None:
    """Let a game id that starts with '-' (``-x1Ab``, as the service may make) stand as a positional.

    argparse takes anything starting with '-' for an option, except what its negative-number
    pattern matches; widening that pattern to the shape of game ids keeps every real option
    (they are matched first) and lets ``cosmic audit -x1Ab`` work without ``--``.
    """
    parser._negative_number_matcher = re.compile(r"^-[A-Za-z0-9_][A-Za-z0-9_-]*$")


def _games_arguments(parser, files: bool = False) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("game_id", nargs="?", help="the game")
    group.add_argument("--all", action="store_true", help="every game")
    if files:
        group.add_argument("--file", metavar="EXPORT", help="an export file: its chain, and whether this service sealed it")


# --- the store to work on -----------------------------------------------------------------------

def _settings():
    from workers.settings import Settings
    return Settings.from_env()


def _runtime_for_writing(settings):
    """A runtime on REDIS_URL, or on the embedded data folder loaded under its lock (None: busy, said why)."""
    from workers.datafolder import DataFolderBusy
    from workers.runtime import Runtime
    runtime = Runtime(settings)
    if settings.embedded:
        try:
            report = runtime.attach_data_folder(settings.data_dir)
        except DataFolderBusy as err:
            _say(f"{err}: stop `cosmic serve` or use the HTTP API")
            return None
        for game_id, reason in report["failed"].items():
            _say(f"warning: {game_id} was not loaded: {reason} (run cosmic audit {game_id})")
    return runtime


def _with_runtime(settings, work) -> int:
    """``work(runtime)`` on a runtime for writing, closed afterwards; EXIT_MISSING when none could be had."""
    runtime = _runtime_for_writing(settings)
    if runtime is None:
        return EXIT_MISSING
    try:
        return work(runtime)
    finally:
        runtime.close()


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _progress(label: str):
    def show(done: int, total: int) -> None:
        if total >= 2000:
            print(f"\r  {label}: {done}/{total} events", end="", file=sys.stderr, flush=True)
            if done >= total:
                print(file=sys.stderr)
    return show


def _data_file(settings, game_id: str) -> Path:
    return Path(settings.data_dir) / f"{game_id}.jsonl"


def _read_lines(path: Path) -> list[tuple[int, str]]:
    from workers.transfer import numbered
    with open(path, encoding="utf-8") as handle:
        return numbered(handle)


# --- audit --------------------------------------------------------------------------------------

def cmd_audit(args) -> int:
    """Audit one game or every game; prints one line (or JSON report) per game."""
    settings = _settings()
    if args.file:
        return _audit_export(settings, Path(args.file), args.json)
    if settings.embedded:
        return _audit_files(settings, args)
    from workers.runtime import Runtime
    runtime = Runtime(settings)
    try:
        return _audit_games(runtime, args)
    finally:
        runtime.close()


def _audit_games(runtime, args) -> int:
    from workers.audit import audit_game
    ids = runtime.store.game_ids() if args.all else [args.game_id]
    status = EXIT_OK
    for game_id in ids:
        if not _valid_id(runtime.store, game_id) or not runtime.store.exists(game_id):
            _say(f"{game_id}: no such game")
            status = max(status, EXIT_MISSING)
            continue
        report = audit_game(runtime.store, runtime.repository, game_id, progress=_progress(game_id))
        status = max(status, _print_report(report, args.json))
    if args.all:
        _say(f"{len(ids)} games audited")
    return status


def _audit_files(settings, args) -> int:
    from workers.audit import audit_lines
    folder = Path(settings.data_dir)
    files = sorted(folder.glob("*.jsonl")) if args.all else [_data_file(settings, args.game_id)]
    status = EXIT_OK
    for file in files:
        if not file.is_file():
            _say(f"{file.stem}: no such game in {folder}")
            status = max(status, EXIT_MISSING)
            continue
        lines = _read_lines(file)
        report = audit_lines(file.stem, lines, total=len(lines), progress=_progress(file.stem))
        status = max(status, _print_report(report, args.json))
    return status


def _audit_export(settings, path: Path, as_json: bool) -> int:
    """An export file: its chain (as import checks it) and the verdict on its seal, with this service's key."""
    from workers import seal
    from workers.errors import ImportRefused
    from workers.runtime import Runtime
    from workers.transfer import read_export
    if not path.is_file():
        _say(f"{path}: no such file")
        return EXIT_MISSING
    try:
        with open(path, encoding="utf-8") as handle:
            checked = read_export(handle)
    except (ImportRefused, UnicodeDecodeError) as err:
        print(json.dumps({"file": str(path), "ok": False, "problem": str(err)}) if as_json
              else f"{path}: BROKEN: {err}")
        return EXIT_PROBLEM
    if settings.embedded:
        sealer = seal.Sealer(seal.configured(settings) or seal.folder_key(settings.data_dir))
    else:
        runtime = Runtime(settings)
        try:
            sealer = runtime.sealer
        finally:
            runtime.close()
    verdict, detail = sealer.verdict(checked.seal, checked.game_id, len(checked.events), checked.events[-1]["hash"])
    if as_json:
        print(json.dumps({"file": str(path), "game_id": checked.game_id, "ok": verdict != "forged",
                          "events": len(checked.events), "seal": verdict, "seal_detail": detail}, sort_keys=True))
    else:
        word = {"sealed": "ok, sealed", "forged": "FORGED", "other-key": "UNSEALED", "unsealed": "UNSEALED"}[verdict]
        print(f"{path}: {word}: game {checked.game_id}, {len(checked.events)} events, chain ok; {detail}")
    return EXIT_PROBLEM if verdict == "forged" else EXIT_OK


def _print_report(report, as_json: bool) -> int:
    data = report.as_dict()
    if as_json:
        print(json.dumps(data, sort_keys=True))
    elif report.ok:
        print(f"{report.game_id}: ok, {report.events} events in {data['seconds']:.3f} s "
              f"({data['events_per_second']} events/s); compared: {len(report.compared)} states"
              + (f"; UNSEALED: its first {report.unsealed_until} events were imported without a seal of this "
                 "service" if report.unsealed_until else ""))
    else:
        problem = report.problem
        where = f"event {problem.seq}" if problem.seq is not None else "the game"
        print(f"{report.game_id}: BROKEN at {where} ({problem.id or '-'}, {problem.type or '-'}): "
              f"{problem.kind}: {problem.detail}")
    return EXIT_OK if report.ok else EXIT_PROBLEM


def _valid_id(store, game_id: str) -> bool:
    try:
        store.stream_key(game_id)
    except ValueError:
        return False
    return True


# --- replay -------------------------------------------------------------------------------------

def cmd_replay(args) -> int:
    """Rebuild the snapshots of one game or every game; prints figures."""
    return _with_runtime(_settings(), lambda runtime: _replay(runtime, args))


def _replay(runtime, args) -> int:
    from projections.errors import GameNotFound
    from workers.replay import replay_all, replay_game
    if args.all:
        totals = replay_all(runtime, progress=lambda game_id, figures: _print_replay(figures))
        print(f"replayed {totals['games']} games, {totals['events']} events in {totals['seconds']:.2f} s "
              f"({totals['events_per_second']} events/s); not replayed: {len(totals['failed'])}")
        return EXIT_PROBLEM if totals["failed"] else EXIT_OK
    if not _valid_id(runtime.store, args.game_id):
        _say(f"{args.game_id}: no such game")
        return EXIT_MISSING
    try:
        figures = replay_game(runtime, args.game_id, progress=_progress(args.game_id))
    except GameNotFound:
        _say(f"{args.game_id}: no such game")
        return EXIT_MISSING
    _print_replay(figures)
    return EXIT_OK if figures["ok"] else EXIT_PROBLEM


def _print_replay(figures: dict) -> None:
    if figures["ok"]:
        print(f"{figures['game_id']}: {figures['events']} events folded in {figures['seconds']:.3f} s "
              f"({figures['events_per_second']} events/s); snapshot at {figures['version']}, "
              f"{figures['checkpoints']} checkpoints, {figures['status']}")
    else:
        problem = figures["problem"]
        print(f"{figures['game_id']}: NOT replayed, broken at event {problem['seq']}: {problem['kind']}: "
              f"{problem['detail']}")


# --- export / import ----------------------------------------------------------------------------

def cmd_export(args) -> int:
    """Write a game's stream as JSON lines, checking the chain as it goes."""
    from events.envelope import ChainBreak
    settings = _settings()
    try:
        lines = _export_source(settings, args.game_id)
        if lines is None:
            _say(f"{args.game_id}: no such game")
            return EXIT_MISSING
        written = _write(lines, args.output)
    except ChainBreak as err:
        _say(f"{args.game_id}: not exported, the stored chain is broken at {err} (run cosmic audit)")
        return EXIT_PROBLEM
    _say(f"exported {written - 1} events of {args.game_id} and their seal to {args.output or 'standard output'}")
    return EXIT_OK


def _export_source(settings, game_id: str):
    """The lines to export (checked as they are read), or None for no such game."""
    from workers.transfer import export_lines
    if settings.embedded:
        file = _data_file(settings, game_id)
        if not file.is_file():
            return None
        return _checked_file_lines(settings, game_id, file)
    from workers.runtime import Runtime
    runtime = Runtime(settings)
    if not _valid_id(runtime.store, game_id) or not runtime.store.exists(game_id):
        return None
    return export_lines(runtime.store, game_id, runtime.sealer, runtime.provenance.unsealed_until(game_id))


def _checked_file_lines(settings, game_id: str, file: Path):
    """A data folder's game file, checked, then sealed with the folder's key (or COSMIC_SEAL_KEY)."""
    from events.envelope import ChainBreak
    from workers import seal
    from workers.audit import audit_lines
    lines = _read_lines(file)
    report = audit_lines(game_id, lines)
    if not report.ok:
        raise ChainBreak(report.problem.seq or 0, f"{report.problem.id}: {report.problem.detail}")
    sealer = seal.Sealer(seal.configured(settings) or seal.folder_key(settings.data_dir))
    unsealed = seal.folder_provenance(settings.data_dir, settings.prefix).unsealed_until(game_id)
    last = json.loads(next(text for _, text in reversed(lines) if text.strip()))
    yield from (text + "\n" for _, text in lines if text.strip())
    yield sealer.line(game_id, report.events, last["hash"], unsealed)


def _write(lines, output: str | None) -> int:
    """Write the lines to ``output`` (atomically: a temporary file renamed when complete) or stdout."""
    count = 0
    if output is None:
        for line in lines:
            sys.stdout.write(line)
            count += 1
        sys.stdout.flush()
        return count
    target = Path(output)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=target.parent or ".", delete=False,
                                         prefix=f".{target.name}.", suffix=".part")
    try:
        with handle:
            for line in lines:
                handle.write(line)
                count += 1
        os.replace(handle.name, target)
    except BaseException:
        os.unlink(handle.name)
        raise
    return count


def cmd_import(args) -> int:
    """Load a game from JSON lines under its own id (or ``--as``), verified before and audited after."""
    from workers.errors import ImportRefused
    from workers.transfer import import_game
    path = Path(args.file)
    if not path.is_file():
        _say(f"{args.file}: no such file")
        return EXIT_MISSING

    def load(runtime) -> int:
        try:
            with open(path, encoding="utf-8") as handle:
                result = import_game(runtime, handle, as_id=args.as_id)
        except ImportRefused as err:
            _say(f"{args.file}: not imported: {err}")
            return EXIT_PROBLEM
        except UnicodeDecodeError as err:
            _say(f"{args.file}: not imported: not UTF-8 text ({err})")
            return EXIT_PROBLEM
        print(f"imported {result['events']} events as game {result['game_id']} (from {result['from']}): "
              f"{result['status']} at version {result['version']}; audit ok; "
              + ("seal ok: " if result["seal"] == "sealed" else "UNSEALED: ") + result["seal_detail"])
        return EXIT_OK

    return _with_runtime(_settings(), load)


# --- rewind / fork ------------------------------------------------------------------------------

def cmd_rewind(args) -> int:
    """Rewind a game as the admin."""
    from projections.errors import GameNotFound
    from workers.errors import RewindRefused
    from workers.rewind import rewind

    def go_back(runtime) -> int:
        try:
            if not _valid_id(runtime.store, args.game_id):
                raise GameNotFound(args.game_id)
            result = rewind(runtime, args.game_id, args.to_version, by="admin")
        except GameNotFound:
            _say(f"{args.game_id}: no such game")
            return EXIT_MISSING
        except RewindRefused as err:
            _say(f"{args.game_id}: not rewound: {err}")
            return EXIT_PROBLEM
        print(json.dumps(result, sort_keys=True))
        return EXIT_OK

    return _with_runtime(_settings(), go_back)


def cmd_fork(args) -> int:
    """Fork a game as the admin; prints the fork with a token for each (non-bot) seat."""
    from app.auth import Tokens
    from projections.errors import GameNotFound, VersionNotFound
    from workers.errors import ForkRefused
    from workers.fork import fork, hand_out
    from workers.rewind import voters
    settings = _settings()

    def branch(runtime) -> int:
        try:
            if not _valid_id(runtime.store, args.game_id) or (args.as_id and not _valid_id(runtime.store, args.as_id)):
                raise GameNotFound(args.game_id)
            made = fork(runtime, args.game_id, args.version, new_id=args.as_id)
            if settings.embedded:  # the embedded Redis (tokens included) lives only inside `cosmic serve`
                made["tokens"] = {}
                _say("tokens are not kept in the embedded mode: fork through the HTTP API to get them")
            else:
                seats = voters(runtime.repository.require(made["id"]))  # the seats of people: bots get no token
                made["tokens"] = hand_out(runtime.store, Tokens(runtime.store), made["id"], seats)
        except (GameNotFound, VersionNotFound) as err:
            _say(f"{args.game_id}: {err}")
            return EXIT_MISSING
        except ForkRefused as err:
            _say(f"{args.game_id}: not forked: {err}")
            return EXIT_PROBLEM
        print(json.dumps(made, sort_keys=True))
        return EXIT_OK

    return _with_runtime(settings, branch)
