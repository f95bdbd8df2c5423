"""The moves the expert weighs for a decision: a short list of distinct, legal commands per kind of prompt.

The search only pays where a choice shapes the game, so only these kinds get candidates (any
other decision is left to the heuristic player):

- ``challenge_card``: each distinct card (copies of one card are one candidate);
- ``launch``: each distinct target planet (planets holding the same ships are one) with 1 to 4
  ships, taken from the colonies holding the most;
- ``alliance``: declining, or joining either side invited to with 1 to 4 ships;
- ``invite``: nobody, everybody, each single player, and (with four or more to choose from)
  everybody but one;
- ``rewards``: every split between cards and ships from the warp;
- ``second_challenge``, ``choose_defense``, ``own_colour``: every option;
- ``window``, ``response``, ``reaction`` offering something to use (a card, a power): passing (or
  declining) and each use, a use's one choice (the side a reinforcement backs) each way;
- ``deal``: see `deal_lines`.

A candidate is a *line*: the seat's command, and for a deal proposal the other main player's
acceptance after it, so that terms are weighed as the deal they would make.
"""

from __future__ import annotations

from itertools import combinations

from engine import cards
from engine.flow import command_for

SEARCHED = ("challenge_card", "launch", "alliance", "invite", "rewards", "second_challenge", "choose_defense",
            "own_colour", "deal", "window", "response", "reaction")
USES = ("window", "response", "reaction")
MAX_SHIPS = 4


def lines(view: dict, prompt: dict) -> list[list[dict]]:
    """The candidate lines for ``prompt`` (empty: the kind is not searched)."""
    kind = prompt["kind"]
    if kind not in SEARCHED:
        return []
    if kind == "deal":
        return deal_lines(view, prompt)
    if kind in USES and not any(o["action"] == "use" for o in prompt["options"]):
        return []
    maker = _MAKERS.get(kind, _every_option)
    commands = [c for c in maker(view, prompt) if c is not None]
    unique, seen = [], set()
    for command in commands:
        key = repr(sorted(command.items()))
        if key not in seen:
            seen.add(key)
            command.update(player=prompt["player"], prompt=prompt["id"])
            unique.append([command])
    return unique


def _fill(opt: dict, fixed: dict) -> dict:
    """A command for ``opt`` with ``fixed`` arguments, the optional others left out and the rest at their first value."""
    args = dict(fixed)
    for name, shape in opt["args"].items():
        if name in args:
            continue
        if shape.get("optional"):
            args[name] = None
        elif shape["type"] == "choice":
            args[name] = shape["values"][0]
        elif shape["type"] in ("subset", "sequence"):
            args[name] = list(shape["values"][:shape["min"]])
        elif shape["type"] == "count":
            args[name] = shape["min"]
        elif shape["type"] == "distribution":
            args[name] = take_ships(shape, shape["min"])
        else:
            return None
    return command_for(opt, {k: v for k, v in args.items() if v is not None})


def take_ships(shape: dict, count: int) -> dict | None:
    """``count`` ships from a distribution's sources: from the places holding the most, keeping one on
    each colony while others can give; None when the sources hold too few."""
    sources = shape["sources"]
    count = max(shape["min"], min(count, shape["max"]))
    taken: dict = {}
    left = count
    for spare_pass in (True, False):  # first what each colony can spare keeping one ship, then the rest
        for place in sorted(sources, key=lambda p: (-sources[p], p)):
            if not left:
                break
            room = sources[place] - taken.get(place, 0) - (1 if spare_pass else 0)
            n = min(left, max(0, room))
            if n:
                taken[place] = taken.get(place, 0) + n
                left -= n
    return taken if not left else None


def _challenge_card(view, prompt):
    opt = prompt["options"][0]
    out = []
    by_name = {}
    for card_id in opt["args"]["card"]["values"]:
        by_name.setdefault(cards.card_kind_name(card_id), card_id)
    for card_id in by_name.values():
        command = _fill(opt, {"card": card_id})
        if command is not None:
            out.append(command)
    return out


def _planet_signature(view: dict, planet: str) -> tuple:
    return planet.rsplit("-", 1)[0], tuple(sorted(view["planets"][planet].items()))


def _launch(view, prompt):
    opt = prompt["options"][0]
    shape = opt["args"]["tokens"]
    planets, seen = [], set()
    for planet in opt["args"]["planet"]["values"]:
        signature = _planet_signature(view, planet)
        if signature not in seen:
            seen.add(signature)
            planets.append(planet)
    out = []
    for count in range(max(shape["min"], 1), min(shape["max"], MAX_SHIPS) + 1):
        taken = take_ships(shape, count)
        if taken is None:
            continue
        for planet in planets:
            command = _fill(opt, {"tokens": taken, "planet": planet})
            if command is not None:
                out.append(command)
    if not out and shape["min"] == 0:
        out = [_fill(opt, {"tokens": {}, "planet": p}) for p in planets]
    return [c for c in out if c is not None]


def _alliance(view, prompt):
    out = []
    for opt in prompt["options"]:
        if opt["action"] != "join":
            out.append(command_for(opt, {}) if not opt["args"] else _fill(opt, {}))
            continue
        shape = opt["args"]["tokens"]
        for count in range(max(shape["min"], 1), min(shape["max"], MAX_SHIPS) + 1):
            taken = take_ships(shape, count)
            if taken is not None:
                out.append(_fill(opt, {"tokens": taken}))
    return [c for c in out if c is not None]


