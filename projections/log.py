"""The event log as one viewer may see it: private fields redacted, bookkeeping left out, each entry told.

`compact_view` is the same log cut down for a client catching up after hours away
(``GET /games/{id}/events?view=compact``): each entry's sentence, without payloads or stage markers.

Every entry served (a page of ``GET /games/{id}/events``, a message of the live feed) is the event
redacted for its reader with the sentence that tells it (``text``, `projections.sentences`), so the
history reads the same in every client.
"""

from __future__ import annotations

from events.redaction import ADMIN, is_internal, shown_to
from projections.sentences import Table, narrated


def visible(event: dict, viewer: str | None, include_internal: bool = False) -> bool:
    """Whether an event belongs in ``viewer``'s log (engine bookkeeping: the admin's only, on request; a private
    message: its two players' and the admin's only)."""
    if not shown_to(event, viewer):
        return False
    if not is_internal(event):
        return True
    return include_internal and viewer == ADMIN


def log_view(events: list[dict], viewer: str | None, include_internal: bool = False,
             table: Table | None = None) -> list[dict]:
    """The events ``viewer`` may see, each redacted for them (see `events.redaction`) and told in a sentence
    of the game's edition (``text``; ``table``: the game's names and edition, `Table.of` its state)."""
    table = table or Table()
    return [narrated(event, viewer, table) for event in events if visible(event, viewer, include_internal)]


# left out of the compact log besides the engine's bookkeeping: stage markers, which the board's stage tells
COMPACT_LEFT_OUT = frozenset({"StageBegan"})
COMPACT_FIELDS = ("seq", "type", "actor", "time", "text")


def compact_view(events: list[dict], viewer: str | None, include_internal: bool = False,
                 table: Table | None = None) -> list[dict]:
    """The compact log for catching up: the events ``viewer`` may see (no stage markers; the bookkeeping only for
    the admin who asks), each as its number, type, actor, time and sentence only (no payload, no envelope):
    what happened, told as the full log tells it."""
    table = table or Table()
    return [{name: told.get(name) for name in COMPACT_FIELDS}
            for told in (narrated(event, viewer, table) for event in events
                         if event.get("type") not in COMPACT_LEFT_OUT and visible(event, viewer, include_internal))]


def entry(event: dict, viewer: str | None, table: Table) -> dict:
    """One entry of the live feed: the event as ``viewer`` may see it, with its sentence."""
    return narrated(event, viewer, table)
