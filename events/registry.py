"""The registry of event types: `EventType`, and `define` / `get` / `schema_version` over ``TYPES``.

Kept apart from `events.catalog` so that `events.vocabulary` (which defines the game's types)
and the catalog (which loads the vocabulary so that importing it gives every type) do not
import each other. Everything here is re-exported by `events.catalog`; import it from there.
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
