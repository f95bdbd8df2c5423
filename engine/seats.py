"""Seats a person hands to a bot and takes back (issue 30; Board Game Arena's way with a player who leaves).

Two commands, outside the turn sequence (they answer no decision and change no step):

- ``hand_over`` (``seat``, ``level``, ``reason``): from now on a bot of ``level`` (`engine.levels`)
  plays the seat: ``SeatHandedToBot`` sets the seat's ``bot``, which is all the workers read
  (workers/bots.py). ``reason`` is ``asked`` (the person or the admin asked for it).
- ``take_back`` (``seat``): the person plays the seat again: ``SeatTakenBack`` clears its ``bot``.

A seat that joined as a bot was never a person's: it is not handed over, and nothing takes it back.

The game option ``hand_over_after`` (``{"missed": N, "level": L}``, engine.options) hands a seat
over by itself, with reason ``missed``, when the seat's player has let N decisions in a row run
out of time (their defaults applied by the timer, ``DecisionTimedOut``); any event the seat's player
causes itself (an answer) starts the count again. The count is the state's ``missed``
(``{colour: n}``), kept only in games with the option, so no other game's state changes.

Neither fact says anything the board did not already show: which seat, which level, why. A bot
answers through the same commands as a person (workers/bots.py), so its choices are the only
trace it leaves, and its reasoning none.
"""

from __future__ import annotations

from engine import levels
from engine.errors import CommandError, RulesError

SEAT_ACTIONS = ("hand_over", "take_back")
REASONS = ("asked", "missed")


def apply(ctx, command: dict) -> None:
    """Check and apply a ``hand_over`` or ``take_back`` command (the game is being played)."""
    state = ctx.state
    seat = command.get("seat")
    if not isinstance(seat, str) or seat not in (state.get("players") or {}):
        raise CommandError("seat must name a colour seated in this game", "seat")
    if state["status"] != "playing":
        raise RulesError("seats", f"the game is {state['status']}: seats change hands only while it is played")
    player = state["players"][seat]
    if command["action"] == "hand_over":
        level = command.get("level")
        if not isinstance(level, str) or level not in levels.LEVELS:
            raise RulesError("seats", f"there is no bot level {level!r}; the levels: {levels.listed()}")
        if player.get("bot"):
            raise RulesError("seats", held_by_bot(state, seat))
        ctx.emit("SeatHandedToBot", player=seat, level=level, reason="asked")
    else:
        if not player.get("handed_over"):
            raise RulesError("seats", not_handed_over(state, seat))
        ctx.emit("SeatTakenBack", player=seat)


def held_by_bot(state: dict, seat: str) -> str:
    """Why a person may not act for (or hand over again) a seat a bot plays."""
    player = state["players"][seat]
    if player.get("handed_over"):
        return (f"the {seat} seat was handed to a {player['bot']} bot, which plays it now; "
                "take it back first")
    return f"the {seat} seat joined as a {player['bot']} bot: no person plays it"


def not_handed_over(state: dict, seat: str) -> str:
    """Why a seat cannot be taken back."""
    player = state["players"][seat]
    if player.get("bot"):
        return f"the {seat} seat joined as a {player['bot']} bot; only a seat handed over is taken back"
    return f"the {seat} seat is not handed over: its player plays it"


def handed_over(state: dict, seat: str) -> bool:
    """Whether a person's seat is played by a bot it was handed to."""
    return bool(((state.get("players") or {}).get(seat) or {}).get("handed_over"))


def after_timeout(ctx, seat: str) -> None:
    """After a default applied for ``seat``: hand the seat over if ``hand_over_after`` says it missed enough."""
    state = ctx.state
    rule = state["options"].get("hand_over_after")
    if not rule or state["status"] != "playing":
        return
    player = state["players"].get(seat)
    if player is None or player.get("bot"):
        return
    if (state.get("missed") or {}).get(seat, 0) >= rule["missed"]:
        ctx.emit("SeatHandedToBot", player=seat, level=rule["level"], reason="missed", missed=rule["missed"])
