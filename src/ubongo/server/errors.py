"""HTTP errors: every refusal is ``{"error": {"code", "message"}}`` with a status by code."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError

from .protocol import ProtocolError
from .ratelimit import RateLimited

log = logging.getLogger("ubongo.server")

#: the status of a refusal by its code (any other: 422)
HTTP_STATUS = {
    "no_room": 404,
    "room_full": 409,
    "room_locked": 409,
    "game_running": 409,
    "rate_limited": 429,
    "unavailable": 503,
}


def error_response(status: int, e: ProtocolError) -> JSONResponse:
    """The response for one refusal (a rate limit's says when to come back: ``Retry-After``)."""
    headers = {"Retry-After": e.retry_after_header} if isinstance(e, RateLimited) else None
    return JSONResponse(
        {"error": {"code": e.code, "message": e.message}}, status_code=status, headers=headers
    )


async def protocol_error(_request: Request, e: Exception) -> Response:
    assert isinstance(e, ProtocolError)
    return error_response(HTTP_STATUS.get(e.code, 422), e)


async def validation_error(_request: Request, e: Exception) -> Response:
    assert isinstance(e, ValidationError)
    return error_response(422, ProtocolError("bad_message", str(e.errors()[0]["msg"])))


async def request_error(_request: Request, e: Exception) -> Response:
    # a body, query or path value FastAPI refused: the protocol's error, not FastAPI's own
    assert isinstance(e, RequestValidationError)
    first = e.errors()[0]
    where = ".".join(str(part) for part in first["loc"][1:]) or str(first["loc"][0])
    return error_response(422, ProtocolError("bad_message", f"{where}: {first['msg']}"))


async def rooms_unreachable(_request: Request, e: Exception) -> Response:
    # the rooms this process runs go on; what needs them elsewhere waits until they are back
    log.warning("Redis is unreachable: %s", e)
    return error_response(503, ProtocolError("unavailable", "rooms are unreachable; try again"))


def install(app: FastAPI, unreachable: tuple[type[Exception], ...] = ()) -> None:
    """Answer refusals, malformed bodies, and (``unreachable``) the exceptions that mean the
    rooms cannot be reached right now."""
    app.add_exception_handler(ProtocolError, protocol_error)
    app.add_exception_handler(ValidationError, validation_error)
    app.add_exception_handler(RequestValidationError, request_error)
    for exc in unreachable:
        app.add_exception_handler(exc, rooms_unreachable)
