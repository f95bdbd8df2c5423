"""Every event type of the game: its payload fields, schema version and who may see what.

This module is pure data and is imported by the engine; the marshmallow schemas in
`events.schemas` and the per-viewer redaction in `events.redaction` are built from it.

Field kinds: ``str``, ``int``, ``bool``, ``list``, ``dict``, ``any``; a trailing ``?``
makes a field optional (it may be missing or null).

``private`` maps a payload field to the payload fields that name the players allowed to
see it (each such field holds a colour or a list of colours). An empty tuple means no
player sees it (only the admin token). Everything not listed is public.

``audience`` names a payload field that says who may see the event at all (a colour or a
list of colours; null: everyone): to anyone else the event is not there (a private message
of the table talk; its length, its players and its time are not shown, redacted or not).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class EventType:
    """One kind of fact the game records."""

    name: str
    doc: str
    fields: dict[str, str]
    version: int = 1
    private: dict[str, tuple[str, ...]] = field(default_factory=dict)
    internal: bool = False  # engine bookkeeping (turn-sequence agenda); hidden from the default log
    legacy: bool = False  # read in stored games, no longer written (see events.vocabulary)
    audience: str | None = None  # the payload field naming who may see the event at all (see the module doc)


TYPES: dict[str, EventType] = {}


def define(name: str, doc: str, fields: dict[str, str], *, version: int = 1,
           private: dict[str, tuple[str, ...]] | None = None, internal: bool = False,
           legacy: bool = False, audience: str | None = None) -> EventType:
    """Register an event type; each name is defined once."""
    if name in TYPES:
        raise ValueError(f"event type {name} is defined twice")
    if audience is not None and audience not in fields:
        raise ValueError(f"event type {name}: its audience field {audience} is not one of its fields")
    TYPES[name] = EventType(name, doc, dict(fields), version, dict(private or {}), internal, legacy, audience)
    return TYPES[name]


def get(name: str) -> EventType:
    """The definition of an event type; KeyError for an unknown name."""
    return TYPES[name]


def schema_version(name: str) -> int:
    """The current payload schema version of an event type."""
    return TYPES[name].version


from events import vocabulary as _vocabulary  # noqa: E402,F401  (registers the game's event types)
