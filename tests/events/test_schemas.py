"""Marshmallow schemas of stored events and the fast check the store runs before sealing."""

from __future__ import annotations

import itertools
import timeit

import pytest
from marshmallow import ValidationError

from events import catalog, schemas
from events.envelope import seal
from events.exceptions import UnknownEventType
from events.upcasters import CannotUpcast, upcast

KINDS = ("str", "int", "bool", "list", "dict", "any")

# One value of each interesting shape, to try against every kind.
SAMPLES = {
    "text": "x", "empty-text": "", "bytes": b"x", "int": 3, "big-int": 2 ** 70, "bool": True,
    "float": 1.5, "nan": float("nan"), "int-like-text": "3", "none": None,
    "list": [1, "a", None, {"k": [True]}], "tuple": (1, 2), "set": {1}, "dict": {"a": {"b": [1]}},
    "int-keys": {1: "a"}, "nested-bad": {"a": [object()]}, "object": object(),
}


@pytest.fixture
def all_kinds(define_event_type):
    """A test-only type with one required and one optional field of every kind."""
    fields = {f"req_{kind}": kind for kind in KINDS} | {f"opt_{kind}": f"{kind}?" for kind in KINDS}
    return define_event_type("TestAllKinds", fields)


def valid_all_kinds() -> dict:
    """A TestAllKinds payload with every required field valid and no optional ones."""
    return {"req_str": "s", "req_int": 1, "req_bool": False, "req_list": [], "req_dict": {}, "req_any": 0}


def sealed_game_created(**payload) -> dict:
    """A sealed GameCreated event, its payload overridden by ``payload``."""
    body = {"ruleset": "base", "options": {"timer": 30}, "seats": 5, "seed": "abc", "format": 2} | payload
    event = {"type": "GameCreated", "actor": "system", "time": 123, "payload": body}
    return seal([event], "g1", 0, "", catalog.schema_version)[0]


def messages_of(call, *args) -> dict:
    """The ValidationError messages ``call(*args)`` raises (failing if it raises none)."""
    with pytest.raises(ValidationError) as caught:
        call(*args)
    return caught.value.messages


# --- the stored envelope ----------------------------------------------------------------------

def test_a_sealed_event_loads_as_itself():
    event = sealed_game_created()
    assert schemas.load_event(event) == event


def test_dump_gives_exactly_the_envelope_fields_in_order():
    event = sealed_game_created() | {"extra": 1}
    assert list(schemas.dump_event(event)) == [
        "type", "game_id", "seq", "time", "actor", "schema_version", "payload", "prev_hash", "hash"]


def test_unknown_type_is_named():
    event = sealed_game_created() | {"type": "NoSuchThing"}
    assert "type" in messages_of(schemas.load_event, event)


def test_payload_errors_name_the_payload_field():
    event = sealed_game_created(seats="five")
    assert messages_of(schemas.load_event, event) == {"payload": {"seats": ["Not a valid integer."]}}


@pytest.mark.parametrize("field, value", [
    ("seq", 0), ("seq", "1"), ("time", 1.5), ("schema_version", 3), ("hash", "abc"),
    ("prev_hash", "not-a-hash"), ("game_id", ""), ("actor", None), ("payload", []),
])
def test_bad_envelope_field_is_named(field, value):
    event = sealed_game_created() | {field: value}
    assert field in messages_of(schemas.load_event, event)


def test_unknown_and_missing_envelope_fields_are_errors():
    event = sealed_game_created() | {"colour": "red"}
    del event["hash"]
    assert set(messages_of(schemas.load_event, event)) == {"colour", "hash"}


# --- payload schemas --------------------------------------------------------------------------

def test_every_registered_type_gets_a_payload_schema():
    for name in catalog.TYPES:
        assert schemas.payload_schema(name) is schemas.payload_schema(name)


def test_payload_schema_is_rebuilt_when_a_type_is_redefined(define_event_type):
    define_event_type("TestRedefined", {"a": "int"})
    first = schemas.payload_schema("TestRedefined")
    del catalog.TYPES["TestRedefined"]
    define_event_type("TestRedefined", {"b": "str"})
    assert schemas.payload_schema("TestRedefined") is not first
    schemas.check_payload("TestRedefined", {"b": "x"})


def test_optional_fields_may_be_missing_or_null(all_kinds):
    payload = valid_all_kinds() | {"opt_int": None, "opt_dict": {"a": 1}}
    assert schemas.payload_schema("TestAllKinds").load(payload) == payload
    schemas.check_payload("TestAllKinds", payload)


