"""About the service: health, the OpenAPI contract, the catalogue of powers and edicts."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response

from app import schemas
from app.http import json_response, query, runtime
from app.problems import problem_response

bp = Blueprint("meta", __name__)
HEALTH_RETRY_AFTER = 1  # seconds: a balancer or a client looks again this soon
SPEC = Path(__file__).resolve().parent.parent.parent / "openapi.yaml"


@bp.get("/health")
def health():
    """Whether the service can reach its Redis."""
    rt = runtime()
    try:
        rt.redis.ping()
    except Exception:  # any failure to answer means unhealthy, whatever the client raised
        return problem_response(503, "service-unavailable", "the game store is not answering",
                                {"Retry-After": str(HEALTH_RETRY_AFTER), "Cache-Control": "no-store"})
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
    """Every power (with its flares and provenance), every edict, and the game options; with
    ``?ruleset=``, what a game of that edition may hold, in its words."""
    ruleset = query(schemas.CATALOGUE_QUERY).get("ruleset")
    # a phone keeps it an hour and may use it a day longer while it asks again; the ETag makes that ask a 304
    return json_response(_catalogue(ruleset),
                         headers={"Cache-Control": "public, max-age=3600, stale-while-revalidate=86400"})


@cache
def _catalogue(ruleset: str | None) -> dict:
    from projections.catalogue import describe
    return describe(ruleset)
