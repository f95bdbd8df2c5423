"""15.21: the events the API sends are described in openapi.yaml, one schema per type, kept equal to the catalogue.

The schemas are generated from events/vocabulary.py (`app.generated_schemas`); these tests fail
when the catalogue gains, loses or changes a type and the spec was not regenerated, and
check what the server really sends against them (the log, the live feed), as each kind of
reader sees it.
"""

from __future__ import annotations

import pytest

from app import generated_schemas
from events import catalog
from tests.app.conftest import ADMIN, sse_messages, whole_log
from tests.app.test_openapi import conforms


def test_the_spec_holds_the_generated_schemas_the_catalogue_gives(spec):
    text = generated_schemas.SPEC.read_text(encoding="utf-8")
    assert generated_schemas.current_block(text) == generated_schemas.block(), \
        "openapi.yaml's event schemas differ from the catalogue: run python -m app.generated_schemas --write"
    schemas = spec["components"]["schemas"]
    union = schemas["Event"]
    assert [ref["$ref"].rsplit("/", 1)[-1] for ref in union["oneOf"]] == [f"{name}Event" for name in catalog.TYPES]
    assert union["discriminator"]["propertyName"] == "type"
    for name, etype in catalog.TYPES.items():
        schema = schemas[f"{name}Event"]
        assert schema["properties"]["type"] == {"const": name}
        assert set(schema["properties"]["payload"]["properties"]) == set(etype.fields)


def test_a_new_event_type_in_the_catalogue_is_caught_until_the_spec_is_regenerated(define_event_type, tmp_path):
    spec_copy = tmp_path / "openapi.yaml"
    spec_copy.write_text(generated_schemas.SPEC.read_text(encoding="utf-8"), encoding="utf-8")
    define_event_type("TestSomethingHappened", {"player": "str", "cards": "list", "note": "str?"},
                      private={"cards": ("player",)})
    assert generated_schemas.main(["--spec", str(spec_copy)]) == 1
    assert generated_schemas.main(["--spec", str(spec_copy), "--write"]) == 0
    import yaml
    written = yaml.safe_load(spec_copy.read_text(encoding="utf-8"))["components"]["schemas"]
    assert written["TestSomethingHappenedEvent"]["properties"]["payload"] == {
        "type": "object", "additionalProperties": False, "required": ["player", "cards"],
        "properties": {"player": {"type": "string"}, "cards": {"type": "array", "items": {}},
                       "note": {"type": ["string", "null"]}}}
    assert generated_schemas.main(["--spec", str(spec_copy)]) == 0


@pytest.mark.parametrize("kind, private, expected", [
    ("str", False, {"type": "string"}), ("int?", False, {"type": ["integer", "null"]}),
    ("dict", True, {"type": ["object", "null"]}), ("list", True, {"type": "array", "items": {}}), ("any", False, {}),
    ("bool?", True, {"type": ["boolean", "null"]})])
def test_field_kinds_become_json_schema_types(kind, private, expected):
    """A private field may be hidden: a hidden value is null, a hidden list keeps its length with nulls."""
    assert generated_schemas.field_schema(kind, private) == expected


def test_every_event_served_fits_the_spec_for_every_reader(client, api_game, spec):
    game = api_game(seats=3, seed="event-schemas", moves=250)
    readers = {"anonymous": ({}, {}), "a seat": (game.as_("red"), {}),
               "the admin": (ADMIN, {"include_internal": "true"})}
    types_seen = set()
    for reader, (headers, params) in readers.items():
        events = whole_log(client, game.id, headers, **params)
        assert events, reader
        for event in events:
            assert conforms(spec, "Event", event) == [], (reader, event)
            types_seen.add(event["type"])
        streamed = client.get(game.url("/stream"), query_string={"timeout": 0.5}, headers=headers).get_data(as_text=True)
        for message in sse_messages(streamed):
            if message["event"] != "end":
                assert conforms(spec, "Event", message["data"]) == [], (reader, message)
    assert {"GameCreated", "CardsMoved", "TokensMoved", "ChallengeCardChosen"} <= types_seen
