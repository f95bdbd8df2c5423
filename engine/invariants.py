"""What must hold after every event of every game (checked by the simulator and the tests)."""

from __future__ import annotations

from engine import flow
from engine.powers.tick_tock import KEY, SHEET, START
from engine.state import TOKENS_PER_PLAYER, external_bases, home_bases, token_count
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
    problems = []
    for color in state["order"]:
        total = token_count(state, color)
        if total != TOKENS_PER_PLAYER:
            problems.append(f"{color} has {total} tokens, not {TOKENS_PER_PLAYER}")
    for place, tokens in list(state["planets"].items()) + [("warp", state["warp"]), ("removed", state["removed"])] + \
            [(f"cone:{s}", t) for s, t in state["cone"].items()]:
        negative = [c for c, n in tokens.items() if n < 0]
        if negative:
            problems.append(f"{place} holds a negative count of {negative[0]} tokens")
    for color in state["order"]:
        counted = (len(home_bases(state, color)), len(external_bases(state, color)))
        kept = (state["home_bases"][color], state["external_bases"][color])
        if counted != kept:
            problems.append(f"{color}'s base counts are {kept} (home, external), but the planets show {counted}")
    held = card_places(state)
    if len(set(held)) != len(held):
        duplicated = sorted({c for c in held if held.count(c) > 1})
        problems.append(f"cards in two places at once: {duplicated[:3]}")
    if deck_cards is not None and sorted(held) != sorted(deck_cards):
        missing = sorted(set(deck_cards) - set(held))
        extra = sorted(set(held) - set(deck_cards))
        problems.append(f"cards not conserved: missing {missing[:3]}, extra {extra[:3]}")
    if destiny_cards is not None:
        pile = sorted(state["destiny"] + state["destiny_discard"])
        if pile != sorted(destiny_cards):
            problems.append("destiny cards not conserved")
    problems += track_violations(state)
    if state["status"] == "playing" and not flow.owed(state):
        problems.append("nobody owes a decision but the game has not ended")
    return problems


def track_violations(state: dict) -> list[str]:
    """Tokens a power keeps on its sheet (Tick-Tock's track): from 1 to its start while the game goes on
    (the last one removed claims the win, which ends the game at the next boundary), never below 0."""
    left = (state.get("notes") or {}).get(SHEET, {}).get(KEY)
    if left is None:
        return []
    low = 1 if state["status"] == "playing" and not claims(state) else 0
    return [] if low <= left <= START else [f"Tick-Tock's track holds {left} tokens"]
