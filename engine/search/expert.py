"""The expert player: determinized rollouts of every candidate move, from the seat's knowledge only.

For a decision worth searching (`engine.search.candidates`), `expert_command`:

1. turns what it is given into the seat's knowledge (`knowledge.seat_state`: what the seat cannot
   see is placeholders; a state that already is one stays as it is), and reads nothing else;
2. draws possible worlds one after the other (`knowledge.determinize`: the unseen cards dealt
   at random among the hidden places, a seed for the world's own chance, the destiny pile shuffled);
3. in each world plays every candidate line, then the rest of the game with the heuristic
   player at every seat up to the horizon (`rollout.play_out`), every candidate with the same
   world and the same chance (common random numbers: the comparison sees the move's effect,
   not the luck of the draw), and scores the end with `evaluate.values`;
4. every few worlds keeps the better half of the candidates (successive halving), and stops
   when the budget is spent; the best mean value wins (ties: the earlier candidate).

Budget: counted in rollout answers (``steps``), so the same view and the same random source
give the same choice on any machine at any load; a CPU-time cap (``seconds``, measured with
`time.process_time`) only cuts a search that runs long, and then the choice may depend on
the machine (the price of never overrunning a decision's time). Decisions the search does
not cover, and any failure of the search, are answered by the heuristic player.

Deals are weighed as the deals they make: a proposal's line has the other main player accept
it. The seat proposes the terms worth most to it among those worth at least as much to the
other player as the deal failing (as the same evaluation sees them); it accepts an offer when
that is worth more than what else it can do, and once its own proposal stands it only accepts
or gives up (leaving its proposal to be taken), so two experts never trade proposals forever.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.decide import execute, prompts
from engine.errors import EngineError
from engine.players import heuristic_command
from engine.search import candidates, knowledge
from engine.search.evaluate import values
from engine.search.rollout import play_out
from engine.state import clone

DEFAULT_STEPS = 4000      # rollout answers per decision (about 0.25 s of CPU with the compiled engine, 0.4 s without)
DEFAULT_SECONDS = 0.5     # the CPU-time cap of one decision
DEFAULT_ENCOUNTERS = 2    # the horizon: the encounter under way and the next one
MIN_SECONDS = 0.02        # less time than this left (half the time to the deadline): no search
ALIGN_STEPS = 12          # decisions a world may owe before the seat's that are passed to reach it
MAX_WORLDS = 400          # worlds drawn at most (most of them are played; see `align`)
MIN_WORLDS = 2            # worlds every surviving candidate is played in, whatever the budget
HALVING_AT = (3, 6, 12, 24)  # after these many worlds, the worse half of the candidates is dropped
SURE = 1.5                # standard errors by which using something must beat passing (see `_unless_doubtful`)
USE_MARGIN = 0.3          # and points
DEAL_MARGIN = 1.0         # a proposal must leave the other player at most this far below the deal failing


@dataclass(frozen=True)
class Budget:
    """What one decision may cost: rollout answers (deterministic) and CPU seconds (a safety cap)."""

    steps: int = DEFAULT_STEPS
    seconds: float = DEFAULT_SECONDS
    encounters: int = DEFAULT_ENCOUNTERS
    wall: float | None = None  # wall-clock seconds, where a deadline is near (see `budget_for`)


_budget = Budget()


def configure(*, steps: int | None = None, seconds: float | None = None, encounters: int | None = None) -> Budget:
    """Set the budget of every later decision (the service's settings, a bench's flags); returns it."""
    global _budget
    _budget = Budget(steps=_budget.steps if steps is None else steps,
                     seconds=_budget.seconds if seconds is None else seconds,
                     encounters=_budget.encounters if encounters is None else encounters)
    return _budget


def budget() -> Budget:
    """The budget decisions are searched with now."""
    return _budget


def budget_for(*, steps: int | None = None, seconds: float | None = None,
               time_left_ms: int | None = None) -> Budget | None:
    """The budget of one decision: the configured one with ``steps`` and ``seconds`` if given, its time capped at
    half the time left before the decision's deadline (wall clock too); None when too little time is left to
    search at all (the heuristic answers)."""
    base = Budget(steps=_budget.steps if steps is None else steps,
                  seconds=_budget.seconds if seconds is None else seconds, encounters=_budget.encounters)
    if time_left_ms is None:
        return base
    spare = time_left_ms / 1000 / 2
    if spare < MIN_SECONDS:
        return None
    return Budget(steps=base.steps, seconds=min(base.seconds, spare), encounters=base.encounters,
                  wall=min(base.seconds, spare))


def expert_command(view: dict, prompt: dict, rng, *, spend: Budget | None = None, steps: int | None = None,
                   seconds: float | None = None, time_left_ms: int | None = None) -> dict:
    """The expert's answer to ``prompt`` from the seat's knowledge of the game (see the module).

    ``spend`` is the whole budget; else the configured one with ``steps``/``seconds`` if given, capped by
    ``time_left_ms`` before the decision's deadline (`budget_for`).
    """
    me = prompt["player"]
    known = knowledge.seat_state(view, me)
    command = None
    spend = spend or budget_for(steps=steps, seconds=seconds, time_left_ms=time_left_ms)
    if spend is not None and known.get("status") == "playing" and known.get("turn"):
        try:
            command = search(known, prompt, rng, spend).command
        except (EngineError, ValueError, KeyError, IndexError, RuntimeError):
            command = None
    if command is None:
        command = heuristic_command(known, prompt, rng)
    command.update(player=me, prompt=prompt["id"])
    return command


@dataclass
class Result:
    """What a search found: the command chosen and, per candidate line, its mean value, the mean value for
    the other party of a deal, and the worlds it was played in."""

    command: dict | None
    lines: list
    means: list
    worlds: list
    steps: int
    partner: list | None = None


def search(known: dict, prompt: dict, rng, spend: Budget) -> Result:
    """Weigh every candidate line of ``prompt`` in possible worlds of ``known`` (see the module)."""
    me = prompt["player"]
    lines = candidates.lines(known, prompt)
    if len(lines) < 2:
        return Result(lines[0][0] if lines else None, lines, [], [], 0, [])
    other = _deal_partner(known, prompt)
    seed = rng.getrandbits(64)
    started, wall_started = time.process_time(), time.perf_counter()
    by_world: list[dict] = [{} for _ in lines]  # candidate -> {world: its value there}
    mine = [0.0] * len(lines)
    theirs = [0.0] * len(lines)
    played = [0] * len(lines)
    alive = list(range(len(lines)))
    spent, worlds = 0, 0
    while alive:
        world_rng = random.Random(seed + worlds)
        world = align(knowledge.determinize(known, world_rng), prompt)
        chance = world_rng.getrandbits(64)
        if world is None:  # a world where the decision cannot come about: drawn again, within the budget
            worlds += 1
            spent += ALIGN_STEPS
            if worlds > MAX_WORLDS or (worlds >= MIN_WORLDS and spent >= spend.steps):
                break
            continue
        for index in list(alive):
            state = clone(world)
            try:
                for command in lines[index]:
                    _, state = execute(state, {**command, "at": state.get("time", 0)}, in_place=True)
            except EngineError:
                alive.remove(index)  # not legal in this world: not a move to make
                continue
            state, steps = play_out(state, random.Random(chance), encounters=spend.encounters)
            spent += steps + len(lines[index])
            scores = values(state)
            mine[index] += scores[me]
            by_world[index][worlds] = scores[me]
            if other:
                theirs[index] += scores[other]
            played[index] += 1
        worlds += 1
        if worlds >= MIN_WORLDS and (spent >= spend.steps or time.process_time() - started >= spend.seconds):
            break
        if spend.wall is not None and time.perf_counter() - wall_started >= spend.wall:
            break  # (a deadline near: even the worlds every candidate should see are cut short)
        if worlds in HALVING_AT and len(alive) > 2 and prompt["kind"] != "deal":  # (a deal weighs all)
            ranked = sorted(alive, key=lambda i: (-mine[i] / played[i], i))
            alive = sorted(ranked[:max(2, (len(ranked) + 1) // 2)])
    means = [mine[i] / played[i] if played[i] else None for i in range(len(lines))]
    partner = [theirs[i] / played[i] if played[i] else None for i in range(len(lines))]
    chosen = _pick(prompt, lines, means, partner, played, alive)
    chosen = _unless_doubtful(prompt, lines, by_world, chosen)
    return Result(lines[chosen][0] if chosen is not None else None, lines, means, played, spent, partner)


def align(world: dict, prompt: dict) -> dict | None:
    """The world brought to the decision: a world may owe other decisions first that the real game does not
    (a window opens before an ally answers when someone may use a card then, and the world's hands differ
    from the real ones); they are passed, as the real game shows nobody acting there. None if the decision
    does not come about."""
    for _ in range(ALIGN_STEPS):
        owed = prompts(world)
        if any(p["id"] == prompt["id"] and p["player"] == prompt["player"] for p in owed):
            return world
        passing = next((p for p in owed if p["player"] != prompt["player"]
                        and any(o["action"] in ("pass", "decline") for o in p["options"])), None)
        if passing is None:
            return None
        action = next(o["action"] for o in passing["options"] if o["action"] in ("pass", "decline"))
        try:
            _, world = execute(world, {"action": action, "args": {}, "player": passing["player"],
                                       "prompt": passing["id"], "at": world.get("time", 0)}, in_place=True)
        except EngineError:
            return None
    return None


def _unless_doubtful(prompt: dict, lines: list, by_world: list, chosen: int | None) -> int | None:
    """Using a card or a power only when the search is fairly sure it pays: against passing, in the same worlds,
    the gain must exceed ``SURE`` standard errors (a card used in vain is gone; the noise of a few rollouts
    must not spend it)."""
    if chosen is None or prompt["kind"] not in candidates.USES or lines[chosen][0]["action"] != "use":
        return chosen
    default = next((i for i, line in enumerate(lines) if line[0]["action"] in ("pass", "decline")), None)
    if default is None:
        return chosen
    common = sorted(set(by_world[chosen]) & set(by_world[default]))
    if len(common) < 2:
        return default
    gains = [by_world[chosen][w] - by_world[default][w] for w in common]
    mean = sum(gains) / len(gains)
    spread = (sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)) ** 0.5
    return chosen if mean > SURE * spread / len(gains) ** 0.5 + USE_MARGIN else default


def _deal_partner(known: dict, prompt: dict) -> str | None:
    """The other main player of a deal the seat negotiates (its value rules which proposals are fair)."""
    if prompt["kind"] != "deal" or prompt["info"].get("side") not in ("offense", "defense"):
        return None
    return known["ch"]["defense"] if prompt["info"]["side"] == "offense" else known["turn"]["offense"]


def _pick(prompt: dict, lines: list, means: list, partner: list, played: list, alive: list) -> int | None:
    """The candidate with the best mean among those played most (the survivors of the halving); for a deal,
    proposals the other player would be worse off accepting than seeing the deal fail are left out."""
    most = max((played[i] for i in alive), default=0)
    pool = [i for i in alive if played[i] == most and means[i] is not None]
    if prompt["kind"] == "deal":
        failing = [i for i in range(len(lines)) if lines[i][0]["action"] == "give_up" and partner[i] is not None]
        if failing:
            floor = partner[failing[0]] - DEAL_MARGIN
            pool = [i for i in pool if lines[i][0]["action"] != "propose" or partner[i] >= floor]
        if not pool:
            pool = [i for i in failing if means[i] is not None]
    if not pool:
        return None
    return max(pool, key=lambda i: (means[i], -i))
