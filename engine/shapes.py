"""Shapes of the arguments a decision takes: listed to clients, checked on commands, drawn at random.

A prompt option says ``{"action": "launch", "args": {"tokens": <shape>, "planet": <shape>}}``.
The same shape is used to tell a client what is legal, to check a command (`check`) and to
draw a random legal value (`random_value`), so the three cannot disagree.

Shapes (JSON):
- ``{"type": "choice", "values": [...]}``: one of the values.
- ``{"type": "subset", "values": [...], "min": a, "max": b}``: distinct values, a to b of them.
- ``{"type": "count", "min": a, "max": b}``: a whole number.
- ``{"type": "distribution", "sources": {key: cap}, "min": a, "max": b}``: ``{key: n}`` with
  each n from 1 to its cap and the total from a to b.
- ``{"type": "sequence", "values": [...], "min": a, "max": b}``: a list of a to b values, repeats allowed.
- ``{"type": "free", "schema": name}``: structured terms checked by the decision itself (deals).
Any shape with ``"optional": true`` may be omitted or null.
"""

from __future__ import annotations

from engine.errors import CommandError, RulesError


def choice(values, *, optional: bool = False) -> dict:
    """Exactly one of ``values``."""
    return _opt({"type": "choice", "values": list(values)}, optional)


def subset(values, low: int = 0, high: int | None = None, *, optional: bool = False) -> dict:
    """Between ``low`` and ``high`` distinct values."""
    values = list(values)
    return _opt({"type": "subset", "values": values, "min": low,
                 "max": len(values) if high is None else min(high, len(values))}, optional)


def count(low: int, high: int, *, optional: bool = False) -> dict:
    """A whole number from ``low`` to ``high``."""
    return _opt({"type": "count", "min": low, "max": high}, optional)


def distribution(sources: dict, low: int, high: int, *, optional: bool = False) -> dict:
    """Counts drawn from capped sources, with a total from ``low`` to ``high``."""
    caps = {k: v for k, v in sources.items() if v > 0}
    return _opt({"type": "distribution", "sources": caps, "min": low,
                 "max": min(high, sum(caps.values()))}, optional)


def sequence(values, low: int, high: int, *, optional: bool = False) -> dict:
    """A list of ``low`` to ``high`` values from ``values``, repeats allowed."""
    return _opt({"type": "sequence", "values": list(values), "min": low, "max": high}, optional)


def free(schema: str, *, optional: bool = False) -> dict:
    """Structured arguments checked by the decision that asks for them."""
    return _opt({"type": "free", "schema": schema}, optional)


def _opt(shape: dict, optional: bool) -> dict:
    if optional:
        shape["optional"] = True
    return shape


def satisfiable(shape: dict) -> bool:
    """Whether some legal value exists (an option with no legal value must not be offered)."""
    kind = shape["type"]
    if shape.get("optional"):
        return True
    if kind == "choice":
        return bool(shape["values"])
    if kind in ("subset", "sequence"):
        return shape["min"] <= shape["max"] and (shape["min"] == 0 or bool(shape["values"]))
    if kind == "count":
        return shape["min"] <= shape["max"]
    if kind == "distribution":
        return shape["min"] <= shape["max"]
    return True


def check(shape: dict, value, field: str, rule: str):
    """The value, checked against its shape: CommandError when malformed, RulesError when illegal."""
    if value is None:
        if shape.get("optional"):
            return None
        raise CommandError(f"{field} is required", field)
    kind = shape["type"]
    if kind == "choice":
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            raise CommandError(f"{field} must be one value", field)
        if value not in shape["values"]:
            raise RulesError(rule, f"{field} {value!r} is not a legal choice here; legal: {_listing(shape['values'])}")
        return value
    if kind == "count":
        if not isinstance(value, int) or isinstance(value, bool):
            raise CommandError(f"{field} must be a whole number", field)
        if not shape["min"] <= value <= shape["max"]:
            raise RulesError(rule, f"{field} must be from {shape['min']} to {shape['max']}, not {value}")
        return value
    if kind in ("subset", "sequence"):
        if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
            raise CommandError(f"{field} must be a list", field)
        if kind == "subset" and len(set(value)) != len(value):
            raise RulesError(rule, f"{field} names something twice")
        bad = [v for v in value if v not in shape["values"]]
        if bad:
            raise RulesError(rule, f"{field}: {bad[0]!r} is not a legal choice here; legal: {_listing(shape['values'])}")
        if not shape["min"] <= len(value) <= shape["max"]:
            raise RulesError(rule, f"{field} must name {shape['min']} to {shape['max']}, not {len(value)}")
        return list(value)
    if kind == "distribution":
        if not isinstance(value, dict) or not all(isinstance(n, int) and not isinstance(n, bool)
                                                  for n in value.values()):
            raise CommandError(f"{field} must map places to whole numbers", field)
        value = {k: n for k, n in value.items() if n != 0}
        for key, n in value.items():
            if n < 0:
                raise CommandError(f"{field}: the count for {key!r} must not be negative, not {n}", field)
            if key not in shape["sources"]:
                raise RulesError(rule, f"{field}: {key!r} is not one of the places offered; possible: "
                                       f"{_listing(shape['sources'])}")
            if n > shape["sources"][key]:
                raise RulesError(rule, f"{field}: {n} for {key!r} is more than the {shape['sources'][key]} it allows")
        total = sum(value.values())
        if not shape["min"] <= total <= shape["max"]:
            raise RulesError(rule, f"{field} must total {_range(shape)}, not {total}")
        return value
    if kind == "free":
        if not isinstance(value, dict):
            raise CommandError(f"{field} must be an object", field)
        return value
    raise CommandError(f"{field} has an unknown shape", field)


def random_value(shape: dict, rng):
    """A random legal value of a shape (free shapes are the decision's to draw)."""
    kind = shape["type"]
    if shape.get("optional") and rng.random() < 0.5:
        return None
    if kind == "choice":
        return rng.choice(shape["values"])
    if kind == "count":
        return rng.randint(shape["min"], shape["max"])
    if kind == "subset":
        size = rng.randint(shape["min"], shape["max"])
        return rng.sample(shape["values"], size)
    if kind == "sequence":
        size = rng.randint(shape["min"], shape["max"])
        return [rng.choice(shape["values"]) for _ in range(size)]
    if kind == "distribution":
        total = rng.randint(shape["min"], shape["max"])
        pool = [k for k, cap in shape["sources"].items() for _ in range(cap)]
        picked = rng.sample(pool, total)
        result: dict = {}
        for key in picked:
            result[key] = result.get(key, 0) + 1
        return result
    return None


def _range(shape: dict) -> str:
    return str(shape["min"]) if shape["min"] == shape["max"] else f"{shape['min']} to {shape['max']}"


def _listing(values) -> str:
    values = list(values)
    shown = ", ".join(str(v) for v in values[:12])
    return shown + (", ..." if len(values) > 12 else "") if values else "nothing"
