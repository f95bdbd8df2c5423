"""openapi.yaml and the app hold each other: same routes and methods; the document is well formed."""

from __future__ import annotations

import re

import pytest

HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


def spec_path(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule)


def app_operations(app) -> set[tuple[str, str]]:
    """(path, method) of every route the app serves (HEAD and OPTIONS are Flask's own)."""
    return {(spec_path(rule.rule), method.lower()) for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}}


def spec_operations(spec) -> set[tuple[str, str]]:
    return {(path, method) for path, item in spec["paths"].items() for method in item if method in HTTP_METHODS}


def test_every_route_is_in_the_spec_and_every_spec_path_is_a_route(app, spec):
    served, documented = app_operations(app), spec_operations(spec)
    assert served - documented == set(), "routes the spec lacks"
    assert documented - served == set(), "spec operations with no route"


def test_the_spec_is_openapi_3_1_with_resolvable_references(spec):
    assert spec["openapi"].startswith("3.1")
    text = repr(spec)
    for ref in set(re.findall(r"'#/components/([a-zA-Z]+)/([A-Za-z0-9_]+)'", text)):
        assert ref[1] in spec["components"][ref[0]], ref


def test_every_operation_documents_its_errors(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation["responses"]
            assert "default" in responses, (path, method)
            assert any(code.startswith("2") for code in responses), (path, method)
            if "{game_id}" in path:
                assert "404" in responses, (path, method)
            if method == "post":
                assert {"400", "415", "413"} <= set(responses), (path, method)
            if operation.get("security") == [{"bearer": []}]:
                assert "401" in responses, (path, method)


def test_the_served_document_is_the_file(client, spec):
    import yaml
    assert yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True)) == spec


def test_every_problem_type_the_app_can_send_is_listed(spec):
    from app.problems import TITLES, TYPE_PREFIX
    problem_type = spec["components"]["schemas"]["Problem"]["properties"]["type"]
    assert "enum" not in problem_type  # an open set: a new type must not break generated clients (15.20)
    assert set(problem_type["examples"]) == {TYPE_PREFIX + slug for slug in TITLES}


def conforms(spec: dict, schema_name: str, document) -> list[str]:
    """Messages for every way ``document`` breaks the spec's ``components.schemas[schema_name]``."""
    import jsonschema
    schema = {"$ref": f"#/components/schemas/{schema_name}", "components": spec["components"]}
    validator = jsonschema.Draft202012Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_the_served_catalogue_fits_its_schema_strictly(client, spec):
    """15.19: provenance is a string, as the server sends it (a generated client parsed an object)."""
    served = client.get("/catalogue").json
    assert conforms(spec, "Catalogue", served) == []
    flare = spec["components"]["schemas"]["CatalogueFlare"]["properties"]["provenance"]
    assert flare == {"$ref": "#/components/schemas/Provenance"}
    assert spec["components"]["schemas"]["Provenance"]["type"] == "string"


def test_every_prompt_served_during_a_game_fits_the_shape_schemas(client, api_game, spec):
    """15.21: option shapes are typed (a generated client gets classes, not untyped dicts)."""
    game = api_game(seats=4, seed="shapes")
    kinds_seen = set()
    for _ in range(150):
        for pending in game.last["pending"]:
            served = client.get(game.url("/prompts"), headers=game.as_(pending["player"])).json
            assert conforms(spec, "Prompts", served) == []
            kinds_seen |= {shape["type"] for p in served["prompts"] for o in p["options"] for shape in o["args"].values()}
        if game.move() is None:
            break
    assert {"choice", "distribution"} <= kinds_seen


def test_public_operations_say_so_and_the_deliveries_are_described(spec):
    """15.23: `security: []` on what needs no token; OpenAPI 3.1's `webhooks` describes what the service POSTs."""
    for path, method in (("/health", "get"), ("/openapi.yaml", "get"), ("/catalogue", "get")):
        assert spec["paths"][path][method]["security"] == []
    delivery = spec["webhooks"]["gameEvent"]["post"]
    headers = {p["name"] for p in delivery["parameters"]}
    from workers import webhooks
    assert webhooks.SIGNATURE_HEADER in headers and "X-Cosmic-Event-Id" in headers
    assert delivery["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Event"}


@pytest.mark.parametrize("spec_name, schema_name", [("CreateGame", "CREATE_GAME"), ("Join", "JOIN"),
                                                     ("Action", "ACTION"), ("CreateWebhook", "CREATE_WEBHOOK")])
def test_the_string_lengths_the_server_enforces_are_in_the_spec(spec, spec_name, schema_name):
    """15.22: a strict client learns from the spec what the server refuses (an empty colour, a long action...)."""
    from marshmallow import fields as mm_fields
    from marshmallow import validate as mm_validate

    from app import schemas
    declared = spec["components"]["schemas"][spec_name]["properties"]
    for name, field in getattr(schemas, schema_name).fields.items():
        lengths = [v for v in field.validators if isinstance(v, mm_validate.Length)]
        if not isinstance(field, mm_fields.String) or not lengths or name not in declared:
            continue
        if "$ref" in declared[name]:  # an enumeration (Colour): every value fits the lengths
            values = spec["components"]["schemas"][declared[name]["$ref"].rsplit("/", 1)[-1]]["enum"]
            assert all(lengths[0].min <= len(v) <= lengths[0].max for v in values), (spec_name, name)
            continue
        assert declared[name].get("minLength") == lengths[0].min, (spec_name, name)
        assert declared[name].get("maxLength") == lengths[0].max, (spec_name, name)


def test_every_request_body_has_examples_that_fit_its_schema(spec):
    """15.23: examples on the operations (schemathesis's first phase sends them too)."""
    import jsonschema
    with_body = 0
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            content = (operation.get("requestBody") or {}).get("content", {}).get("application/json") \
                if isinstance(operation, dict) else None
            if not content or "$ref" not in content["schema"]:
                continue
            with_body += 1
            assert content.get("examples"), (method, path)
            schema = {**content["schema"], "components": spec["components"]}
            for name, example in content["examples"].items():
                errors = list(jsonschema.Draft202012Validator(schema).iter_errors(example["value"]))
                assert errors == [], (method, path, name, [e.message for e in errors])
    assert with_body >= 6


@pytest.mark.parametrize("where", ["If-Match", "Last-Event-ID"])
def test_the_version_headers_patterns_admit_exactly_the_versions_the_server_takes(spec, where):
    """Issue 28 item 4: the pattern admitted 16 digits, above the server's 2^53-1 (9007199254740991)."""
    import random

    from app.http import parse_version_header
    from app.problems import Problem

    if where == "If-Match":
        schema = spec["components"]["parameters"]["IfMatch"]["schema"]
    else:
        schema = next(p["schema"] for p in spec["paths"]["/games/{game_id}/stream"]["get"]["parameters"]
                      if p["name"] == where)
    pattern = re.compile(schema["pattern"])

    def server_takes(value: str) -> bool:
        try:
            parse_version_header(value, where)
        except Problem:
            return False
        return True

    top = 2**53 - 1
    rng = random.Random(28)
    numbers = [0, 1, 12, 10**15 - 1, 10**15, top - 1, top, top + 1, 9099999999999999, 9999999999999999, 10**16]
    numbers += [rng.randrange(top - 10**6, top + 10**6) for _ in range(300)] + [rng.randrange(10**16) for _ in range(300)]
    for number in numbers:
        for text in (str(number), f'"{number}"', f'W/"{number}"', str(number).zfill(16)):
            assert bool(pattern.match(text)) == server_takes(text), text
