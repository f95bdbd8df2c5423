"""The shape of a game's state and the questions the rules ask of it.

State is a tree of plain JSON values (dicts keyed by strings, lists, numbers, strings,
booleans, None) so that it can be cloned cheaply, stored as a snapshot and compared bit for
bit after a replay. Only `engine.evolve` changes it.

Places of things:
- ``planets``: ``{"red-0": {"red": 4, "blue": 1}, ...}``, five per colour in play.
- tokens elsewhere: ``warp`` and ``removed`` (``{colour: n}``), ``cone`` (``{"offense": {colour: n},
  "defense": {colour: n}}``), ``fan`` (reverse warp: ``{section: {colour: n}}``).
- cards: ``deck`` (top is the last element), ``discard``, each player's ``hand``, ``table``
  (face-up cards in play this challenge), ``committed`` (face-down challenge cards by side),
  ``destiny`` / ``destiny_discard`` / ``aside``.
"""

from __future__ import annotations

import marshal
from functools import lru_cache

from engine import cards
from engine.memo import FORCES, while_unchanged
from engine.registry import POWERS

PLANETS_PER_SYSTEM = 5
TOKENS_PER_PLAYER = 20
SIDES = ("offense", "defense")


def empty() -> dict:
    """The state of a game that does not exist yet (version 0)."""
    return {"v": 0, "status": "none"}


def clone(state: dict) -> dict:
    """A deep copy of a state (JSON-native values only), fast enough to take per command."""
    return marshal.loads(marshal.dumps(state))


# Places -------------------------------------------------------------------------------------

def planet_id(color: str, index: int) -> str:
    """The id of planet ``index`` (0-4) of ``color``'s home system."""
    return f"{color}-{index}"


def system_of(planet: str) -> str:
    """The colour whose home system holds a planet."""
    return planet.rsplit("-", 1)[0]


_HOME_PLANETS: dict[str, tuple[str, ...]] = {}


def home_planets(state: dict, color: str) -> list[str]:
    """The five planets of a player's home system."""
    return list(_home_planets(color))


def _home_planets(color: str) -> tuple[str, ...]:
    known = _HOME_PLANETS.get(color)
    if known is None:
        known = _HOME_PLANETS[color] = tuple(planet_id(color, i) for i in range(PLANETS_PER_SYSTEM))
    return known


def tokens_on(state: dict, planet: str, color: str) -> int:
    """How many of ``color``'s tokens are on a planet."""
    return state["planets"][planet].get(color, 0)


def bases(state: dict, color: str) -> list[str]:
    """Every planet holding at least one of ``color``'s tokens: home system first, then clockwise."""
    return [p for p, tokens in state["planets"].items() if color in tokens and tokens[color] > 0]


def home_base_count(state: dict, color: str) -> int:
    """How many home bases a player has (kept by `evolve` with every token movement)."""
    return state["home_bases"][color]


def external_base_count(state: dict, color: str) -> int:
    """How many external bases a player has (kept by `evolve` with every token movement)."""
    return state["external_bases"][color]


def home_bases(state: dict, color: str) -> list[str]:
    """The planets of its own system where a player has a base."""
    planets = state["planets"]
    return [p for p in _home_planets(color) if planets[p].get(color, 0) > 0]


def external_bases(state: dict, color: str) -> list[str]:
    """The planets of other players' systems where a player has a base."""
    return [p for p, tokens in state["planets"].items()
            if tokens.get(color, 0) > 0 and system_of(p) != color]


def empty_home_planets(state: dict, color: str) -> list[str]:
    """Home planets holding no tokens of any colour (RULES.md 4, stage 2 (c))."""
    return [p for p in home_planets(state, color) if not any(state["planets"][p].values())]


def tokens_on_bases(state: dict, color: str) -> dict[str, int]:
    """``{planet: n}`` for every base of ``color``: where it could take tokens from."""
    return {p: tokens[color] for p, tokens in state["planets"].items() if color in tokens and tokens[color] > 0}


