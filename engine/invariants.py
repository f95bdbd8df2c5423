"""What must hold after every event of every game (checked by the simulator and the tests)."""

from __future__ import annotations

from engine import flow
from engine.powers.tick_tock import KEY, SHEET, START
from engine.state import TOKENS_PER_PLAYER, system_of
from engine.winning import claims


def card_places(state: dict) -> list[str]:
    """Every challenge-deck card wherever it is: deck, discards, hands (hoards, cards kept aside), table,
    committed, aside, citadels beside planets."""
    found = list(state["deck"]) + list(state["discard"]) + list(state["table"]) + list(state["aside"])
    for beside in (state.get("citadels") or {}).values():
        found += beside
    for side in ("offense", "defense"):
        found += state["committed"][side]
    for player in state["players"].values():
        found += player["hand"] + player.get("hoard", []) + player.get("kept", [])
    return found


def violations(state: dict, deck_cards: list[str] | None = None, destiny_cards: list[str] | None = None) -> list[str]:
    """Every broken invariant, described; empty when all is well."""
    if state.get("status") not in ("playing", "finished"):
        return []
    problems = token_problems(state)
    held = card_places(state)
    distinct = set(held)
    if len(distinct) != len(held):
        duplicated = sorted({c for c in held if held.count(c) > 1})
        problems.append(f"cards in two places at once: {duplicated[:3]}")
    # (every card id is one physical card: the same ones, none twice, is the same cards)
    if deck_cards is not None and (len(held) != len(deck_cards) or distinct != set(deck_cards)):
        missing = sorted(set(deck_cards) - distinct)
        extra = sorted(distinct - set(deck_cards))
        problems.append(f"cards not conserved: missing {missing[:3]}, extra {extra[:3]}")
    if destiny_cards is not None:
        pile = sorted(state["destiny"] + state["destiny_discard"])
        if pile != sorted(destiny_cards):
            problems.append("destiny cards not conserved")
    problems += track_violations(state)
    if state["status"] == "playing" and not flow.owed(state):
        problems.append("nobody owes a decision but the game has not ended")
    return problems


def token_problems(state: dict) -> list[str]:
    """Every player's 20 tokens accounted for, no negative count anywhere, and the base counts `evolve`
    keeps equal to what the planets show: in one pass over the places (checked after every command)."""
    order = state["order"]
    totals = dict.fromkeys(order, 0)
    counted = {color: [0, 0] for color in order}  # home bases, external bases
    negatives = []
    for planet, tokens in state["planets"].items():
        system = system_of(planet)
        for color, n in tokens.items():
            totals[color] = totals.get(color, 0) + n
            if n > 0 and color in counted:
                counted[color][0 if system == color else 1] += 1
        negative = [c for c, n in tokens.items() if n < 0]
        if negative:
            negatives.append(f"{planet} holds a negative count of {negative[0]} tokens")
    elsewhere = [("warp", state["warp"]), ("removed", state["removed"])] + \
        [(f"cone:{side}", tokens) for side, tokens in state["cone"].items()]
    for place, tokens in elsewhere:
        for color, n in tokens.items():
            totals[color] = totals.get(color, 0) + n
        negative = [c for c, n in tokens.items() if n < 0]
        if negative:
            negatives.append(f"{place} holds a negative count of {negative[0]} tokens")
    for section in state["fan"].values():
        for color, n in section.items():
            totals[color] = totals.get(color, 0) + n
    problems = [f"{color} has {totals[color]} tokens, not {TOKENS_PER_PLAYER}" for color in order
                if totals[color] != TOKENS_PER_PLAYER]
    problems += negatives
    for color in order:
        kept = (state["home_bases"][color], state["external_bases"][color])
        if tuple(counted[color]) != kept:
            problems.append(f"{color}'s base counts are {kept} (home, external), but the planets show "
                            f"{tuple(counted[color])}")
    return problems


def track_violations(state: dict) -> list[str]:
    """Tokens a power keeps on its sheet (Tick-Tock's track): from 1 to its start while the game goes on
    (the last one removed claims the win, which ends the game at the next boundary), never below 0."""
    left = (state.get("notes") or {}).get(SHEET, {}).get(KEY)
    if left is None:
        return []
    low = 1 if state["status"] == "playing" and not claims(state) else 0
    return [] if low <= left <= START else [f"Tick-Tock's track holds {left} tokens"]
