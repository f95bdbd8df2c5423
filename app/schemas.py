"""Marshmallow schemas of request bodies and query strings (unknown fields are errors).

Bodies are strict (``"3"`` is not a number); query strings are text, so their numbers and
booleans are parsed. A validation error becomes a 400 problem naming each field.
"""

from __future__ import annotations

import re

from marshmallow import INCLUDE, Schema, ValidationError, fields, post_load, validate, validates_schema

from engine.options import ALL_COLORS, RULESETS
from projections.index import STATUSES

# the largest version or event number a request may name: every integer in JSON stays exact
# (2^53 - 1), far beyond any real game, and far below what Redis stream ids can hold
MAX_VERSION = 2**53 - 1
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
# Fields of a command the server sets or that belong to other routes: never taken from an action body.
RESERVED = frozenset({"at", "actor", "by", "ruleset", "options", "seats", "seed", "setup", "name", "color", "bot"})
LOBBY_ACTIONS = frozenset({"create", "start"})  # "join" is also an alliance answer in play
SEAT_ACTIONS = frozenset({"hand_over", "take_back"})  # engine/seats.py


class WholeNumber(fields.Integer):
    """An integer, also when written with a zero fraction (``2.0``): JSON Schema's ``integer`` says the same.

    ``2.5``, ``"2"`` and ``true`` are refused; what loads is always a Python ``int``, so the
    events stay exactly what replays read back.
    """

    def _validated(self, value):
        if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_VERSION:
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.make_error("invalid")
        return super()._validated(value)


