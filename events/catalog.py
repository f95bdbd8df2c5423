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

The registry itself (`EventType`, ``TYPES``, `define`, `get`, `schema_version`) lives in
`events.registry`, which `events.vocabulary` fills; this module gives both in one import.
"""

from __future__ import annotations

from events import vocabulary as _vocabulary  # noqa: F401  (registers the game's event types)
from events.registry import TYPES, EventType, define, get, schema_version

__all__ = ["TYPES", "EventType", "define", "get", "schema_version"]
