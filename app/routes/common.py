"""Helpers the route modules share: the caller, the clock, the game id pattern."""

from __future__ import annotations

import secrets
import time

from flask import current_app
from werkzeug.routing import BaseConverter

from app.auth import Tokens, viewer
from app.http import runtime

GAME_ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"


class GameIdConverter(BaseConverter):
    """``<gid:game_id>``: only ids the service could have made; anything else is a 404."""

    regex = GAME_ID_PATTERN


def new_game_id() -> str:
    """A short, URL-safe, random game id."""
    return secrets.token_urlsafe(8)


def now_ms() -> int:
    """Server time in milliseconds: every command's ``at``."""
    return int(time.time() * 1000)


def tokens() -> Tokens:
    """The token table of this app's store."""
    return current_app.extensions["cosmic.tokens"]


def caller(game_id: str | None) -> str | None:
    """Who is asking about ``game_id``: ``admin``, a colour, or None."""
    return viewer(tokens(), runtime().settings.admin_token, game_id)
