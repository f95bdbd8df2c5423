"""Per-viewer redaction of stored events (events.redaction), as declared in the catalog."""

from __future__ import annotations

import pytest

from events import catalog
from events.envelope import seal
from events.redaction import ADMIN, hide, is_internal, may_see, redact, redact_payload


def sealed(event_type: str, **payload) -> dict:
    """One sealed event of a type with this payload."""
    return seal([{"type": event_type, "actor": "system", "time": 1, "payload": payload}], "g", 0, "",
                catalog.schema_version)[0]


def test_a_private_draw_is_seen_by_its_owner_only():
    event = sealed("CardsMoved", cards=["A8.1", "C.2"], src="deck", dst="hand:red", seen_by=["red"], reason="draw")
    assert redact(event, "red")["payload"]["cards"] == ["A8.1", "C.2"]
    assert redact(event, "blue")["payload"]["cards"] == [None, None]
    assert redact(event, None)["payload"]["cards"] == [None, None]
    assert redact(event, ADMIN)["payload"]["cards"] == ["A8.1", "C.2"]


def test_a_null_seen_by_is_public():
    event = sealed("CardsMoved", cards=["A8.1"], src="hand:red", dst="discard", seen_by=None, reason="discard")
    assert redact(event, None)["payload"]["cards"] == ["A8.1"]


def test_an_empty_tuple_hides_from_every_player():
    event = sealed("GameCreated", ruleset="mayfair", options={}, seats=3, seed="secret-seed", setup={"first": "red"})
    for viewer in (None, "red", "blue"):
        payload = redact(event, viewer)["payload"]
        assert payload["seed"] is None and payload["setup"] is None
        assert payload["seats"] == 3
    assert redact(event, ADMIN)["payload"]["seed"] == "secret-seed"


def test_several_naming_fields_grant_each_named_player():
    event = sealed("HandRevealed", player="red", to=["blue"], cards=["A4.1", "C.3"])
    assert redact(event, "red")["payload"]["cards"] == ["A4.1", "C.3"]
    assert redact(event, "blue")["payload"]["cards"] == ["A4.1", "C.3"]
    assert redact(event, "yellow")["payload"]["cards"] == [None, None]


def test_a_face_down_challenge_card_is_its_players_only():
    down = sealed("ChallengeCardChosen", player="red", side="offense", card="A20.1", seen_by=["red"])
    up = sealed("ChallengeCardChosen", player="red", side="offense", card="A20.1", seen_by=None, face_up=True)
    assert redact(down, "blue")["payload"]["card"] is None
    assert redact(down, "red")["payload"]["card"] == "A20.1"
    assert redact(up, "blue")["payload"]["card"] == "A20.1"


def test_hashes_are_for_the_admin_only():
    event = sealed("GameStarted", order=["red", "blue"])
    for viewer in (None, "red"):
        assert "hash" not in redact(event, viewer) and "prev_hash" not in redact(event, viewer)
    assert redact(event, ADMIN)["hash"] == event["hash"]


def test_redaction_does_not_change_the_stored_event():
    event = sealed("DeckFormed", deck="deck", cards=["A1", "A4.1"])
    redact(event, "red")
    assert event["payload"]["cards"] == ["A1", "A4.1"] and "hash" in event


@pytest.mark.parametrize("value, hidden", [(["a", "b"], [None, None]), ("x", None), ({"a": 1}, None), (3, None)])
def test_hidden_lists_keep_their_length(value, hidden):
    assert hide(value) == hidden


def test_unknown_types_fail_closed(define_event_type):
    payload = {"secret": ["x"], "other": "y"}
    assert redact_payload("NoSuchType", payload, "red") == {"secret": [None], "other": None}
    assert is_internal({"type": "NoSuchType"})


def test_may_see_with_a_colour_or_list():
    assert may_see({"who": "red"}, ("who",), "red")
    assert may_see({"who": ["red", "blue"]}, ("who",), "blue")
    assert not may_see({"who": ["red"]}, ("who",), None)
    assert may_see({"who": None}, ("who",), None)


def test_every_declared_naming_field_exists_in_its_type():
    for etype in catalog.TYPES.values():
        for field, naming in etype.private.items():
            assert field in etype.fields, (etype.name, field)
            assert all(name in etype.fields for name in naming), (etype.name, naming)


def test_bookkeeping_events_are_internal():
    assert is_internal({"type": "Bookmark"}) and is_internal({"type": "StepsScheduled"})
    assert not is_internal({"type": "CardsMoved"})
