"""What each viewer may see of a game's state: the public board, one player's hand and prompts.

The board is built from an explicit list of public parts of the state (never by removing
secret parts from a copy), so a field the engine adds later stays private until someone
decides it is public. Secret parts: every hand (and hoard), the order of the decks, face-down
challenge cards, cards set aside, the seed and the scenario setup, the agenda.

Every view returns new JSON-ready values; the state passed in is never changed.
"""

from __future__ import annotations

import engine
from engine.state import clone
from projections.words import speak, terms, title, told

GAME_FIELDS = ("game_id", "status", "ruleset", "options", "seats", "created", "time", "order", "winners",
               "first_player")
TABLE_FIELDS = ("planets", "warp", "removed", "fan", "fan_section", "cone", "discard", "destiny_discard", "table",
                "turn", "record", "notes")


def _copy(value):
    return clone(value) if isinstance(value, (dict, list)) else value


def players(state: dict) -> dict:
    """Each seat's public facts: name, bot, powers and hand size (and, for a player holding a hoard, the
    number of cards in it: Miser's hoard is face down, its size is not secret)."""
    return {color: _seat(seat) for color, seat in (state.get("players") or {}).items()}


def _seat(seat: dict) -> dict:
    public = {"name": seat["name"], "bot": seat.get("bot"), "powers": list(seat.get("powers") or []),
              "hand_size": len(seat.get("hand") or [])}
    if seat.get("handed_over"):  # a person's seat a bot plays now (engine/seats.py): why
        public["handed_over"] = seat["handed_over"]
    if "hoard" in seat:
        public["hoard_size"] = len(seat["hoard"])
    if seat.get("kept"):  # cards set aside face down through a new hand or compensation (Miser's Wild)
        public["set_aside"] = len(seat["kept"])
    return public


def pending(state: dict) -> list[dict]:
    """The decisions owed now, as the public may know them: who, what kind (and what it asks, in the
    edition's words), until when."""
    ruleset = state.get("ruleset") or "mayfair"
    return [{"player": p["player"], "kind": p["kind"], "title": speak(title(p["kind"]), ruleset),
             "deadline": p.get("deadline")} for p in engine.prompts(state)]


def _challenge(state: dict) -> dict | None:
    ch = state.get("ch")
    if not ch:
        return None
    public = _copy(ch)
    committed = state.get("committed") or {}
    public["committed"] = {side: len(committed.get(side) or []) for side in ("offense", "defense")}
    return public


def board(state: dict) -> dict:
    """The public view of a game: everything every player (and spectators) may see."""
    view = {"version": state["v"]}
    for name in GAME_FIELDS:
        if name in state:
            view[name] = _copy(state[name])
    view["players"] = players(state)
    if state.get("status") in ("playing", "finished"):
        for name in TABLE_FIELDS:
            view[name] = _copy(state.get(name))
        view["citadels"] = _copy(state.get("citadels") or {})  # cards face up beside planets (Citadel)
        view["decks"] = {"deck": len(state.get("deck") or []), "destiny": len(state.get("destiny") or []),
                         "aside": len(state.get("aside") or []), "kickers": len(state.get("kickers") or [])}
        view["challenge"] = _challenge(state)
        if state.get("powers_out"):  # powers that left the game for good (Reincarnator's former incarnations)
            view["powers_out"] = list(state["powers_out"])
    view["pending"] = pending(state)
    if state.get("ruleset"):
        view["terms"] = terms(state["ruleset"])  # the word each part of the board goes by in this edition
    return view


def own_prompts(state: dict, player: str | None) -> list[dict]:
    """The decisions ``player`` owes, with their legal options (None: every player's, for the admin), each
    with a ``title`` and its options' labels in the words of the game's edition (`projections.words`)."""
    ruleset = state.get("ruleset") or "mayfair"
    return [told(p, ruleset) for p in engine.prompts(state) if player is None or p["player"] == player]


def hand(state: dict, player: str) -> dict:
    """One player's private view: its cards (and its hoard, if it holds one), its face-down challenge cards,
    its prompts."""
    seat = state["players"][player]
    committed = state.get("committed") or {}
    mine = [side for side in ("offense", "defense") if _main_player(state, side) == player]
    view = {"version": state["v"], "game_id": state.get("game_id"), "player": player,
            "cards": list(seat.get("hand") or []), "powers": list(seat.get("powers") or []),
            "committed": {side: list(committed.get(side) or []) for side in mine},
            "prompts": own_prompts(state, player)}
    if "hoard" in seat:
        view["hoard"] = list(seat["hoard"])
    return view


def _main_player(state: dict, side: str) -> str | None:
    turn, ch = state.get("turn"), state.get("ch")
    if side == "offense":
        return turn["offense"] if turn else None
    return ch["defense"] if ch else None


def summary(state: dict) -> dict:
    """A game's entry in the games list (public)."""
    return {"id": state.get("game_id"), "status": state.get("status"), "ruleset": state.get("ruleset"),
            "seats": state.get("seats"), "created": state.get("created"),
            "players": [{"color": c, "name": state["players"][c]["name"], "bot": state["players"][c].get("bot")}
                        for c in state.get("order") or []],
            "winners": list(state.get("winners") or [])}


def full_state(state: dict) -> dict:
    """The whole state (admin only): a copy, so the caller may keep it."""
    return clone(state)
