"""Token movements the rules leave to the owner's choice, and losses to the warp.

- `lose`: tokens go to the warp, or wherever a power sends them (Zombie home, Void out of
  the game); then everyone is told (Vacuum, Healer).
- ``place`` step: tokens returning "to any of its bases" (allies going home, tokens from
  the warp, tokens left on the cone): the owner distributes them among its bases. With a
  single base there is nothing to decide; with none, any of its home planets (decision).
- ``losses`` step: a player loses N tokens of its choice (a failed deal, Plague).
"""

from __future__ import annotations

from engine import shapes
from engine.evolve import token_place
from engine.flow import Step, option, prompt, register
from engine.hooks import fire, fold
from engine.state import bases, home_planets, tokens_on_bases


def move(ctx, moves: list[tuple[str, str, str, int]], reason: str) -> None:
    """Move tokens: ``(colour, from, to, count)`` each; zero counts are left out."""
    kept = [[color, src, dst, n] for color, src, dst, n in moves if n > 0]
    if kept:
        ctx.emit("TokensMoved", moves=kept, reason=reason)


def warp_place(state: dict) -> str:
    """Where a lost token goes now: the warp, or the current fan section with reverse warp."""
    section = fan_section(state)
    return f"fan:{section}" if section else "warp"


def fan_section(state: dict) -> str | None:
    """The fan section lost tokens go to with the reverse warp option (RULES.md 8), else None."""
    if not state["options"].get("reverse_warp"):
        return None
    return state["notes"].get("fan", {}).get("section")


def lose(ctx, losses: list[tuple[str, str, int]], reason: str, by: str | None = None) -> list[dict]:
    """Tokens lost: ``(colour, from, count)``. Returns what happened to each, for consolation and triggers."""
    state = ctx.state
    moves, returns, report = [], [], []
    for color, src, n in losses:
        if n <= 0:
            continue
        destination = fold(state, "loss_destination", "warp", player=color, src=src, reason=reason, by=by)
        if destination == "removed":
            # how many of them may leave the game (the FFG Void leaves a player its last ships: the rest warp)
            out = fold(state, "removable", n, player=color)
            if out < n:
                report.append({"player": color, "src": src, "count": n - out, "to": "warp"})
                moves.append((color, src, warp_place(state), n - out))
                n = out
            if not n:
                continue
        report.append({"player": color, "src": src, "count": n, "to": destination})
        if destination == "home":
            returns.append({"player": color, "src": src, "count": n, "reason": reason,
                            **({"leaving": True} if src in state["planets"] else {})})
        else:
            moves.append((color, src, "removed" if destination == "removed" else warp_place(state), n))
    move(ctx, moves, reason)
    if returns:
        ctx.then(ctx.step("place", returns=returns))
    if report:
        fire(ctx, "on_tokens_lost", losses=report, reason=reason)
    return report


def return_home(ctx, returns: list[dict]) -> None:
    """Schedule tokens going back to their owners' bases (``{"player", "src", "count", "reason"}``)."""
    returns = [r for r in returns if r["count"] > 0]
    if returns:
        ctx.then(ctx.step("place", returns=returns))


def destinations(state: dict, color: str, leaving: str | None = None) -> list[str]:
    """Where a player's returning tokens may go: its bases, or any home planet if it has none.

    ``leaving``: the planet the tokens are lost from. A loss sent "home" instead of to the warp
    (Zombie, Observer) leaves that planet first: it is no base to return to (14.8).
    """
    held = [p for p in bases(state, color) if p != leaving]
    return held or [p for p in home_planets(state, color) if p != leaving] or home_planets(state, color)


def return_targets(state: dict, ret: dict) -> list[str]:
    """Where one return's tokens may go (`destinations`, without the planet a loss leaves)."""
    return destinations(state, ret["player"], ret["src"] if ret.get("leaving") else None)


def available_at(state: dict, color: str, src: str) -> int:
    """How many of a colour's tokens are at a place now."""
    return token_place(state, src).get(color, 0)


