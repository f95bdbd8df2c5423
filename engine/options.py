"""Rulesets and game options (RULES.md section 1): defaults, types and validation.

A game's options are fixed in its first event; `resolve` fills in defaults and refuses
anything unknown or out of range, naming the option.
"""

from __future__ import annotations

from engine import rulesets
from engine.errors import RulesError
from engine.rulesets import ALL_COLORS, MAYFAIR_COLORS  # noqa: F401  (colours are the editions')

RULESETS = tuple(rulesets.RULESETS)

# name: (type, default, allowed values or (min, max) for ints, meaning)
OPTIONS: dict[str, tuple[type, object, object, str]] = {
    "simplified": (bool, False, None, "powers only from Chronos, Filch, Laser, Macron, Mind, Mutant; no flares; no reverse cone"),
    "reverse_cone": (bool, True, None, "reverse destiny cards are in the destiny deck"),
    "flares": (bool, True, None, "flares are shuffled into the challenge deck"),
    "edicts": (bool, True, None, "edicts are in the challenge deck"),
    "reinforcements": (bool, True, None, "reinforcement cards are in the challenge deck"),
    "special_destiny": (bool, False, None, "instructional destiny cards are added"),
    "war_cards": (bool, False, None, "War cards join the deck; Hawk and Peacenik join the powers"),
    "kickers": (bool, False, None, "kicker cards are played with challenge cards"),
    "honeymoon": (bool, False, None, "two players: no destiny pile; power lost below 4 home bases"),
    "punt": (bool, False, None, "the offense may discard and redraw instead of taking a turn"),
    "powers_per_player": (int, 1, (1, 2), "powers dealt to each player, all in force"),
    "reverse_warp": (bool, False, None, "lost tokens pass through the fan before the warp"),
    "deal_seconds": (int, 60, (5, 86400), "seconds the main players have to make a deal"),
    "decision_seconds": (int, None, (5, 30 * 86400), "seconds any decision may wait before its default applies"),
    "power_pool": (list, None, None, "restrict the powers dealt to these names (default: every power the options allow)"),
    "hand_over_after": (dict, None, (1, 100), "a seat whose player lets this many decisions in a row run out of time "
                                               "is handed to a bot: {\"missed\": N, \"level\": a bot level}"),
}
# Options recorded in a game's options only when set: a game without them is recorded as before they existed.
RECORDED_WHEN_SET = ("hand_over_after",)

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # over every edition (each has its own range: engine.rulesets)


def resolve(ruleset: str, options: dict | None, seats: int) -> dict:
    """Validated options with defaults filled in; raises RulesError naming what is wrong.

    An option that makes no sense in the edition (RULES.md 9: ``punt`` under ``ffg``, say) is
    refused when asked for, naming the option and the edition, and held at the edition's value.
    """
    if ruleset not in RULESETS:
        raise RulesError("1", f"unknown ruleset {ruleset!r}; available: {', '.join(RULESETS)}")
    edition = rulesets.get(ruleset)
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesError("1", f"unknown option {unknown[0]!r}; known options: {', '.join(sorted(OPTIONS))}")
    refused = sorted(set(options) & set(edition.fixed_options))
    if refused:
        raise RulesError("1", f"option {refused[0]} is not part of the {ruleset} ruleset; its options: "
                              f"{', '.join(sorted(set(OPTIONS) - set(edition.fixed_options)))}")
    resolved = {}
    for name, (kind, default, allowed, _meaning) in OPTIONS.items():
        value = options.get(name, edition.fixed_options.get(name, default))
        if value is None and default is not None:  # null is "none" only for an option off by default
            raise RulesError("1", f"option {name} needs a value (default {default!r}), not null")
        if value is None and name in RECORDED_WHEN_SET:
            continue
        resolved[name] = _checked(name, kind, value, allowed)
    low, high = edition.min_players, edition.max_players
    if not isinstance(seats, int) or isinstance(seats, bool) or not low <= seats <= high:
        raise RulesError("1", f"a {ruleset} game has {low} to {high} players, not {seats!r}")
    # 000 offers the honeymoon to two players ("you may wish"); without it they use the destiny pile
    if resolved["honeymoon"] and seats != 2:
        raise RulesError("1", "the honeymoon option is for two-player games only")
    if seats == 2 and ruleset == "ffg" and not resolved["honeymoon"]:  # 003 is a game of 3 to 5 players
        raise RulesError("1", "a two-player ffg game is played with the honeymoon option (honeymoon: true)")
    if resolved["simplified"]:
        resolved["flares"] = False
        resolved["reverse_cone"] = False
    return resolved


def _checked(name: str, kind: type, value, allowed):
    """One option's value, type- and range-checked."""
    if value is None and kind is not bool:
        return None
    if kind is bool:
        if not isinstance(value, bool):
            raise RulesError("1", f"option {name} must be true or false, not {value!r}")
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError("1", f"option {name} must be a whole number, not {value!r}")
        low, high = allowed
        if not low <= value <= high:
            raise RulesError("1", f"option {name} must be between {low} and {high}, not {value}")
        return value
    if name == "hand_over_after":
        return _hand_over_after(value, allowed)
    if kind is list:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RulesError("1", f"option {name} must be a list of names, not {value!r}")
        return list(value)
    return value


def describe(ruleset: str | None = None) -> list[dict]:
    """The options, their defaults and meanings, for clients and the README (of one edition, if named)."""
    fixed = rulesets.get(ruleset).fixed_options if ruleset else {}
    return [{"name": name, "type": kind.__name__, "default": default, "meaning": meaning}
            for name, (kind, default, _allowed, meaning) in OPTIONS.items() if name not in fixed]


def _hand_over_after(value, allowed) -> dict:
    """``hand_over_after``: ``{"missed": N, "level": L}``, N decisions missed in a row, L a bot level (engine.levels)."""
    from engine.levels import LEVELS, listed

    if not isinstance(value, dict) or set(value) != {"missed", "level"}:
        raise RulesError("1", f"option hand_over_after is {{\"missed\": N, \"level\": L}}, not {value!r}")
    missed, level = value["missed"], value["level"]
    low, high = allowed
    if not isinstance(missed, int) or isinstance(missed, bool) or not low <= missed <= high:
        raise RulesError("1", f"option hand_over_after.missed must be a whole number from {low} to {high}, "
                              f"not {missed!r}")
    if not isinstance(level, str) or level not in LEVELS:
        raise RulesError("1", f"option hand_over_after.level must be a bot level ({listed()}), not {level!r}")
    return {"missed": missed, "level": level}
