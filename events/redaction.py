"""Per-viewer redaction of stored events, as declared in `events.catalog`.

Each event type's ``private`` map names, for a payload field, the payload fields that say
who may see it (each holds a colour, a list of colours, or null):

- an empty tuple: nobody but the admin sees the field;
- every naming field null (or missing): everyone sees it (a public card movement);
- otherwise: the players named in any of the naming fields see it.

An event type may also have an ``audience`` (a private message of the table talk): a viewer it
does not name is not shown the event at all (`shown_to`), not even redacted, so its length, its
players and its time stay unknown to them.

A hidden list keeps its length with every item replaced by null (how many cards moved is
public, which cards is not); any other hidden value becomes null. Viewers other than the
admin also never get ``hash`` / ``prev_hash``: a hash covers the hidden payload, so a
one-card draw could be found by hashing each candidate card. Unknown event types are
redacted whole, failing closed.

Pure: no Redis, no marshmallow; the engine never needs it, the read paths always do.
"""

from __future__ import annotations

from events import catalog

ADMIN = "admin"
HASH_FIELDS = ("hash", "prev_hash")


def _named(value) -> set[str]:
    """The colours a naming field holds (a colour, a list of colours or null)."""
    if value is None:
        return set()
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return {v for v in value if isinstance(v, str)}
    return set()


def may_see(payload: dict, naming_fields: tuple[str, ...], viewer: str | None) -> bool:
    """Whether ``viewer`` (a colour, ``ADMIN`` or None for anonymous) may see a private field."""
    if viewer == ADMIN:
        return True
    if not naming_fields:
        return False
    values = [payload.get(name) for name in naming_fields]
    if all(value is None for value in values):
        return True
    return viewer is not None and any(viewer in _named(value) for value in values)


def hide(value):
    """A hidden value: a list keeps its length with nulls, anything else becomes null."""
    if isinstance(value, list):
        return [None] * len(value)
    return None


def redact_payload(event_type: str, payload: dict, viewer: str | None) -> dict:
    """The payload as ``viewer`` may see it (a new dict; the input is not changed)."""
    if viewer == ADMIN:
        return dict(payload)
    etype = catalog.TYPES.get(event_type)
    if etype is None:
        return {name: hide(value) for name, value in payload.items()}
    if not etype.private:
        return dict(payload)
    shown = dict(payload)
    for name, naming_fields in etype.private.items():
        if name in shown and not may_see(payload, naming_fields, viewer):
            shown[name] = hide(shown[name])
    return shown


def redact(event: dict, viewer: str | None) -> dict:
    """A stored event as ``viewer`` may see it: private payload fields hidden, hashes dropped.

    ``viewer`` is a player's colour, `ADMIN` (sees everything, hashes included) or None
    (anonymous: public facts only).
    """
    if viewer == ADMIN:
        return dict(event)
    shown = {name: value for name, value in event.items() if name not in HASH_FIELDS}
    shown["payload"] = redact_payload(event.get("type"), event.get("payload") or {}, viewer)
    return shown


def shown_to(event: dict, viewer: str | None) -> bool:
    """Whether ``viewer`` may see that the event exists: its type's ``audience`` field names the viewer, or is
    null (everyone), or the viewer is the admin. Unknown types fail closed."""
    if viewer == ADMIN:
        return True
    etype = catalog.TYPES.get(event.get("type"))
    if etype is None:
        return False
    if etype.audience is None:
        return True
    named = (event.get("payload") or {}).get(etype.audience)
    return named is None or (viewer is not None and viewer in _named(named))


def is_internal(event: dict) -> bool:
    """Whether an event is engine bookkeeping (hidden from every log but the admin's)."""
    etype = catalog.TYPES.get(event.get("type"))
    return etype is None or etype.internal
