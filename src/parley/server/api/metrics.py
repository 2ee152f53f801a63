"""`/metrics`: the server's figures for Prometheus (see `parley.server.metrics`)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from .. import metrics
from .deps import ServicesDep

router = APIRouter(tags=["meta"])


@router.get("/metrics", include_in_schema=False)
async def exposition(request: Request, svc: ServicesDep) -> Response:
    """The figures in Prometheus's text format; 404 unless allowed (docs/deployment.md)."""
    settings = svc.settings
    client = request.client.host if request.client else None
    headers = request.headers
    forwarded = "x-forwarded-for" in headers or "forwarded" in headers
    if not metrics.allowed(
        settings.metrics_token,
        settings.metrics_loopback,
        client,
        headers.get("authorization"),
        forwarded,
    ):
        body = b'{"error":"not_found","message":"no such page"}'
        return Response(status_code=404, content=body, media_type="application/json")
    body, kind = metrics.exposition()
    return Response(content=body, media_type=kind)
