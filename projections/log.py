"""The event log as one viewer may see it: private fields redacted, bookkeeping left out."""

from __future__ import annotations

from events.redaction import ADMIN, is_internal, redact


def visible(event: dict, viewer: str | None, include_internal: bool = False) -> bool:
    """Whether an event belongs in ``viewer``'s log (engine bookkeeping: the admin's only, on request)."""
    if not is_internal(event):
        return True
    return include_internal and viewer == ADMIN


def log_view(events: list[dict], viewer: str | None, include_internal: bool = False) -> list[dict]:
    """The events ``viewer`` may see, each redacted for them (see `events.redaction`)."""
    return [redact(event, viewer) for event in events if visible(event, viewer, include_internal)]
