"""Complete games between random legal players, in process: the engine's stress test.

`play_game` plays one game and checks every invariant after every command; `simulate`
plays many and summarizes them. The CLI (`cosmic simulate`) prints progress and, last,
one JSON line.
"""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass, field

from engine import flow, rulesets
from engine.decide import execute, prompts
from engine.errors import EngineError, EngineStuck, StateSpoiled
from engine.invariants import card_places, violations
from engine.levels import LEVELS
from engine.options import resolve as resolve_options
from engine.players import random_command

MAX_TURNS = 1000
MAX_RETRIES = 25
TIME_STEP_MS = 1000
# Share of decisions with a deadline that a simulated player lets run out, so that every
# default a timer applies (a failed deal, a declined alliance, a random card...) is exercised.
TIMEOUT_SHARE = 0.05


@dataclass
class GameResult:
    """What happened in one simulated game."""

    seed: str
    finished: bool = False
    winners: list[str] = field(default_factory=list)
    winner_seats: list[int] = field(default_factory=list)
    winner_powers: list[str] = field(default_factory=list)
    powers: dict = field(default_factory=dict)
    events: int = 0
    turns: int = 0
    error: str | None = None
    violations: list[str] = field(default_factory=list)
    unfinished_reason: str | None = None
    final_state: dict | None = None
    timeouts: int = 0
    log: list = field(default_factory=list)  # every event of the game, with ``keep_log``


def new_game(seed: str, players: int, options: dict | None = None, ruleset: str = "mayfair",
             setup: dict | None = None, at: int = 0) -> tuple[dict, list[dict]]:
    """A started game with ``players`` seats; returns the state and every event so far."""
    state, log = None, []
    commands = [{"action": "create", "ruleset": ruleset, "options": options or {}, "seats": players,
                 "seed": seed, "setup": setup or {}, "at": at}]
    commands += [{"action": "join", "name": f"player {k + 1}", "at": at} for k in range(players)]
    commands.append({"action": "start", "at": at})
    for command in commands:
        events, state = execute(state, command)
        log += events
    return state, log


def play_game(seed: str, players: int, options: dict | None = None, *, ruleset: str = "mayfair",
              check_every: int = 1, keep_log: bool = False, bots: str = "random",
              max_turns: int = MAX_TURNS) -> GameResult:
    """Play one game to its end with random legal players, checking invariants as it goes."""
    result = GameResult(seed=seed)
    rng = random.Random(f"players:{seed}")
    chooser = LEVELS.get(bots, random_command)
    clock = 0
    try:
        state, log = new_game(seed, players, options, ruleset)
        deck_cards = _cards_of(state) or None  # (ffg: the deck is formed once the powers are chosen)
        destiny_cards = sorted(state["destiny"] + state["destiny_discard"])
        result.events = len(log)
        commands = 0
        while state["status"] == "playing":
            if state["turn"] and state["turn"]["number"] > max_turns:
                result.unfinished_reason = f"no winner after {max_turns} turns"
                break
            owed = prompts(state)
            if not owed:
                result.violations.append("no decision owed in a game being played")
                break
            chosen = rng.choice(owed)
            clock += TIME_STEP_MS
            if chosen.get("deadline") is not None and rng.random() < TIMEOUT_SHARE:
                clock = max(clock, chosen["deadline"])
                events, state = execute(state, {"action": "timeout", "prompt": chosen["id"], "at": clock},
                                        in_place=True)
                result.timeouts += 1
            else:
                events, state = legal_answer(state, chosen, rng, clock, choose=chooser, in_place=True)
            result.events += len(events)
            if keep_log:
                log += events
            commands += 1
            if deck_cards is None:
                deck_cards = _cards_of(state) or None
            if commands % check_every == 0:
                found = violations(state, deck_cards, destiny_cards)
                if found:
                    result.violations += found
                    break
        # the powers held (under ffg they are chosen once the game has started)
        # (the powers the game began with: a Reincarnator's later incarnations are not counted as dealt)
        result.powers = {c: list(state["players"][c].get("dealt", state["players"][c]["powers"]))
                         for c in state["order"]}
        result.turns = state["turn"]["number"] if state.get("turn") else 0
        result.finished = state["status"] == "finished"
        result.winners = list(state.get("winners") or [])
        result.winner_seats = [state["order"].index(c) for c in result.winners]
        result.winner_powers = [p for c in result.winners for p in result.powers[c]]
        if result.finished:
            result.violations += violations(state, deck_cards, destiny_cards)
        result.final_state = state
        if keep_log:
            result.log = log
    except Exception as exc:  # a crash is a finding, reported with its trace
        result.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return result


def _cards_of(state: dict) -> list[str]:
    return sorted(card_places(state))