def warp_count(state: dict, color: str) -> int:
    """How many of ``color``'s tokens are in the warp."""
    return state["warp"].get(color, 0)


def cone_tokens(state: dict, side: str, color: str | None = None):
    """Tokens on one side of the cone: a dict by colour, or one colour's count."""
    side_tokens = state["cone"][side]
    return side_tokens if color is None else side_tokens.get(color, 0)


def token_count(state: dict, color: str) -> int:
    """Every token of a colour wherever it is: must always be 20 (RULES.md 2)."""
    total = sum(t.get(color, 0) for t in state["planets"].values())
    total += state["warp"].get(color, 0) + state["removed"].get(color, 0)
    total += sum(side.get(color, 0) for side in state["cone"].values())
    total += sum(section.get(color, 0) for section in state["fan"].values())
    return total


# Players ----------------------------------------------------------------------------------

def order(state: dict) -> list[str]:
    """The players' colours in seat (clockwise) order."""
    return state["order"]


def left_of(state: dict, color: str) -> str:
    """The player to the left (next clockwise)."""
    seats = state["order"]
    return seats[(seats.index(color) + 1) % len(seats)]


def clockwise_from_left(state: dict, color: str) -> list[str]:
    """Every other player, starting at ``color``'s left and going clockwise."""
    seats = state["order"]
    start = seats.index(color)
    return seats[start + 1:] + seats[:start]


def hand(state: dict, color: str) -> list[str]:
    """A player's hand (card ids)."""
    return state["players"][color]["hand"]


def challenge_cards(state: dict, color: str) -> list[str]:
    """The challenge cards (Attack, Compromise, War) in a player's hand."""
    return [c for c in state["players"][color]["hand"] if cards.is_challenge_card(c)]


def holds_challenge_card(state: dict, color: str) -> bool:
    """Whether a player holds at least one challenge card."""
    return any(map(cards.is_challenge_card, state["players"][color]["hand"]))


def powers_of(state: dict, color: str) -> list[str]:
    """The names of a player's powers."""
    return state["players"][color]["powers"]


def power_threshold(state: dict) -> int:
    """Home bases needed to keep one's power: 3, or 4 with honeymoon."""
    return 4 if state["options"].get("honeymoon") else 3


def has_lost_power(state: dict, color: str) -> bool:
    """Fewer home bases than the threshold switches every power of the player off (but those that say
    otherwise: `active_powers`)."""
    return state["home_bases"][color] < power_threshold(state)


def power_active(state: dict, color: str, power: str) -> bool:
    """Whether a player's power works now: held, not lost to power loss, not zapped this challenge."""
    return (color, power) in active_powers(state)


@while_unchanged(FORCES)
def active_powers(state: dict) -> frozenset[tuple[str, str]]:
    """``(colour, power)`` for every power that works now: held, not lost to power loss (`has_lost_power`),
    not zapped this challenge. Asked at every step of the rules: kept tight."""
    home_bases, threshold = state["home_bases"], power_threshold(state)
    ch = state.get("ch")
    zapped = ch["zapped"] if ch else ()
    active = []
    for color, player in state["players"].items():
        names = player["powers"]
        if not names:
            continue
        if home_bases[color] < threshold:
            # a power may say it is not lost for want of home bases (Masochist); the others are
            names = [n for n in names if getattr(POWERS.get(n), "kept_without_home_bases", False)]
        for name in names:
            if not zapped or f"{color}:{name}" not in zapped:
                active.append((color, name))
    return frozenset(active)


# The challenge -----------------------------------------------------------------------------

def offense(state: dict) -> str | None:
    """The player whose turn it is."""
    turn = state.get("turn")
    return turn["offense"] if turn else None


def defense(state: dict) -> str | None:
    """The defensive main player of the current challenge, once determined."""
    ch = state.get("ch")
    return ch["defense"] if ch else None


def main_player(state: dict, side: str) -> str | None:
    """The main player of a side."""
    return offense(state) if side == "offense" else defense(state)


