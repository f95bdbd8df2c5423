"""About the service: health, the OpenAPI contract, the catalogue of powers and edicts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response

from app.http import json_response, runtime
from app.problems import problem_response

bp = Blueprint("meta", __name__)
SPEC = Path(__file__).resolve().parent.parent.parent / "openapi.yaml"


@bp.get("/health")
def health():
    """Whether the service can reach its Redis."""
    rt = runtime()
    try:
        rt.redis.ping()
    except Exception:  # any failure to answer means unhealthy, whatever the client raised
        return problem_response(503, "service-unavailable", "the game store is not answering")
    return json_response({"status": "ok", "storage": "ok", "mode": "embedded" if rt.settings.embedded else "redis"},
                         headers={"Cache-Control": "no-store"})


@bp.get("/openapi.yaml")
def openapi():
    """The HTTP contract of this service (OpenAPI 3.1)."""
    return Response(_spec_text(), mimetype="application/yaml")


@cache
def _spec_text() -> str:
    return SPEC.read_text(encoding="utf-8")


@bp.get("/catalogue")
def catalogue():
    """Every power (with its flares and provenance), every edict, and the game options."""
    return json_response(_catalogue(), headers={"Cache-Control": "public, max-age=300"})


@cache
def _catalogue() -> dict:
    from engine import catalog, options
    described = catalog.describe()
    described["options"] = options.describe()
    described["rulesets"] = list(options.RULESETS)
    return described
