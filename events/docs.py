"""docs/events.md, written from the catalogue of event types: every event a stream may hold.

    python -m events.docs > docs/events.md

A test (tests/events/test_docs.py) fails when the file and the catalogue disagree.
"""

from __future__ import annotations

from events import catalog

HEADER = """# Events

Every event a game's stream may hold, written from `events/vocabulary.py` (`python -m events.docs >
docs/events.md`). Each stored event has the envelope of `events/envelope.py` (`type`, `game_id`,
`seq`, `time`, `actor`, `schema_version`, `payload`, `prev_hash`, `hash`, and `end: true` on the
last event of each command) and a payload with the fields below (`?`: may be missing or null).

**Who sees what.** A field marked *private to* is shown only to the players its naming fields list
(all of them null: everyone); *private* alone: no player (only the admin). Everything else is
public. An event *shown only to* its naming field's players (a private message of the table talk) is
not there at all for anyone else. **Bookkeeping** events are the engine's own (where its turn sequence stands): only the
admin's log shows them. **Format 1** events are in games stored before stream format 2 and are
read, never written (docs/engine.md, "Stream formats").
"""


def _fields(etype: catalog.EventType) -> str:
    parts = []
    for name, kind in etype.fields.items():
        note = ""
        if name in etype.private:
            naming = etype.private[name]
            note = f", private to {' / '.join(naming)}" if naming else ", private"
        parts.append(f"`{name}` {kind}{note}")
    shown = f" (the event is shown only to {etype.audience}; null: everyone)" if etype.audience else ""
    return ("; ".join(parts) or "none") + shown


def render() -> str:
    """The text of docs/events.md."""
    lines = [HEADER]
    sections = (("Facts of the game", lambda t: not t.internal and not t.legacy),
                ("Bookkeeping", lambda t: t.internal and not t.legacy),
                ("Format 1 (read, never written)", lambda t: t.legacy))
    for title, belongs in sections:
        lines.append(f"\n## {title}\n\n| event | version | what it says | payload |\n| --- | --- | --- | --- |")
        for etype in catalog.TYPES.values():
            if belongs(etype):
                doc = etype.doc.replace("|", "\\|")
                lines.append(f"| `{etype.name}` | {etype.version} | {doc} | {_fields(etype)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
