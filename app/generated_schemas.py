"""The schemas of openapi.yaml that the code defines: events (from `events.catalog`) and game options.

Every event type the catalogue defines gets a JSON Schema in ``components.schemas``, named
``<Type>Event`` (``GameCreatedEvent``): the envelope fields, ``type`` fixed to the type's
name and its payload's fields with their kinds (``str`` -> string, ``int`` -> integer, ...;
a trailing ``?`` makes a field optional and nullable). A private field (see
`events.redaction`) may be hidden from the reader: a hidden value is null, a hidden list
keeps its length with nulls, so a private field that is not a list is nullable too.
``Event`` is the ``oneOf`` of them all, discriminated by ``type``: what ``GET
/games/{id}/events``, each ``data:`` of the live feed and each webhook delivery carry.
``DeliverableEventType`` lists the types a webhook may ask for (not engine bookkeeping).
``Options`` describes every game option of `engine.options` with its type and range.

The schemas sit in openapi.yaml between two marker comments, so the document stays one
file that people read. ``python -m app.generated_schemas`` says whether they match the
code (exit status 1 when not); ``--write`` rewrites the block. A test
(tests/app/test_generated_schemas.py) fails when they differ, so a new, changed or removed
event type or option cannot reach the spec unnoticed: change the code, run ``--write``,
commit both.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from events import catalog

SPEC = Path(__file__).resolve().parent.parent / "openapi.yaml"
BEGIN = ("    # --- generated from events/vocabulary.py and engine/options.py by `python -m app.generated_schemas --write`:"
         " do not edit by hand ---")
END = "    # --- end of the generated schemas ---"
INDENT = "    "

KINDS = {"str": "string", "int": "integer", "bool": "boolean", "list": "array", "dict": "object"}

ENVELOPE = {
    "game_id": {"type": "string"},
    "seq": {"type": "integer", "minimum": 1, "description": "1, 2, 3, ... without gaps, per game."},
    "time": {"type": "integer", "description": "When the command that made it ran (ms since the epoch)."},
    "actor": {"type": "string", "description": "Who made it happen: a colour, `admin`, `timer`, `system`."},
    "schema_version": {"type": "integer", "minimum": 1},
}
TEXT = {
    "text": {"type": "string",
             "description": "The event told in a sentence, in the words of the game's edition and as this reader may "
                            "see it (a card hidden from the reader is `a card`): projections/sentences.py. In every "
                            "log page, live feed message, webhook delivery and redacted export; not part of the stored event."},
}
HASHES = {
    "prev_hash": {"type": "string", "description": "Admin only: the hash of the event before."},
    "hash": {"type": "string", "description": "Admin only: SHA-256 of the envelope (events/envelope.py)."},
    "end": {"type": "boolean", "enum": [True],
            "description": "Present (true) on the last event of each command: the game waits for a decision at "
                           "this version. Absent on the others, and on every event of games stored before stream "
                           "format 2 (docs/events.md)."},
}


def schema_name(type_name: str) -> str:
    """The name of an event type's schema in ``components.schemas``."""
    return f"{type_name}Event"


def field_schema(kind: str, private: bool) -> dict:
    """The JSON Schema of one payload field of a catalogue kind (``str``, ``int?``, ...)."""
    optional = kind.endswith("?")
    base = kind.rstrip("?")
    if base == "any":
        return {}
    nullable = optional or (private and base != "list")
    schema = {"type": [KINDS[base], "null"] if nullable else KINDS[base]}
    if base == "list":
        schema["items"] = {}  # any JSON value (a hidden item is null); generated clients need `items` stated
    return schema


def event_schema(etype: catalog.EventType) -> dict:
    """The JSON Schema of one event type, as the API sends it."""
    payload_properties = {name: field_schema(kind, name in etype.private) for name, kind in etype.fields.items()}
    payload = {"type": "object", "additionalProperties": False}
    required_fields = [name for name, kind in etype.fields.items() if not kind.endswith("?")]
    if required_fields:
        payload["required"] = required_fields
    payload["properties"] = payload_properties
    description = etype.doc
    if etype.internal:
        description += " Engine bookkeeping: only in the admin's log, with `include_internal=true`."
    return {
        "type": "object",
        "description": description,
        "required": ["type", *ENVELOPE, "payload"],
        "properties": {"type": {"const": etype.name}, **ENVELOPE, "payload": payload, **TEXT, **HASHES},
        "additionalProperties": False,
    }