@register
class Place(Step):
    """Owners put returning tokens on their bases; the choice is asked only where there is one."""

    op = "place"

    def prompts(self, state, step):
        found, asked = [], set()
        for ret in step["returns"]:
            player = ret["player"]
            count = min(ret["count"], available_at(state, player, ret["src"]))
            targets = return_targets(state, ret)
            if player in asked or count == 0 or len(targets) < 2:
                continue
            asked.add(player)
            shape = shapes.distribution({p: count for p in targets}, count, count)
            found.append(prompt(step, player, "place_tokens",
                                [option("place", {"tokens": shape}, rule="4.8.return")],
                                rule="4.8.return", info={"count": count, "from": ret["src"],
                                                         "reason": ret["reason"]}))
        return found

    def run(self, ctx, step):
        remaining = []
        moved = []
        for ret in step["returns"]:
            player = ret["player"]
            count = min(ret["count"], available_at(ctx.state, player, ret["src"]))
            targets = return_targets(ctx.state, ret)
            if count == 0:
                continue
            if len(targets) == 1:
                moved.append((player, ret["src"], targets[0], count, ret["reason"]))
            else:
                remaining.append(ret)
        for player, src, dst, count, reason in moved:
            move(ctx, [(player, src, dst, count)], reason)
        if remaining:
            ctx.update(returns=remaining)
        else:
            ctx.done()
        for player, src, _dst, count, reason in moved:
            if src == "warp":
                fire(ctx, "on_tokens_retrieved", player=player, count=count, reason=reason)

    def answer(self, ctx, step, prompt_, opt, args):
        player = prompt_["player"]
        index = next(i for i, r in enumerate(step["returns"]) if r["player"] == player
                     and min(r["count"], available_at(ctx.state, player, r["src"])) > 0)
        ret = step["returns"][index]
        move(ctx, [(player, ret["src"], planet, n) for planet, n in sorted(args["tokens"].items())],
             ret["reason"])
        rest = step["returns"][:index] + step["returns"][index + 1:]
        if rest:
            ctx.update(returns=rest)
        else:
            ctx.done()
        if ret["src"] == "warp":
            fire(ctx, "on_tokens_retrieved", player=player, count=prompt_["info"]["count"], reason=ret["reason"])

    def default(self, state, step, prompt_, rng):
        """Stated rule: one token at a time onto its bases in board order, round robin."""
        targets = list(prompt_["options"][0]["args"]["tokens"]["sources"])
        spread: dict[str, int] = {}
        for k in range(prompt_["info"]["count"]):
            planet = targets[k % len(targets)]
            spread[planet] = spread.get(planet, 0) + 1
        return {"action": "place", "args": {"tokens": spread}}


def leaves_a_choice(sources: dict[str, int], total: int) -> bool:
    """Whether taking ``total`` tokens from ``sources`` is a decision: some but not all, from two places or more."""
    return not (total == 0 or len(sources) < 2 or total == sum(sources.values()))


def taken_without_choice(sources: dict[str, int], total: int) -> dict[str, int]:
    """The tokens taken when there is no choice (see `leaves_a_choice`): none, all, or ``total`` from the one place."""
    if total == 0:
        return {}
    if total == sum(sources.values()):
        return sources
    (key, _n), = sources.items()
    return {key: total}


def take_in_order(sources: dict[str, int], need: int, keys: list[str]) -> dict[str, int]:
    """``need`` tokens taken from ``sources``, emptying the places in the order of ``keys``."""
    chosen = {}
    for key in keys:
        take = min(need, sources[key])
        if take:
            chosen[key] = take
            need -= take
    return chosen


def loss_sources(state: dict, color: str, include_cone: bool = True, not_from: str | None = None) -> dict[str, int]:
    """Where a player could lose tokens from: its bases (but ``not_from``) and, if asked, its tokens on the cone."""
    sources = tokens_on_bases(state, color)
    sources.pop(not_from, None)
    if include_cone:
        for side in ("offense", "defense"):
            n = state["cone"][side].get(color, 0)
            if n:
                sources[f"cone:{side}"] = n
    return sources


@register
class Losses(Step):
    """A player loses a number of tokens of its choice, or of ``chooser``'s (asked only when the choice matters)."""

    op = "losses"

    def prompts(self, state, step):
        player, count = step["player"], step["count"]
        sources = loss_sources(state, player, step.get("cone", True), step.get("not_from"))
        total = min(count, sum(sources.values()))
        if not leaves_a_choice(sources, total):
            return []
        shape = shapes.distribution(sources, total, total)
        info = {"count": total, "reason": step["reason"]}
        chooser = step.get("chooser") or player  # another player may choose them (the FFG Hate)
        if chooser != player:
            info["player"] = player
        return [prompt(step, chooser, "choose_losses", [option("lose", {"tokens": shape}, rule="4.8.losses")],
                       rule="4.8.losses", info=info)]

    def run(self, ctx, step):
        sources = loss_sources(ctx.state, step["player"], step.get("cone", True), step.get("not_from"))
        chosen = taken_without_choice(sources, min(step["count"], sum(sources.values())))
        ctx.done()
        if chosen:
            lose(ctx, [(step["player"], src, n) for src, n in chosen.items()], step["reason"], by=step.get("by"))

    def answer(self, ctx, step, prompt_, opt, args):
        ctx.done()
        lose(ctx, [(step["player"], src, n) for src, n in sorted(args["tokens"].items())], step["reason"],
             by=step.get("by"))

    def default(self, state, step, prompt_, rng):
        """Stated rule: from the cone first, then from the places holding the most tokens."""
        sources = dict(prompt_["options"][0]["args"]["tokens"]["sources"])
        order = sorted(sources, key=lambda s: (not s.startswith("cone"), -sources[s], s))
        return {"action": "lose", "args": {"tokens": take_in_order(sources, prompt_["info"]["count"], order)}}
