"""Marshmallow schemas for stored events, built from the catalog of event types.

``EventSchema`` describes the stored envelope (see `events.envelope`); the payload of
each event is checked against a payload schema built lazily, once per event type, from
the field kinds declared in `events.catalog` (``str``, ``int``, ``bool``, ``list``,
``dict``, ``any``; a trailing ``?`` = may be missing or null). Unknown payload fields are
errors.

Validation is strict on purpose: a value must already *be* what the stored JSON will
give back (no ``"3"`` for an int, no tuple for a list, no int dict keys, no NaN). The
engine folds the events it emitted and, later, the same events read back from Redis;
if the two could differ (``(1, 2) != [1, 2]``) a replay would not reproduce the game.
So loading never converts anything: a valid event loads as itself.

The store validates every emitted event with `validate_emitted` before sealing it. That
path is hot, so it skips marshmallow's general machinery and runs the same kind checks
through a per-type function compiled from the catalog (and cached next to the
marshmallow schema); both paths report errors in the same shape, naming the field.
"""

from __future__ import annotations

import math
import re

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate, validates_schema

from events import catalog
from events.exceptions import UnknownEventType
from events.upcasters import CannotUpcast, upcast

MAX_JSON_DEPTH = 64  # deeper than any real payload; stops runaway recursion in the check
EMITTED_FIELDS = frozenset(("type", "payload", "actor", "time", "end"))
_HASH_RE = re.compile(r"^[0-9a-f]{64}$")


# --- kind checks: each returns None when the value is fine, else the error message ---------

def _json_problem(value, depth: int = 0) -> str | None:
    """Why ``value`` would not come back unchanged from JSON, or None if it would."""
    if depth > MAX_JSON_DEPTH:
        return "Nested too deeply."
    if value is None or value is True or value is False or type(value) in (str, int):
        return None
    if type(value) is float:
        return None if math.isfinite(value) else "Not a finite number."
    if type(value) is list:
        for item in value:
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    if type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                return f"Key {key!r} is not a string."
            problem = _json_problem(item, depth + 1)
            if problem:
                return problem
        return None
    return f"Not a JSON value ({type(value).__name__})."


def _check_str(value):
    return None if type(value) is str else "Not a valid string."


def _check_int(value):
    return None if type(value) is int else "Not a valid integer."


def _check_bool(value):
    return None if value is True or value is False else "Not a valid boolean."


def _check_list(value):
    return _json_problem(value) if type(value) is list else "Not a valid list."


def _check_dict(value):
    return _json_problem(value) if type(value) is dict else "Not a valid mapping type."


KIND_CHECKS = {
    "str": _check_str, "int": _check_int, "bool": _check_bool,
    "list": _check_list, "dict": _check_dict, "any": _json_problem,
}
MISSING_MESSAGE = "Missing data for required field."
NULL_MESSAGE = "Field may not be null."
UNKNOWN_MESSAGE = "Unknown field."


def parse_kind(kind: str) -> tuple[str, bool]:
    """Split a catalog field kind into (base kind, optional); ValueError for an unknown kind."""
    optional = kind.endswith("?")
    base = kind[:-1] if optional else kind
    if base not in KIND_CHECKS:
        raise ValueError(f"unknown field kind {kind!r}")
    return base, optional


class Kind(fields.Field):
    """A marshmallow field for one catalog kind; loads a value only if it is already right."""

    def __init__(self, kind: str, **kwargs):
        super().__init__(**kwargs)
        self.kind = kind
        self._check = KIND_CHECKS[kind]

    def _deserialize(self, value, attr, data, **kwargs):
        problem = self._check(value)
        if problem:
            raise ValidationError(problem)
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


# --- per-type payload schemas and compiled checkers, built lazily --------------------------

def _build_payload_schema(etype: catalog.EventType) -> Schema:
    declared = {}
    for name, kind in etype.fields.items():
        base, optional = parse_kind(kind)
        declared[name] = Kind(base, required=not optional, allow_none=optional)
    cls = Schema.from_dict(declared, name=f"{etype.name}Payload")
    return cls(unknown=RAISE)


_MISSING = object()


def _build_payload_checker(etype: catalog.EventType):
    """A plain function doing what the payload schema's load does, without marshmallow's overhead."""
    specs = []
    for name, kind in etype.fields.items():
        base, optional = parse_kind(kind)
        specs.append((name, KIND_CHECKS[base], optional))
    known = frozenset(etype.fields)

    def check(payload) -> dict | None:
        if type(payload) is not dict:
            return {"_schema": ["Invalid input type."]}
        errors = None
        for name, kind_check, optional in specs:
            value = payload.get(name, _MISSING)
            if value is _MISSING:
                problem = None if optional else MISSING_MESSAGE
            elif value is None:
                problem = None if optional else NULL_MESSAGE
            else:
                problem = kind_check(value)
            if problem:
                errors = errors or {}
                errors[name] = [problem]
        if not known.issuperset(payload):
            errors = errors or {}
            errors.update((name, [UNKNOWN_MESSAGE]) for name in payload if name not in known)
        return errors

    return check


