"""``GET /metrics``: the service's metrics in the Prometheus text format (workers/metrics.py), for the admin."""

from __future__ import annotations

from flask import Blueprint, Response

from app.auth import require_admin_token
from app.routes.common import caller
from workers import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def exposition():
    """Every metric of every process of this API (gunicorn's workers added up); admin token only."""
    require_admin_token(caller(None))
    return Response(metrics.exposition(), mimetype=None, content_type=metrics.CONTENT_TYPE,
                    headers={"Cache-Control": "no-store"})
