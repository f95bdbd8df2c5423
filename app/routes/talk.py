"""Table talk: ``POST /games/{id}/messages``, a seated player's message to everyone or to one player.

The message becomes a ``MessageSent`` event of the game's stream (workers/talk.py has its rules
and who may read it); readers find it in the log, the live feed, the export and the webhooks,
told in ``text`` like every event. How often a seat may speak is the ``message`` rate limit
(app/limits.py), per token and per address.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint

from app import schemas
from app.auth import bearer_token, require_player_or_admin
from app.http import json_body, json_response, runtime
from app.problems import Problem
from app.routes.common import caller
from app.routes.play import _idempotency_key
from events.envelope import canonical_json
from events.redaction import ADMIN
from projections.errors import GameNotFound
from projections.log import entry
from projections.sentences import Table
from workers.talk import say

bp = Blueprint("talk", __name__)


@bp.post("/games/<gid:game_id>/messages")
def send_message(game_id: str):
    """Say something at the table: 201 with the message as its sender reads it (and the game's new version)."""
    who = caller(game_id)
    if who is None and bearer_token() is None:
        require_player_or_admin(who)  # 401: speaking needs a seat's token
    rt = runtime()
    if not rt.store.exists(game_id):
        raise GameNotFound(game_id)
    if who is None or who == ADMIN:
        raise Problem(403, "forbidden", "only a seated player's token speaks at the table (the admin's and the "
                      "host's tokens have no seat)")
    body = schemas.MESSAGE.load(json_body())
    key = _idempotency_key()
    fingerprint = hashlib.sha256(canonical_json({"to": body["to"], "text": body["text"]}).encode("utf-8")
                                 ).hexdigest()

    def respond(event: dict) -> dict:
        table = Table.of(rt.repository.require(game_id))
        return {"game_id": game_id, "version": event["seq"], "message": entry(event, who, table)}

    answer = say(rt, game_id, who, body["text"], body["to"], respond=respond, fingerprint=fingerprint,
                 idempotency_key=None if key is None else f"talk:{who}:{key}")
    return json_response(answer, 201, {"ETag": f'"{answer["version"]}"', "Cache-Control": "no-store",
                                       "Location": f"/games/{game_id}/events?after={answer['version'] - 1}&limit=1"})

