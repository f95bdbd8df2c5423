"""Seats a person hands to a bot and takes back (issue 30; the rules: engine/seats.py).

- ``POST /games/{id}/seats/{colour}/hand-over`` ``{"level": L}``: a bot of level L plays the seat from now on;
  the workers start answering its decisions at once (workers/bots.py enqueues after every append).
- ``POST /games/{id}/seats/{colour}/take-back``: the person plays the seat again; the bot stops.

Both are the seat's own: its token, or the player key that holds it (`app.auth.viewer`), or the admin.
Another seat's token is a 403, no token a 401. While a bot holds the seat the person's token keeps
reading the game (board, hand, prompts, log, feed) but may not act (409 ``seat-played-by-bot``, from the
actions route): two hands on one seat would race. A seat handed twice is a 409 ``seat-played-by-bot``
too, a seat taken back that was not handed over a 409 ``seat-not-handed-over``; a seat that joined as
a bot was never a person's and is neither.
"""

from __future__ import annotations

from flask import Blueprint

from app import schemas
from app.auth import bearer_token
from app.http import if_match_version, json_body, json_response, runtime
from app.problems import Problem
from app.routes.common import caller, now_ms
from engine import seats as seat_rules
from events.redaction import ADMIN

bp = Blueprint("seats", __name__)


@bp.post("/games/<gid:game_id>/seats/<color>/hand-over")
def hand_over(game_id: str, color: str):
    """Hand the seat to a bot of the level asked for."""
    who = _seat_owner(game_id, color, "hands over")
    body = schemas.HAND_OVER.load(json_body())
    command = {"action": "hand_over", "seat": color, "level": body["level"], "actor": who, "at": now_ms()}
    return _run(game_id, color, command, _not_held_by_bot)


@bp.post("/games/<gid:game_id>/seats/<color>/take-back")
def take_back(game_id: str, color: str):
    """Take the seat back from the bot it was handed to."""
    who = _seat_owner(game_id, color, "takes back")
    schemas.EMPTY.load(json_body(required=False))
    command = {"action": "take_back", "seat": color, "actor": who, "at": now_ms()}
    return _run(game_id, color, command, _handed_over)


def _seat_owner(game_id: str, color: str, doing: str) -> str:
    """The caller, if it may change this seat: the seat's own token or player key, or the admin."""
    who = caller(game_id)
    if who is None:
        if bearer_token() is None:
            raise Problem(401, "unauthorized", f"a seat's token (or the admin token) {doing} its seat",
                          {"WWW-Authenticate": 'Bearer realm="cosmic"'})
        raise Problem(403, "forbidden", f"only the seat's own token (or the admin token) {doing} a seat")
    if who != ADMIN and who != color:
        raise Problem(403, "forbidden", f"a token {doing} its own seat only, not {color}")
    state = runtime().repository.require(game_id)
    if color not in (state.get("players") or {}):
        raise Problem(404, "not-found", f"{color} has no seat in this game")
    return who


def _not_held_by_bot(state: dict, color: str) -> None:
    if state.get("status") == "playing" and state["players"][color].get("bot"):
        raise Problem(409, "seat-played-by-bot", seat_rules.held_by_bot(state, color), rule="seats",
                      current_version=state["v"])


def _handed_over(state: dict, color: str) -> None:
    if state.get("status") == "playing" and not seat_rules.handed_over(state, color):
        raise Problem(409, "seat-not-handed-over", seat_rules.not_handed_over(state, color), rule="seats",
                      current_version=state["v"])


def _run(game_id: str, color: str, command: dict, check):
    """Append the command (the seat's state checked on the version it is applied to) and answer the seat."""
    outcome = runtime().commands.run(game_id, command, expected_version=if_match_version(),
                                     check=lambda current: check(current, color))
    seat = outcome.state["players"][color]
    result = {"game_id": game_id, "player": color, "bot": seat.get("bot"), "handed_over": seat.get("handed_over"),
              "version": outcome.version}
    return json_response(result, 200, {"ETag": f'"{outcome.version}"', "Cache-Control": "no-store"})