_PAYLOAD_CACHE: dict[str, tuple[catalog.EventType, Schema, object]] = {}


def _payload_entry(type_name: str):
    """The cached (type, schema, checker) of a type, rebuilt if the catalog entry changed."""
    etype = catalog.TYPES.get(type_name) if type(type_name) is str else None
    if etype is None:
        raise UnknownEventType(type_name)
    entry = _PAYLOAD_CACHE.get(type_name)
    # Identity, not equality: tests (and reloads) may redefine a name with other fields.
    if entry is None or entry[0] is not etype:
        entry = (etype, _build_payload_schema(etype), _build_payload_checker(etype))
        _PAYLOAD_CACHE[type_name] = entry
    return entry


def payload_schema(type_name: str) -> Schema:
    """The marshmallow schema of one event type's payload; `UnknownEventType` if not registered."""
    return _payload_entry(type_name)[1]


def check_payload(type_name: str, payload) -> None:
    """Raise ValidationError (keyed by field) unless ``payload`` fits its type's declared fields."""
    errors = _payload_entry(type_name)[2](payload)
    if errors:
        raise ValidationError(errors)


def validate_emitted(event) -> None:
    """Check one engine-emitted event ``{"type", "payload", "actor", "time"}`` before it is sealed.

    Raises `UnknownEventType` for a type the catalog does not know and ValidationError
    (messages keyed by field, payload errors under ``"payload"``) for anything else.
    """
    if type(event) is not dict:
        raise ValidationError({"_schema": ["An event must be a mapping."]})
    errors = {name: [UNKNOWN_MESSAGE] for name in event if name not in EMITTED_FIELDS}
    actor, time = event.get("actor"), event.get("time")
    if "end" in event and event["end"] is not True:
        errors["end"] = ["Only true: the last event of a command says so."]
    if actor is not None and type(actor) is not str:
        errors["actor"] = ["Not a valid string."]
    if time is not None and type(time) is not int:
        errors["time"] = ["Not a valid integer."]
    payload = event.get("payload")
    # `envelope.seal` stores a missing or null payload as {}; check what will be stored.
    payload_errors = _payload_entry(event.get("type"))[2]({} if payload is None else payload)
    if payload_errors:
        errors["payload"] = payload_errors
    if errors:
        raise ValidationError(errors)


# --- the stored envelope ---------------------------------------------------------------------

def _known_type(name) -> None:
    if type(name) is not str or name not in catalog.TYPES:
        raise ValidationError(f"Unknown event type {name!r}.")


def _hash_or_empty(value: str) -> None:
    if value and not _HASH_RE.match(value):
        raise ValidationError("Not a SHA-256 hex digest.")


class EventSchema(Schema):
    """A stored event: the envelope of `events.envelope` with a payload valid for its type."""

    class Meta:
        unknown = RAISE

    type = Kind("str", required=True, validate=_known_type)
    game_id = Kind("str", required=True, validate=validate.Length(min=1))
    seq = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    time = fields.Integer(strict=True, required=True)
    actor = Kind("str", required=True, validate=validate.Length(min=1))
    schema_version = fields.Integer(strict=True, required=True, validate=validate.Range(min=1))
    payload = Kind("dict", required=True)
    prev_hash = Kind("str", required=True, validate=_hash_or_empty)
    hash = Kind("str", required=True, validate=validate.Regexp(_HASH_RE))
    end = Kind("bool", validate=validate.Equal(True))

    @validates_schema
    def _payload_fits_type(self, data, **kwargs):
        """Check the payload against its type (an older version through its upcasters: events.upcasters)."""
        try:
            payload = upcast(data["type"], data["schema_version"], data["payload"])
        except CannotUpcast as err:
            raise ValidationError(str(err), "schema_version") from err
        try:
            payload_schema(data["type"]).load(payload)
        except ValidationError as err:
            raise ValidationError(err.messages, "payload") from err

    @post_load
    def _as_dict(self, data, **kwargs):
        return dict(data)


_EVENT_SCHEMA = EventSchema()


def load_event(data) -> dict:
    """Validate a stored event (e.g. from an import or the stream); ValidationError names the field."""
    return _EVENT_SCHEMA.load(data)


def dump_event(event: dict) -> dict:
    """The stored event as a plain JSON-ready dict with exactly the envelope fields, in order."""
    return dict(_EVENT_SCHEMA.dump(event))