def options_schema() -> dict:
    """The game options (`engine.options.OPTIONS`): each one's type, range and meaning; no others."""
    from engine.options import OPTIONS
    properties = {}
    for name, (kind, default, allowed, meaning) in OPTIONS.items():
        if kind is bool:
            prop = {"type": "boolean"}
        elif kind is int:
            prop = {"type": "integer" if default is not None else ["integer", "null"],
                    "minimum": allowed[0], "maximum": allowed[1]}
        elif kind is dict:  # hand_over_after: {"missed": N, "level": a bot level}
            prop = {"type": ["object", "null"], "additionalProperties": False, "required": ["missed", "level"],
                    "properties": {"missed": {"type": "integer", "minimum": allowed[0], "maximum": allowed[1]},
                                   "level": {"$ref": "#/components/schemas/BotLevel"}}}
        else:
            prop = {"type": ["array", "null"], "items": {"type": "string"}}
        properties[name] = {**prop, "default": default, "description": meaning}
    return {"type": "object", "additionalProperties": False,
            "description": "Game options (also listed by `GET /catalogue`); a name not listed here is refused.",
            "properties": properties}


def generated() -> dict:
    """Every generated schema: ``Event`` (the union), one per event type in the catalogue's order, the
    deliverable event types and the options."""
    names = list(catalog.TYPES)
    union = {
        "description": (
            "One stored event as the reader may see it (private fields hidden: a hidden value is null, a hidden "
            "list keeps its length with nulls; `hash`/`prev_hash` for the admin only), one schema per `type`. "
            "Generated from the event catalogue (events/vocabulary.py)."),
        "oneOf": [{"$ref": f"#/components/schemas/{schema_name(name)}"} for name in names],
        "discriminator": {"propertyName": "type",
                          "mapping": {name: f"#/components/schemas/{schema_name(name)}" for name in names}},
    }
    deliverable = {"type": "string", "description": "An event type a webhook subscription may ask for.",
                   "enum": [name for name in names if not catalog.TYPES[name].internal]}
    return {"Event": union, **{schema_name(name): event_schema(catalog.TYPES[name]) for name in names},
            "DeliverableEventType": deliverable, "Options": options_schema()}


class _Flow(dict):
    """A mapping written on one line (``{type: string}``)."""


class _FlowList(list):
    """A list written on one line (``[a, b]``)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Flow, lambda dumper, data: dumper.represent_mapping(
    "tag:yaml.org,2002:map", data.items(), flow_style=True))
_Dumper.add_representer(_FlowList, lambda dumper, data: dumper.represent_sequence(
    "tag:yaml.org,2002:seq", data, flow_style=True))


def _flow_leaves(value):
    """Mappings whose values are all scalars (or lists of scalars) on one line; the rest one key a line."""
    if isinstance(value, dict):
        if all(not isinstance(v, dict | list) or (isinstance(v, list) and not any(isinstance(i, dict) for i in v))
               for v in value.values()):
            return _Flow(value)
        return {key: _flow_leaves(item) for key, item in value.items()}
    if isinstance(value, list):
        items = [_flow_leaves(item) for item in value]
        return items if any(isinstance(item, dict) for item in value) else _FlowList(items)
    return value


def block() -> str:
    """The generated schemas as the lines openapi.yaml holds between the markers."""
    text = yaml.dump(_flow_leaves(generated()), Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                     width=110, allow_unicode=True)
    return "\n".join([BEGIN, *(INDENT + line for line in text.splitlines()), END])


def current_block(spec_text: str) -> str:
    """The block between the markers in the spec's text (ValueError when the markers are missing)."""
    start, end = spec_text.find(BEGIN), spec_text.find(END)
    if start < 0 or end < start:
        raise ValueError("openapi.yaml lacks the markers of the generated schemas")
    return spec_text[start:end + len(END)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Check (or --write) the generated schemas of openapi.yaml.")
    parser.add_argument("--write", action="store_true", help="rewrite the generated block from the catalogue")
    parser.add_argument("--spec", type=Path, default=SPEC)
    args = parser.parse_args(argv)
    text = args.spec.read_text(encoding="utf-8")
    fresh = block()
    if current_block(text) == fresh:
        print(f"{args.spec}: the generated schemas match the code ({len(catalog.TYPES)} event types)")
        return 0
    if not args.write:
        print(f"{args.spec}: the generated schemas differ from the code; run python -m app.generated_schemas --write",
              file=sys.stderr)
        return 1
    args.spec.write_text(text.replace(current_block(text), fresh), encoding="utf-8")
    print(f"{args.spec}: generated schemas written ({len(catalog.TYPES)} event types)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
