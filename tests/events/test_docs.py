"""docs/events.md lists every event type as the catalogue defines it."""

from pathlib import Path

from events import catalog
from events.docs import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def test_the_events_document_is_the_catalogue_as_it_is():
    assert DOC.read_text() == render(), "run: python -m events.docs > docs/events.md"


def test_every_event_type_says_what_it_means():
    assert all(len(etype.doc) > 20 for etype in catalog.TYPES.values())
    assert {t.name for t in catalog.TYPES.values() if t.internal and not t.legacy} == {"Bookmark"}
