"""The ``cosmic`` command: simulate games, inspect the catalogue, run the service (``serve``), its workers and timers.

Each subcommand imports only what it needs, so ``cosmic simulate`` runs without Flask or Redis.
"""

from __future__ import annotations

import argparse
import json
import sys


def parse_option(text: str) -> tuple[str, object]:
    """``name=value`` with value read as JSON when it can be (true, 2, null), else as text."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"options are name=value, not {text!r}")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def cmd_simulate(args) -> int:
    """Play complete games between random legal players and print one JSON summary line last."""
    options = dict(args.option or [])
    if args.via_api:
        from app.simulate_api import simulate_via_api
        summary = simulate_via_api(args.via_api, args.games, args.players, args.seed, options,
                                   ruleset=args.ruleset, progress=None if args.quiet else _progress,
                                   admin_token=args.admin_token)
    else:
        from engine.errors import RulesError
        from engine.simulate import simulate
        try:
            summary = simulate(args.games, args.players, args.seed, options, ruleset=args.ruleset,
                               progress=None if args.quiet else _progress, bots=args.bots)
        except RulesError as exc:
            print(f"cosmic simulate: {exc}", file=sys.stderr)
            return 2
    if not args.quiet:
        print(file=sys.stderr)
        _print_table(summary)
    print(json.dumps(summary, sort_keys=True))
    return 1 if summary["errors"] or summary["invariant_violations"] else 0


def _progress(done: int, total: int, summary: dict, seconds: float) -> None:
    step = max(1, total // 50)
    if done % step and done != total:
        return
    rate = done / seconds if seconds else 0.0
    print(f"\r{done}/{total} games  finished {summary['finished']}  errors {summary['errors']}  "
          f"violations {summary['invariant_violations']}  {rate:.1f} games/s", end="", file=sys.stderr, flush=True)


def _print_table(summary: dict) -> None:
    rows = [("games", summary["games"]), ("finished", summary["finished"]), ("errors", summary["errors"]),
            ("invariant violations", summary["invariant_violations"]),
            ("unfinished", summary.get("unfinished") or "none"),
            ("winners by seat", summary["winners_by_seat"]), ("joint wins", summary.get("joint_wins", 0)),
            ("decisions timed out", summary.get("timeouts", 0)),
            ("events", summary["total_events"]), ("games/s", summary["games_per_second"]),
            ("events/s", summary["events_per_second"]), ("mean events/game", summary["mean_events_per_game"])]
    for name, value in rows:
        print(f"  {name:<22} {value}", file=sys.stderr)
    rates = summary.get("power_win_rate") or {}
    if rates:  # balance: how often a player holding each power won, best first
        print("  power win rate (wins / games held):", file=sys.stderr)
        for power in sorted(rates, key=lambda p: (-rates[p], p)):
            wins, held = summary["power_wins"].get(power, 0), summary["power_games"][power]
            print(f"    {power:<16} {rates[power]:.3f}  ({wins}/{held})", file=sys.stderr)
    for example in summary.get("examples") or []:
        print(f"  example: seed {example['seed']}: {example['problem'][:300]}", file=sys.stderr)


def cmd_catalogue(args) -> int:
    """Print every power (with its flares) and edict the engine implements (of one edition with --ruleset)."""
    from engine.options import RULESETS
    from projections.catalogue import describe
    if args.ruleset is not None and args.ruleset not in RULESETS:
        print(f"unknown ruleset {args.ruleset!r}; available: {', '.join(RULESETS)}", file=sys.stderr)
        return 2
    catalogue = describe(args.ruleset)
    if args.json:
        print(json.dumps(catalogue, indent=2, sort_keys=True))
        return 0
    for power in catalogue["powers"]:
        kind = "mandatory" if power["mandatory"] else "optional"
        flares = ", ".join(f"{mode} {flare['provenance']}" for mode, flare in sorted(power["flares"].items()))
        print(f"{power['name']:<16} {power['provenance']:<8} {kind:<9} {', '.join(power['who'])}: {power['timing']}"
              + (f" [flares: {flares}]" if flares else ""))
    edict_word = catalogue.get("terms", {}).get("edict", "edict")
    for edict in catalogue["edicts"]:
        print(f"{edict['name']:<16} {edict_word:<8} {edict['provenance']}")
    counts: dict[str, int] = {}
    for power in catalogue["powers"]:
        for flare in power["flares"].values():
            counts[flare["provenance"]] = counts.get(flare["provenance"], 0) + 1
    print("flares by provenance: " + ", ".join(f"{label} {n}" for label, n in sorted(counts.items())))
    return 0


def cmd_serve(args) -> int:
    """Run the HTTP service (embedded without REDIS_URL, gunicorn with it)."""
    import os
    if not os.environ.get("REDIS_URL"):
        # the embedded mode serves with gevent in this process: patch before anything imports sockets,
        # threads or Redis (under gunicorn its gevent worker patches each worker process itself)
        from gevent import monkey
        monkey.patch_all()
    from app.serve import serve
    from workers.settings import Settings
    return serve(Settings.from_env(), host=args.host, port=args.port, workers=args.workers,
                 connections=args.connections)


def cmd_worker(args) -> int:
    """Run the jobs (an RQ worker that does not fork) and the clock that fires timers, on REDIS_URL."""
    from workers.main import run_worker
    from workers.settings import Settings
    run_worker(Settings.from_env(), burst=args.burst, name=args.name, metrics_address=args.metrics)
    return 0


def cmd_timers(args) -> int:
    """Show games' open deadlines and their timers, or (``--sweep``) schedule every missing timer."""
    from workers import timers
    from workers.runtime import Runtime
    from workers.settings import Settings
    from workers.sweep import playing_games
    settings = Settings.from_env()
    if settings.embedded:
        print("cosmic timers needs REDIS_URL (the embedded mode's Redis lives inside `cosmic serve`, "
              "whose worker sweeps the timers when it starts)", file=sys.stderr)
        return 2
    runtime = Runtime(settings)
    if args.sweep:
        games = args.game or list(playing_games(runtime))
        print(json.dumps(timers.sweep_runtime(runtime, games), sort_keys=True))
        return 0
    if not args.game:
        print("cosmic timers: name a game id (or use --sweep)", file=sys.stderr)
        return 2
    for game_id in args.game:
        rows = timers.describe(runtime, game_id)
        if args.json:
            print(json.dumps({"game": game_id, "timers": rows}, sort_keys=True))
            continue
        print(f"{game_id}: {len(rows)} open deadline(s)")
        for row in rows:
            print(f"  {row['prompt']:<28} {row['player'] or '-':<8} {row['kind'] or '-':<16} "
                  f"in {row['in_seconds']:>8} s  timer {row['timer']}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    from engine.levels import LEVELS

    parser = argparse.ArgumentParser(prog="cosmic", description="Cosmic Encounter game service")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play complete games between random legal players")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", type=int, default=5)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--ruleset", default="mayfair")
    sim.add_argument("--option", type=parse_option, action="append", metavar="NAME=VALUE",
                     help="a game option, e.g. --option reverse_cone=false (repeatable)")
    sim.add_argument("--bots", choices=tuple(LEVELS), default="random",
                     help="the level of every seat's bot (engine/levels.py)")
    sim.add_argument("--via-api", metavar="URL", help="play through the HTTP API at URL instead of in process")
    sim.add_argument("--admin-token", default=None, help="admin token for --via-api (default: $COSMIC_ADMIN_TOKEN)")
    sim.add_argument("--json", action="store_true", help="print only the JSON summary line")
    sim.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    sim.set_defaults(func=cmd_simulate)

    cat = sub.add_parser("catalogue", help="list the powers, flares and edicts")
    cat.add_argument("--json", action="store_true")
    cat.add_argument("--ruleset", default=None, help="one edition only (mayfair, ffg), told in its words")
    cat.set_defaults(func=cmd_catalogue)

    srv = sub.add_parser("serve", help="run the HTTP service (in one process without REDIS_URL)")
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (with REDIS_URL)")
    srv.add_argument("--connections", type=int, default=None,
                     help="connections per gunicorn worker (with REDIS_URL; default 6000, app/servers.py)")
    srv.set_defaults(func=cmd_serve)

    wrk = sub.add_parser("worker", help="run the jobs and the timers' clock (needs REDIS_URL)")
    wrk.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    wrk.add_argument("--name", default=None, help="the worker's name in RQ (default: RQ's own)")
    wrk.add_argument("--metrics", default=None, metavar="[HOST:]PORT",
                     help="serve Prometheus metrics there (default: $COSMIC_WORKER_METRICS; off when unset)")
    wrk.set_defaults(func=cmd_worker)

    tmr = sub.add_parser("timers", help="show a game's deadlines and timers, or schedule missing timers")
    tmr.add_argument("game", nargs="*", help="game ids (with --sweep: only these games)")
    tmr.add_argument("--sweep", action="store_true", help="schedule the timer of every open deadline that has none")
    tmr.add_argument("--json", action="store_true", help="one JSON line per game")
    tmr.set_defaults(func=cmd_timers)

    from app.history_cli import add_commands  # audit, replay, export, import, rewind, fork
    add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``cosmic`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "json", False) and args.command == "simulate":
        args.quiet = True
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
