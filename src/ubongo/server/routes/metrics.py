"""``/metrics``: the server's figures in the Prometheus text format (:mod:`..ops.metrics`), for the
operator's scraper. Only clients on this machine or a private network may read it: the
figures are not secret, but an operator decides who watches (``docs/operations.md``)."""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request, Response

from ..ops.metrics import Metrics
from ..protocol.incoming import ProtocolError

router = APIRouter()

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _private(host: str | None) -> bool:
    try:
        address = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    return address.is_loopback or address.is_private


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The figures of this process (``not_found`` from a public address)."""
    if not _private(request.client.host if request.client else None):
        raise ProtocolError("not_found", "no such route")
    found: Metrics = request.app.state.metrics
    return Response(found.render(), media_type=CONTENT_TYPE)