def _invite(view, prompt):
    opt = prompt["options"][0]
    shape = opt["args"]["players"]
    values, low, high = list(shape["values"]), shape["min"], shape["max"]
    groups = [[], list(values)] + [[v] for v in values]
    if len(values) >= 4:
        groups += [list(g) for g in combinations(values, len(values) - 1)]
    elif len(values) == 3:
        groups += [list(g) for g in combinations(values, 2)]
    return [command_for(opt, {"players": g}) for g in groups if low <= len(g) <= high]


def _rewards(view, prompt):
    opt = prompt["options"][0]
    shape = opt["args"]["rewards"]
    keys = sorted(shape["sources"])
    out = []
    if len(keys) == 1:
        for n in range(shape["min"], shape["max"] + 1):
            if n <= shape["sources"][keys[0]]:
                out.append(command_for(opt, {"rewards": {keys[0]: n} if n else {}}))
        return out
    for total in sorted({shape["min"], shape["max"]}):
        for first in range(0, total + 1):
            split = {keys[0]: first, keys[1]: total - first} if len(keys) == 2 else None
            if split is None:
                continue
            if all(split[k] <= shape["sources"][k] for k in split):
                out.append(command_for(opt, {"rewards": {k: n for k, n in split.items() if n}}))
    return out


def _every_option(view, prompt):
    out = []
    for opt in prompt["options"]:
        if opt["action"] == "pass_stage":  # (passing is weighed once: `pass`)
            continue
        choices = [(name, shape) for name, shape in opt["args"].items() if shape["type"] == "choice"
                   and not shape.get("optional")]
        if len(choices) == 1 and len(opt["args"]) == 1:
            name, shape = choices[0]
            out += [command_for(opt, {name: v}) for v in shape["values"]]
        else:
            command = _fill(opt, {})
            if command is not None:
                out.append(command)
    return out


_MAKERS = {"challenge_card": _challenge_card, "launch": _launch, "alliance": _alliance, "invite": _invite,
           "rewards": _rewards}


# Deals ---------------------------------------------------------------------------------------

def deal_lines(view: dict, prompt: dict) -> list[list[dict]]:
    """A deal's candidate lines: giving up, accepting each offer, and (while the seat has no proposal of its
    own standing) proposing each of a few terms, as the deal they make: the proposal, then the other
    main player accepting it."""
    player, side = prompt["player"], prompt["info"].get("side")
    actions = {o["action"]: o for o in prompt["options"]}
    out = []
    if "give_up" in actions:
        out.append([_mine(prompt, {"action": "give_up", "args": {}})])
    if "accept" in actions:
        for proposal in actions["accept"]["args"]["proposal"]["values"]:
            out.append([_mine(prompt, {"action": "accept", "args": {"proposal": proposal}})])
    proposals = prompt["info"].get("proposals") or {}
    if "propose" in actions and side in ("offense", "defense") and \
            not any(p["by"] == player for p in proposals.values()):
        other = _main(view, "defense" if side == "offense" else "offense")
        next_id = max((int(k) for k in proposals), default=0) + 1
        for terms in deal_terms(view, side):
            out.append([_mine(prompt, {"action": "propose", "args": {"terms": terms}}),
                        {"action": "accept", "args": {"proposal": next_id}, "player": other}])
    return out


def _mine(prompt: dict, command: dict) -> dict:
    command.update(player=prompt["player"], prompt=prompt["id"])
    return command


def _main(view: dict, side: str) -> str:
    return view["turn"]["offense"] if side == "offense" else view["ch"]["defense"]


def deal_terms(view: dict, side: str) -> list[dict]:
    """Terms the seat on ``side`` may propose: cards each way (0 to 2), and a colony for it or for the other
    main player, in a handful of combinations a table would consider."""
    other_side = "defense" if side == "offense" else "offense"
    me, them = _main(view, side), _main(view, other_side)
    mine, theirs = len(view["players"][me]["hand"]), len(view["players"][them]["hand"])
    my_colony = _shareable(view, receiver=me, giver=them)
    their_colony = _shareable(view, receiver=them, giver=me)
    shapes = [(0, 1, False, False), (1, 0, False, False), (1, 1, False, False), (0, 2, False, False),
              (1, 2, False, False), (0, 0, True, False), (1, 0, True, False), (2, 0, True, False),
              (0, 0, True, True), (0, 0, False, True), (0, 1, False, True)]
    out = []
    for give, get, colony_for_me, colony_for_them in shapes:
        if give > mine or get > theirs or (colony_for_me and not my_colony) or \
                (colony_for_them and not their_colony):
            continue
        out.append(_terms(side, other_side, give, get, my_colony if colony_for_me else None,
                          their_colony if colony_for_them else None))
    return out


def _terms(side, other_side, give, get, colony_for_me, colony_for_them) -> dict:
    return {"cards": {side: {"named": [], "count": give}, other_side: {"named": [], "count": get}},
            "bases": {side: colony_for_me, other_side: colony_for_them}}


def _shareable(view: dict, *, receiver: str, giver: str) -> str | None:
    """A planet where ``giver`` has a colony and ``receiver`` none: in the giver's home system first (a foreign
    colony for the receiver), the one holding most of the giver's ships."""
    best = None
    for planet, ships in view["planets"].items():
        if ships.get(giver, 0) > 0 and ships.get(receiver, 0) == 0:
            key = (planet.rsplit("-", 1)[0] != receiver, ships.get(giver, 0), planet)
            if best is None or key > best[0]:
                best = (key, planet)
    return best[1] if best else None