def whole_numbers(value, kinds: dict):
    """``value`` with the integral floats of the integer options (``kinds``: name -> type) made ints."""
    if not isinstance(value, dict):
        return value
    return {name: int(item) if kinds.get(name) is int and isinstance(item, float) and item.is_integer()
            and abs(item) <= MAX_VERSION else item for name, item in value.items()}


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only (``1`` and ``"yes"`` are refused, as JSON Schema's ``boolean`` says)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class CreateGame(Schema):
    """``POST /games``: seed and setup are the admin's only."""

    ruleset = fields.String(load_default="mayfair", validate=validate.Length(1, 40))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seats = WholeNumber(strict=True, required=True, validate=validate.Range(min=2, max=6))
    seed = fields.String(validate=validate.Length(1, 200))
    setup = fields.Dict(keys=fields.String())
    private = StrictBoolean(load_default=False)  # joining needs the invitation

    @post_load
    def _whole_number_options(self, data, **kwargs):
        from engine.options import OPTIONS
        data["options"] = whole_numbers(data.get("options"), {name: spec[0] for name, spec in OPTIONS.items()})
        handing = data["options"].get("hand_over_after")
        if isinstance(handing, dict):  # {"missed": 3.0, ...} is the whole number 3
            data["options"]["hand_over_after"] = whole_numbers(handing, {"missed": int})
        tokens = (data.get("setup") or {}).get("tokens")
        if isinstance(tokens, dict):  # token counts of a stacked layout: {planet: {colour: n}}
            data["setup"]["tokens"] = {planet: whole_numbers(counts, dict.fromkeys(counts, int))
                                       if isinstance(counts, dict) else counts for planet, counts in tokens.items()}
        return data


class Join(Schema):
    """``POST /games/{id}/players``."""

    name = fields.String(required=True, validate=validate.Length(1, 40))
    color = fields.String(validate=validate.Length(1, 20))
    bot = fields.String(allow_none=True, validate=validate.Length(1, 20))
    invitation = fields.String(validate=validate.Length(1, 200))  # a private game's; ignored by a public one


class HandOver(Schema):
    """``POST /games/{id}/seats/{colour}/hand-over``: the level of the bot that plays the seat from now on
    (a level this service lacks is the engine's 422, naming the levels it has)."""

    level = fields.String(required=True, validate=validate.Length(1, 40))


class Empty(Schema):
    """A body that must be empty or ``{}`` (``POST /games/{id}/start``)."""


class Action(Schema):
    """``POST /games/{id}/actions``: a command answering a decision the caller owes.

    Besides the named fields, an action may carry the identity fields of the option it
    takes (``side``, ``ability``, ...: whatever the prompt's option shows); they must be
    short scalar values, and the route refuses any the caller's prompts do not use.
    """

    class Meta:
        unknown = INCLUDE

    action = fields.String(required=True, validate=validate.Length(1, 64))
    args = fields.Dict(keys=fields.String(), load_default=dict)
    prompt = fields.String(allow_none=True, validate=validate.Length(1, 200))
    expected_version = WholeNumber(strict=True, validate=validate.Range(min=0, max=MAX_VERSION))
    player = fields.String(validate=validate.Length(1, 20))

    @validates_schema(pass_original=True)
    def _identity_fields(self, data, original, **kwargs):
        errors = {}
        if data.get("action") in LOBBY_ACTIONS:
            errors["action"] = [f"use the {data['action']} route, not an action"]
        if data.get("action") in SEAT_ACTIONS:  # a seat's own, through its own route (app/routes/seats.py)
            errors["action"] = [f"use POST /games/{{id}}/seats/{{colour}}/{data['action'].replace('_', '-')}, "
                                "not an action"]
        for name in set(original) - set(self.fields):
            value = original[name]
            if name in RESERVED or not NAME.match(name):
                errors[name] = ["Unknown field."]
            elif not (value is None or isinstance(value, (bool, int)) or
                      (isinstance(value, str) and len(value) <= 200)):
                errors[name] = ["An identity field holds a short string, a number, a boolean or null."]
        if errors:
            raise ValidationError(errors)


def identity_fields(body: dict) -> dict:
    """The fields of a loaded action body that identify an option (beyond the named fields)."""
    return {k: v for k, v in body.items() if k not in Action._declared_fields}


class VersionQuery(Schema):
    """``?version=N``: a past version (1 to the current one)."""

    version = fields.Integer(validate=validate.Range(min=1, max=MAX_VERSION))


COLOUR = validate.OneOf(ALL_COLORS, error="Not a colour: " + ", ".join(ALL_COLORS) + ".")


class Message(Schema):
    """``POST /games/{id}/messages``: a seated player's message, to everyone (``to`` missing or null) or to one
    seat. Its length and the recipient's seat are the table talk's rules (workers/talk.py), checked after."""

    text = fields.String(required=True)
    to = fields.String(allow_none=True, load_default=None, validate=COLOUR)


class HandQuery(VersionQuery):
    """``GET /games/{id}/hand``: the admin names the player."""

    player = fields.String(validate=COLOUR)


class PromptsQuery(Schema):
    """``GET /games/{id}/prompts``: the admin may name a player (default: everyone's)."""

    player = fields.String(validate=COLOUR)


class EventsQuery(Schema):
    """``GET /games/{id}/events``."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))
    limit = fields.Integer(load_default=500, validate=validate.Range(1, 1000))
    include_internal = fields.Boolean(load_default=False)
    view = fields.String(load_default="full", validate=validate.OneOf(("full", "compact")))


class StreamQuery(Schema):
    """``GET /games/{id}/stream``."""

    after = fields.Integer(validate=validate.Range(min=0, max=MAX_VERSION))
    timeout = fields.Float(validate=validate.Range(min=0.1, max=86400))


# Every list is paged the same way: ``limit`` (how many, at most a per-list maximum) and ``after``
# (the previous page's ``next_after``; left out for the first page). Each page answers ``limit``,
# ``next_after`` and ``more``. The cursor is a game's event number for its log and an opaque
# string elsewhere.
GAMES_CURSOR = re.compile(r"^([0-9]{1,16})\.([A-Za-z0-9_-]{1,64})$")
SERIAL_CURSOR = re.compile(r"^[0-9]{1,16}$")
DELIVERY_CURSOR = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class ListQuery(Schema):
    """``GET /games``: a page after a cursor; ``offset`` (the older way) still works, but not with ``after``."""

    status = fields.String(validate=validate.OneOf(STATUSES))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    after = fields.String(validate=validate.Regexp(GAMES_CURSOR, error="Not a cursor of this list (pass next_after)."))
    offset = fields.Integer(validate=validate.Range(0, 100000))

    @validates_schema
    def _one_way_of_paging(self, data, **kwargs):
        if "after" in data and "offset" in data:
            raise ValidationError("Page with after (the cursor) or offset (deprecated), not both.", "offset")


GAME_ID = validate.Regexp(r"^[A-Za-z0-9_-]{1,64}$", error="Not a game id.")


class CreateWebhook(Schema):
    """``POST /webhooks``: a subscription to one game's events (``game_id``) or every game's (admin)."""

    url = fields.String(required=True, validate=validate.Length(1, 2000))
    secret = fields.String(validate=validate.Length(16, 200))
    game_id = fields.String(allow_none=True, validate=GAME_ID)
    event_types = fields.List(fields.String(validate=validate.Length(1, 64)), allow_none=True,
                              validate=validate.Length(1, 100))
    viewer = fields.String(validate=validate.OneOf(("admin", "public")))
    after = WholeNumber(strict=True, validate=validate.Range(min=0, max=MAX_VERSION))


class WebhooksQuery(Schema):
    """``GET /webhooks``: a player names its game; a page after a cursor."""

    game_id = fields.String(validate=GAME_ID)
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))
    after = fields.String(validate=validate.Regexp(SERIAL_CURSOR, error="Not a cursor of this list (pass next_after)."))


class DeliveriesQuery(Schema):
    """``GET /webhooks/{id}/deliveries``: newest first, a page after a cursor."""

    game_id = fields.String(validate=GAME_ID)
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))
    after = fields.String(validate=validate.Regexp(DELIVERY_CURSOR, error="Not a cursor of this list (pass next_after)."))


CREATE_WEBHOOK, WEBHOOKS_QUERY, DELIVERIES_QUERY = CreateWebhook(), WebhooksQuery(), DeliveriesQuery()
CREATE_GAME, JOIN, EMPTY, ACTION, HAND_OVER = CreateGame(), Join(), Empty(), Action(), HandOver()
VERSION_QUERY, HAND_QUERY, PROMPTS_QUERY = VersionQuery(), HandQuery(), PromptsQuery()
class CatalogueQuery(Schema):
    """``GET /catalogue``: one edition only, if named."""

    ruleset = fields.String(validate=validate.OneOf(RULESETS))


class RegisterPlayer(Schema):
    """``POST /players``: a name the player goes by (no password, no e-mail)."""

    name = fields.String(required=True, validate=validate.Length(1, 40))


MY_GAMES_FILTERS = ("all", "owing", "lobby", "playing", "finished")


class MyGamesQuery(Schema):
    """``GET /me/games``: which of the player's games (``owing``: a decision is the player's now), paged."""

    filter = fields.String(load_default="all", validate=validate.OneOf(MY_GAMES_FILTERS))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    after = fields.String(validate=validate.Regexp(GAMES_CURSOR, error="Not a cursor of this list (pass next_after)."))


class MyStreamQuery(Schema):
    """``GET /me/stream``: a cursor (the id of the feed's last message) and how long to stay open."""

    after = fields.String(validate=validate.Length(1, 4000))  # checked by app.mystream.parse_cursor
    timeout = fields.Float(validate=validate.Range(min=0.1, max=86400))


REGISTER_PLAYER, MY_GAMES_QUERY, MY_STREAM_QUERY = RegisterPlayer(), MyGamesQuery(), MyStreamQuery()
EVENTS_QUERY, STREAM_QUERY, LIST_QUERY = EventsQuery(), StreamQuery(), ListQuery()
CATALOGUE_QUERY = CatalogueQuery()


class Rewind(Schema):
    """``POST /games/{id}/rewind``: the version to go back to (and, optionally, the version seen now)."""

    to_version = WholeNumber(strict=True, required=True, validate=validate.Range(min=1, max=MAX_VERSION))
    expected_version = WholeNumber(strict=True, validate=validate.Range(min=0, max=MAX_VERSION))


class Fork(Schema):
    """``POST /games/{id}/fork``: the version to fork at (default: the current one)."""

    version = WholeNumber(strict=True, validate=validate.Range(min=1, max=MAX_VERSION))


REWIND, FORK = Rewind(), Fork()
MESSAGE = Message()
