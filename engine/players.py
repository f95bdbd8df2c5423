"""Players that need no person: a random legal player and a simple heuristic one.

Both read a prompt's options and pick a legal command; `random_command` is what the
simulator and the ``random`` bot use, `heuristic_command` the ``heuristic`` bot.
"""

from __future__ import annotations

from engine import cards, shapes
from engine.flow import command_for
from engine.state import bases, hand, main_player, opponent_side

PASS_WEIGHT = 0.6


def random_args(state: dict, prompt: dict, opt: dict, rng) -> dict:
    """Random legal arguments for an option, including structured deal terms."""
    args = {}
    for name, shape in opt["args"].items():
        if shape["type"] == "free" and shape.get("schema") == "deal":
            args[name] = random_terms(state, prompt, rng)
        else:
            args[name] = shapes.random_value(shape, rng)
    return args


def random_option(prompt: dict, rng) -> dict:
    """An option at random, passing in windows more often than not so games move on."""
    options = prompt["options"]
    if prompt["kind"] == "deal":  # wanting a deal: a failed one costs both players 3 tokens
        uses = [o for o in options if o["action"] == "use"]  # an any-time card now and then
        if uses and rng.random() < 0.1:
            return rng.choice(uses)
        accept = [o for o in options if o["action"] == "accept"]
        if accept and rng.random() < 0.8:
            return accept[0]
        propose = [o for o in options if o["action"] == "propose"]
        if propose and rng.random() < 0.9:
            return propose[0]
        return next(o for o in options if o["action"] == "give_up")
    if prompt["kind"] == "regroup" and rng.random() < 0.95:  # a free token back is nearly always wanted
        retrieve = [o for o in options if o["action"] == "retrieve"]
        if retrieve:  # a power may offer only something else instead (Machine's Super with none in the warp)
            return retrieve[0]
    passing = [o for o in options if o["action"] in ("pass", "decline")]
    if passing and rng.random() < PASS_WEIGHT:
        return passing[0]
    return rng.choice(options)


def random_command(state: dict, prompt: dict, rng) -> dict:
    """A random legal command answering a prompt."""
    opt = random_option(prompt, rng)
    command = command_for(opt, random_args(state, prompt, opt, rng))
    command.update(player=prompt["player"], prompt=prompt["id"])
    return command


def random_terms(state: dict, prompt: dict, rng) -> dict:
    """Random deal terms that the proposer can honour: cards of its choice, sometimes a base."""
    side = prompt["info"]["side"]
    if side == "third":
        return random_third_party_terms(state, prompt, rng)
    me, them = main_player(state, side), main_player(state, opponent_side(side))
    terms = {"cards": {"offense": {"named": [], "count": 0}, "defense": {"named": [], "count": 0}},
             "bases": {"offense": None, "defense": None}}
    roll = rng.random()
    if roll < 0.4 and hand(state, me):
        terms["cards"][side]["count"] = 1
    if (roll >= 0.4 or rng.random() < 0.3) and hand(state, them):
        terms["cards"][opponent_side(side)]["count"] = 1
    shareable = [p for p in bases(state, them) if state["planets"][p].get(me, 0) == 0]
    if shareable and rng.random() < 0.5:
        terms["bases"][side] = rng.choice(shareable)
    if not any(terms["cards"][s]["count"] for s in ("offense", "defense")) and not terms["bases"][side]:
        terms["cards"][side]["count"] = 1 if hand(state, me) else 0
        if not hand(state, me):
            terms["cards"][opponent_side(side)]["count"] = 1
    return terms


def random_third_party_terms(state: dict, prompt: dict, rng) -> dict:
    """Terms a third party to a deal (Diplomat) proposes: a card from or to a main player, maybe a base."""
    me = prompt["player"]
    blank = {"named": [], "count": 0}
    part = {"gets": {s: dict(blank) for s in ("offense", "defense")},
            "gives": {s: dict(blank) for s in ("offense", "defense")}, "base": None}
    side = rng.choice(["offense", "defense"])
    if hand(state, me) and rng.random() < 0.5:
        part["gives"][side]["count"] = 1
    elif hand(state, main_player(state, side)):
        part["gets"][side]["count"] = 1
    shareable = sorted({p for s in ("offense", "defense") for p in bases(state, main_player(state, s))
                        if state["planets"][p].get(me, 0) == 0})
    if shareable and (rng.random() < 0.3 or not any(part[k][side]["count"] for k in ("gets", "gives"))):
        part["base"] = rng.choice(shareable)
    return {"cards": {"offense": dict(blank), "defense": dict(blank)}, "bases": {"offense": None, "defense": None},
            "third": part}


def heuristic_command(state: dict, prompt: dict, rng) -> dict:
    """A simple player a person can lose to: strong cards, sensible launches, greedy alliances."""
    kind = prompt["kind"]
    options = prompt["options"]
    chooser = _HEURISTICS.get(kind)
    if chooser is not None:
        picked = chooser(state, prompt, rng)
        if picked is not None:
            picked.update(player=prompt["player"], prompt=prompt["id"])
            return picked
    if any(o["action"] == "pass" for o in options) and rng.random() < 0.75:
        return {"action": "pass", "args": {}, "player": prompt["player"], "prompt": prompt["id"]}
    return random_command(state, prompt, rng)


def _strongest_card(state, prompt, rng):
    opt = prompt["options"][0]
    values = opt["args"]["card"]["values"]
    attacks = sorted((cards.attack_value(c) or 0, c) for c in values if cards.kind(c) == "attack")
    compromises = [c for c in values if cards.kind(c) == "compromise"]
    if attacks and (attacks[-1][0] >= 8 or not compromises):
        pick = attacks[-1][1] if rng.random() < 0.7 else attacks[len(attacks) // 2][1]
    else:
        pick = rng.choice(values)
    return {"action": "play", "args": {"card": pick}}


def _launch_four(state, prompt, rng):
    opt = prompt["options"][0]["args"]
    sources = dict(opt["tokens"]["sources"])
    want, taken = opt["tokens"]["max"], {}
    for planet in sorted(sources, key=lambda p: -sources[p]):
        spare = sources[planet] - 1 if len(taken) or sources[planet] > 1 else sources[planet]
        take = min(want, max(0, spare))
        if take:
            taken[planet] = take
            want -= take
    if sum(taken.values()) < opt["tokens"]["min"]:
        return None
    planets = opt["planet"]["values"]
    target = min(planets, key=lambda p: (sum(state["planets"][p].values()), p))
    return {"action": "launch", "args": {"tokens": taken, "planet": target}}


def _invite_all(state, prompt, rng):
    values = prompt["options"][0]["args"]["players"]["values"]
    return {"action": "invite", "args": {"players": [v for v in values if rng.random() < 0.6]}}


def _join_offense(state, prompt, rng):
    joins = [o for o in prompt["options"] if o["action"] == "join"]
    if not joins or rng.random() < 0.3:
        return {"action": "decline", "args": {}}
    opt = next((o for o in joins if o.get("side") == "offense"), joins[0])
    shape = opt["args"]["tokens"]
    biggest = max(shape["sources"], key=lambda p: shape["sources"][p])
    count = max(shape["min"], min(2, shape["max"], shape["sources"][biggest]))
    if count > shape["sources"][biggest]:
        return None
    return {"action": "join", "side": opt["side"], "args": {"tokens": {biggest: count}}}


_HEURISTICS = {"challenge_card": _strongest_card, "launch": _launch_four, "invite": _invite_all,
               "alliance": _join_offense}
