"""How good a game state is for one player: the expert's evaluation of the end of a rollout.

A player's standing (`standing`) counts, in points:

- a win: 100, shared among the winners (a joint win is worth less than a win alone, and far
  more than a loss);
- foreign colonies (external bases): 10 each, the road to the five that win;
- home colonies: 1.5 each, and 4 more while the player keeps its power (3 home colonies, 4 with
  the honeymoon);
- ships in play (on planets or in the gate, not in the warp nor removed): 0.35 each;
- cards in hand: 0.6 each, an attack card more by its value (up to 0.5 more for a 40) and a
  card other than attacks and negotiates (a flare, an artifact, a reinforcement) 0.3 more.

The value of a state for ``me`` is its standing less what the others stand: half the best
other's and half their mean, so it pays to keep the leader back as well as to get ahead.
The weights were set by playing the expert against the heuristic bots (docs/bots.md).
"""

from __future__ import annotations

from engine import cards

WIN = 100.0
FOREIGN = 10.0
HOME = 1.5
POWER_KEPT = 4.0
SHIP = 0.35
CARD = 0.6
CARD_VALUE = 0.5 / 40   # an attack card's value, per point
SPECIAL_CARD = 0.3      # a card that is neither an attack nor a negotiate
LEADER_SHARE = 0.5      # the value subtracts this share of the best other's standing (the rest: their mean)

TOKENS = 20


def card_worth(card_id) -> float:
    """What one card in hand is worth (a placeholder or an unknown card: a plain card)."""
    if not isinstance(card_id, str):
        return CARD
    try:
        kind = cards.kind(card_id)
    except (KeyError, ValueError):
        return CARD
    if kind == "attack":
        return CARD + CARD_VALUE * (cards.attack_value(card_id) or 0)
    if kind in ("compromise", "negotiate"):
        return CARD
    return CARD + SPECIAL_CARD


def standing(state: dict, color: str) -> float:
    """One player's standing in points (see the module)."""
    winners = state.get("winners") or []
    points = WIN / len(winners) if color in winners else 0.0
    points += FOREIGN * state["external_bases"][color]
    home = state["home_bases"][color]
    points += HOME * home
    threshold = 4 if state["options"].get("honeymoon") else 3
    if home >= threshold:
        points += POWER_KEPT
    points += SHIP * (TOKENS - state["warp"].get(color, 0) - state["removed"].get(color, 0))
    points += sum(card_worth(c) for c in state["players"][color]["hand"])
    return points


def value(state: dict, me: str) -> float:
    """The state's value for ``me``: its standing less half the best other's and half the others' mean."""
    mine = standing(state, me)
    others = [standing(state, c) for c in state["order"] if c != me]
    if not others:
        return mine
    return mine - LEADER_SHARE * max(others) - (1 - LEADER_SHARE) * sum(others) / len(others)


def values(state: dict) -> dict[str, float]:
    """Every player's value (`value`) at once."""
    standings = {c: standing(state, c) for c in state["order"]}
    out = {}
    for me, mine in standings.items():
        others = [s for c, s in standings.items() if c != me]
        out[me] = mine - LEADER_SHARE * max(others) - (1 - LEADER_SHARE) * sum(others) / len(others) if others \
            else mine
    return out
