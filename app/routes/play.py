"""Playing: one command per request, and each player's private view (hand and prompts)."""

from __future__ import annotations

import hashlib

from flask import Blueprint, request

from app import schemas
from app.auth import require_player_or_admin
from app.http import expected_version, json_body, json_response, query, runtime, versioned
from app.problems import Problem
from app.routes.common import caller, now_ms
from engine import seats
from engine.flow import identity
from events.envelope import canonical_json
from events.redaction import ADMIN
from projections import views

bp = Blueprint("play", __name__)
IDEMPOTENCY_KEY_MAX = 200


@bp.post("/games/<gid:game_id>/actions")
def act(game_id: str):
    """Answer a decision the caller owes (the admin may act for a player, or send ``timeout``)."""
    who = require_player_or_admin(caller(game_id))
    body = schemas.ACTION.load(json_body())
    expected = expected_version(body)
    key = _idempotency_key()
    rt = runtime()
    state = rt.repository.require(game_id)
    if body["action"] == "join" and state["status"] == "lobby":
        raise Problem(400, "invalid-request", "take a seat with POST /games/{id}/players",
                      errors={"action": ["Not an action in the lobby."]})
    player = _acting_player(who, body)
    extras = schemas.identity_fields(body)
    command = {"action": body["action"], "args": body["args"], **extras, "at": now_ms()}
    if player is not None:
        command["player"] = player
    if body.get("prompt") is not None:
        command["prompt"] = body["prompt"]
    fingerprint = _fingerprint(command)
    outcome = rt.commands.run(game_id, command, expected_version=expected,
                              idempotency_key=None if key is None else f"{player or 'system'}:{key}",
                              fingerprint=fingerprint, respond=lambda after, events: _answer(game_id, after, events),
                              state=state, check=lambda current: _check(current, who, player, extras, body.get("prompt")))
    headers = {"ETag": f'"{outcome.version}"', "Cache-Control": "no-store"}
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    return json_response(outcome.response, 200, headers)


def _answer(game_id: str, after: dict, events: list) -> dict:
    """The response to an action (computed before the append, so a retry gets the same)."""
    turn = after.get("turn") or {}
    return {"game_id": game_id, "version": after["v"], "appended": len(events), "status": after["status"],
            "turn": turn.get("number"), "winners": list(after.get("winners") or []),
            "pending": views.pending(after)}


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key.strip() or len(key) > IDEMPOTENCY_KEY_MAX:
        raise Problem(400, "invalid-request", f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters",
                      errors={"Idempotency-Key": ["Bad length."]})
    return key


def _acting_player(who: str, body: dict) -> str | None:
    """The seat the command acts for: the token's own; the admin names one (or none, for ``timeout``)."""
    named = body.get("player")
    if who == ADMIN:
        if named is None and body["action"] != "timeout":
            raise Problem(400, "invalid-request", "the admin must name the player it acts for",
                          errors={"player": ["Missing data for required field."]})
        return named
    if named is not None and named != who:
        raise Problem(403, "forbidden", "a token acts for its own seat only")
    if body["action"] == "timeout":
        raise Problem(403, "forbidden", "only the service's timers (the admin token) send timeouts")
    return who


def _check(state: dict, who: str, player: str | None, extras: dict, wanted: str | None) -> None:
    """The request against the game as it is when the command is applied: the seat is the person's to play
    (not handed to a bot: engine/seats.py), and its identity fields are some option's."""
    if who != ADMIN and player is not None and seats.handed_over(state, player):
        raise Problem(409, "seat-played-by-bot", seats.held_by_bot(state, player) + " (POST /games/"
                      f"{state.get('game_id')}/seats/{player}/take-back)", rule="seats", current_version=state["v"])
    if extras:
        _check_identity_fields(state, player, extras, wanted)


def _check_identity_fields(state: dict, player: str | None, extras: dict, wanted: str | None) -> None:
    """Refuse fields that no option of the caller's decisions uses (typos, stray fields).

    Only for a decision that is owed: when the caller owes nothing, or ``prompt`` names a decision
    other than the one it owes now, the request is stale, and the engine's 409 ``not-owed`` says
    so whatever fields it names (an ``ability`` of a window that has closed is no typo).
    """
    owed = views.own_prompts(state, player)
    answerable = {p["id"] for p in owed} if player is None else {p["id"] for p in owed[:1]}  # a seat answers its first
    if not owed or (wanted is not None and wanted not in answerable):
        return
    known = {name for p in owed for o in p["options"] for name in identity(o)}
    unknown = sorted(set(extras) - known)
    if unknown:
        raise Problem(400, "invalid-request", "the request has invalid or unknown fields",
                      errors={name: ["Unknown field."] for name in unknown})


def _fingerprint(command: dict) -> str:
    """What identifies a request for idempotency: the command without its time."""
    same = {k: v for k, v in command.items() if k != "at"}
    return hashlib.sha256(canonical_json(same).encode("utf-8")).hexdigest()


@bp.get("/games/<gid:game_id>/hand")
def hand(game_id: str):
    """The caller's cards, face-down challenge cards and prompts (now or at ``?version=N``)."""
    who = require_player_or_admin(caller(game_id))
    args = query(schemas.HAND_QUERY)
    state = _state(game_id, args.get("version"))
    player = _viewed_player(who, args.get("player"), required=True)
    if player not in (state.get("players") or {}):
        raise Problem(404, "not-found", f"{player} has no seat in this game (at this version)")
    return versioned(lambda: views.hand(state, player), state["v"], private=True)


@bp.get("/games/<gid:game_id>/prompts")
def prompts(game_id: str):
    """The decisions the caller owes now, with their legal options (the admin: anyone's)."""
    who = require_player_or_admin(caller(game_id))
    args = query(schemas.PROMPTS_QUERY)
    player = _viewed_player(who, args.get("player"), required=False)
    state = runtime().repository.require(game_id)
    return versioned(lambda: {"game_id": game_id, "version": state["v"], "player": player,
                              "prompts": views.own_prompts(state, player)}, state["v"], private=True)


def _viewed_player(who: str, named: str | None, required: bool) -> str | None:
    if who == ADMIN:
        if named is None and required:
            raise Problem(400, "invalid-request", "the admin must name the player",
                          errors={"player": ["Missing data for required field."]})
        return named
    if named is not None and named != who:
        raise Problem(403, "forbidden", "a token sees its own seat's cards and decisions only")
    return who


def _state(game_id: str, version: int | None) -> dict:
    repository = runtime().repository
    return repository.state_at(game_id, version) if version is not None else repository.require(game_id)