def test_required_missing_null_and_unknown_fields_are_named(all_kinds):
    payload = valid_all_kinds() | {"req_int": None, "surprise": 1}
    del payload["req_str"]
    expected = {"req_str": ["Missing data for required field."], "req_int": ["Field may not be null."],
                "surprise": ["Unknown field."]}
    assert messages_of(schemas.payload_schema("TestAllKinds").load, payload) == expected
    assert messages_of(schemas.check_payload, "TestAllKinds", payload) == expected


@pytest.mark.parametrize("kind, sample", list(itertools.product(KINDS, SAMPLES)))
def test_fast_check_agrees_with_the_marshmallow_schema(all_kinds, kind, sample):
    payload = valid_all_kinds() | {f"req_{kind}": SAMPLES[sample]}
    try:
        schemas.payload_schema("TestAllKinds").load(payload)
        slow = None
    except ValidationError as err:
        slow = err.messages
    try:
        schemas.check_payload("TestAllKinds", payload)
        fast = None
    except ValidationError as err:
        fast = err.messages
    assert fast == slow


@pytest.mark.parametrize("kind, sample", [
    ("int", "int-like-text"), ("int", "bool"), ("int", "float"), ("str", "bytes"), ("bool", "int"),
    ("list", "tuple"), ("list", "set"), ("dict", "int-keys"), ("any", "nan"), ("any", "nested-bad"),
    ("any", "object"), ("any", "none"),
])
def test_values_that_would_not_survive_json_are_refused(all_kinds, kind, sample):
    payload = valid_all_kinds() | {f"req_{kind}": SAMPLES[sample]}
    assert f"req_{kind}" in messages_of(schemas.check_payload, "TestAllKinds", payload)


@pytest.mark.parametrize("kind, sample", [
    ("int", "big-int"), ("str", "empty-text"), ("list", "list"), ("dict", "dict"), ("any", "float"),
    ("any", "list"),
])
def test_json_values_of_the_right_kind_pass(all_kinds, kind, sample):
    schemas.check_payload("TestAllKinds", valid_all_kinds() | {f"req_{kind}": SAMPLES[sample]})


# --- what the store checks before sealing -----------------------------------------------------

def test_emitted_event_with_unknown_type_raises_unknown_event_type():
    with pytest.raises(UnknownEventType, match="NoSuchThing"):
        schemas.validate_emitted({"type": "NoSuchThing", "payload": {}})


@pytest.mark.parametrize("change, field", [
    ({"actor": 7}, "actor"), ({"time": 1.5}, "time"), ({"seq": 3}, "seq"), ({"payload": []}, "payload"),
])
def test_emitted_event_errors_are_named(change, field):
    event = {"type": "GameCreated", "actor": "system", "time": 1,
             "payload": {"ruleset": "base", "options": {}, "seats": 3, "seed": "s", "format": 2}} | change
    assert field in messages_of(schemas.validate_emitted, event)


def test_validating_an_emitted_event_is_cheap():
    event = {"type": "GameCreated", "actor": "system", "time": 1700000000000,
             "payload": {"ruleset": "base", "options": {"timers": {"deal": 30, "decide": 60}}, "seats": 5,
                         "seed": "abc" * 10, "format": 2, "setup": {"colors": ["red", "blue", "green", "yellow", "purple"]}}}
    runs = 2000
    best = min(timeit.repeat(lambda: schemas.validate_emitted(event), number=runs, repeat=5)) / runs
    assert best < 50e-6, f"validating one event took {best * 1e6:.1f} µs"


# --- older schema versions: upcast, never rewritten ---------------------------------------------

def test_a_game_created_of_version_1_loads_as_a_stream_of_format_1():
    body = {"ruleset": "mayfair", "options": {}, "seats": 3, "seed": "s"}
    event = {"type": "GameCreated", "actor": "system", "time": 1, "payload": body}
    stored = seal([event], "g1", 0, "", lambda name: 1)[0]
    loaded = schemas.load_event(stored)
    assert loaded["schema_version"] == 1 and loaded["payload"] == body  # read as it was stored
    assert upcast("GameCreated", 1, body) == {**body, "format": 1}


def test_a_version_this_server_cannot_read_is_named():
    event = sealed_game_created() | {"schema_version": 3}
    assert "newer server" in messages_of(schemas.load_event, event)["schema_version"][0]
    with pytest.raises(CannotUpcast):
        upcast("Passed", 0, {"player": "red", "window": "start"})