def legal_answer(state: dict, prompt: dict, rng, at: int, choose=random_command,
                 attempts: int = MAX_RETRIES, in_place: bool = False) -> tuple[list[dict], dict]:
    """Answer ``prompt`` legally at time ``at``: ``(events, state)`` as `engine.execute` returns them.

    ``choose(state, prompt, rng)`` proposes a command; one the rules refuse (a random pick can
    break a rule the shapes do not state) is drawn again, and after ``attempts`` refusals the
    decision's default applies. The random players of the simulator, the benches and the
    determinism tests all answer this way, so the same seed draws the same game everywhere.
    ``in_place``: as `engine.execute`'s (a refused pick leaves the state as it was).
    """
    last_error = None
    for _ in range(attempts):
        command = choose(state, prompt, rng)
        command["at"] = at
        try:
            return execute(state, command, in_place=in_place)
        except (EngineStuck, StateSpoiled):  # a bug in the engine, not a refused pick
            raise
        except EngineError as exc:
            last_error = exc
    fallback = flow.default_command(state, prompt, rng)
    if fallback is not None:
        fallback["at"] = at
        try:
            return execute(state, fallback, in_place=in_place)
        except StateSpoiled:
            raise
        except EngineError:
            pass
    raise RuntimeError(f"no legal answer found for {prompt['kind']}: {last_error}") from last_error


def simulate(games: int, players: int, seed: int, options: dict | None = None, *, ruleset: str = "mayfair",
             progress=None, bots: str = "random") -> dict:
    """Play ``games`` games and summarize: finished, winners by seat and power, errors, violations, speed.

    Options are checked before any game is played: a bad one raises RulesError naming it.
    """
    resolve_options(ruleset, options, players)
    return summarize_games(games, players, seed, options, ruleset,
                           lambda game_seed: play_game(game_seed, players, options, ruleset=ruleset, bots=bots),
                           progress=progress)


def summarize_games(games: int, players: int, seed: int, options: dict | None, ruleset: str, play,
                    progress=None) -> dict:
    """Play ``games`` games with ``play(game_seed)`` (a `GameResult`) and summarize them.

    Game ``index`` is seeded ``<seed>:<index>``; ``progress(done, games, summary, seconds)`` is
    called after each. In process or through the API (`app.simulate_api`), the same summary.
    """
    started = time.perf_counter()
    summary = {"games": games, "players": players, "seed": seed, "ruleset": ruleset, "options": options or {},
               "finished": 0, "winners_by_seat": {}, "joint_wins": 0, "total_events": 0, "errors": 0,
               "invariant_violations": 0, "unfinished": {}, "power_games": {}, "power_wins": {},
               "timeouts": 0, "examples": []}
    for index in range(games):
        _add(summary, play(f"{seed}:{index}"))
        if progress is not None:
            progress(index + 1, games, summary, time.perf_counter() - started)
    elapsed = time.perf_counter() - started
    summary["seconds"] = round(elapsed, 3)
    summary["games_per_second"] = round(games / elapsed, 3) if elapsed else None
    summary["events_per_second"] = round(summary["total_events"] / elapsed, 1) if elapsed else None
    summary["mean_events_per_game"] = round(summary["total_events"] / games, 1) if games else 0
    summary["power_win_rate"] = {p: round(summary["power_wins"].get(p, 0) / n, 3)
                                 for p, n in sorted(summary["power_games"].items())}
    summary["colors"] = list(rulesets.get(ruleset).colors[:players])
    return summary


def _add(summary: dict, result: GameResult) -> None:
    summary["total_events"] += result.events
    summary["timeouts"] += result.timeouts
    for names in result.powers.values():
        for name in names:
            summary["power_games"][name] = summary["power_games"].get(name, 0) + 1
    if result.error:
        summary["errors"] += 1
        _example(summary, result, result.error)
    if result.violations:
        summary["invariant_violations"] += len(result.violations)
        _example(summary, result, "; ".join(result.violations[:3]))
    if result.finished:
        summary["finished"] += 1
        if len(result.winners) > 1:
            summary["joint_wins"] += 1
        for seat in result.winner_seats:
            summary["winners_by_seat"][str(seat)] = summary["winners_by_seat"].get(str(seat), 0) + 1
        for name in result.winner_powers:
            summary["power_wins"][name] = summary["power_wins"].get(name, 0) + 1
    elif result.unfinished_reason:
        summary["unfinished"][result.unfinished_reason] = summary["unfinished"].get(result.unfinished_reason, 0) + 1


def _example(summary: dict, result: GameResult, what: str) -> None:
    if len(summary["examples"]) < 5:
        summary["examples"].append({"seed": result.seed, "problem": what})