def side_of_main(state: dict, color: str) -> str | None:
    """``offense``/``defense`` if the player is a main player, else None."""
    if color == offense(state):
        return "offense"
    if color == defense(state):
        return "defense"
    return None


def ally_side(state: dict, color: str) -> str | None:
    """The side a player is allied with in this challenge, or None."""
    ch = state.get("ch")
    return ch["allies"].get(color) if ch else None


def side_of(state: dict, color: str) -> str | None:
    """The side a player is on as main player or ally, or None."""
    return side_of_main(state, color) or ally_side(state, color)


def allies(state: dict, side: str) -> list[str]:
    """The allies of a side, in the order they joined."""
    ch = state.get("ch")
    return [c for c, s in ch["allies"].items() if s == side] if ch else []


def opponent_side(side: str) -> str:
    """The other side."""
    return "defense" if side == "offense" else "offense"


def involved(state: dict) -> list[str]:
    """Main players and allies of the current challenge."""
    ch = state.get("ch")
    if not ch:
        return []
    return [c for c in (offense(state), defense(state)) if c] + list(ch["allies"])


@while_unchanged(FORCES)  # (who the main players are is part of what `FORCES` watches)
def timing_order(state: dict) -> tuple[str, ...]:
    """RULES.md 5: non-main players clockwise from the offense's left, then the offense, then the defense."""
    turn, ch = state.get("turn"), state.get("ch")
    return _timing_order(tuple(state["order"]), turn["offense"] if turn else None, ch["defense"] if ch else None)


@lru_cache(maxsize=1024)
def _timing_order(seats: tuple[str, ...], off: str | None, dfn: str | None) -> tuple[str, ...]:
    if off is None:
        return seats
    start = seats.index(off)
    others = [seats[(start + k) % len(seats)] for k in range(1, len(seats))]
    return tuple(c for c in others if c != dfn) + (off,) + ((dfn,) if dfn else ())


def tokens_in_challenge(state: dict, side: str, color: str) -> int:
    """A player's tokens taking part on a side: cone tokens, plus the defense's tokens on the target."""
    count = state["cone"][side].get(color, 0)
    ch = state["ch"]
    if side == "defense" and color == ch["defense"] and ch["planet"]:
        count += state["planets"][ch["planet"]].get(color, 0)
    return count


def side_tokens(state: dict, side: str) -> dict[str, int]:
    """Every colour's tokens taking part on a side."""
    counts = dict(state["cone"][side])
    ch = state["ch"]
    if side == "defense" and ch["defense"] and ch["planet"]:
        on_planet = state["planets"][ch["planet"]].get(ch["defense"], 0)
        if on_planet:
            counts[ch["defense"]] = counts.get(ch["defense"], 0) + on_planet
    return counts


def has_effect(state: dict, source: str, player: str) -> bool:
    """Whether ``player`` put the lasting effect ``source`` (a flare, say) in force this challenge."""
    ch = state.get("ch")
    if ch:
        for effect in ch["effects"]:
            if effect["source"] == source and effect["player"] == player:
                return True
    return False


def committed_card(state: dict, side: str) -> str | None:
    """The (first) challenge card a main player has committed face down."""
    committed = state["committed"][side]
    return committed[0] if committed else None


def committed_challenge_cards(state: dict, side: str) -> list[str]:
    """The challenge cards a side has committed (normally one)."""
    return [c for c in state["committed"][side] if cards.is_challenge_card(c)]


def cards_committed(state: dict) -> bool:
    """Whether both main players have a challenge card face down (or revealed)."""
    return all(committed_challenge_cards(state, side) for side in SIDES)


def declaration_open(state: dict, note: str) -> bool:
    """Whether a once-per-challenge declaration (the challenge note ``note``) may be made now.

    Both challenge cards are committed and not yet revealed, and nobody has declared it yet
    (Calculator's equalizer, Mirror's reversal, Loser's upset).
    """
    ch = state["ch"]
    return cards_committed(state) and not ch["revealed"] and note not in ch["notes"]
