"""HTTP errors: every refusal is ``{"error": {"code", "message"}}`` with a status by code.

No message echoes what the client sent: a value is quoted at most :data:`..ops.security.QUOTE_CHARS`
characters long, and a whole message is cut at :data:`MAX_MESSAGE_CHARS`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from ..ops.ratelimit import RateLimited
from ..ops.security import quote
from ..protocol.incoming import ProtocolError

log = logging.getLogger("ubongo.server")

#: the status of a refusal by its code (any other: 422)
HTTP_STATUS = {
    "bad_token": 401,
    "no_account": 404,
    "no_room": 404,
    "no_game": 404,
    "no_edition": 404,
    "not_found": 404,
    "bad_method": 405,
    "no_help": 403,
    "room_full": 409,
    "already_seated": 409,
    "already_waiting": 409,
    "left_queue": 409,
    "room_locked": 409,
    "game_running": 409,
    "name_taken": 409,
    "follow_limit": 409,
    "already_challenged": 409,
    "no_challenge": 404,
    "challenge_gone": 409,
    "no_arena": 404,
    "no_task": 404,
    "arena_over": 409,
    "not_joined": 409,
    "no_puzzle": 404,
    "own_puzzle": 403,
    "not_played": 403,
    "already_played": 409,
    "puzzle_limit": 429,
    "no_pack": 404,
    "not_your_pack": 403,
    "bad_game": 422,
    "name_reserved": 422,  # the name itself, whoever asks for it
    "too_large": 413,
    "rate_limited": 429,
    "playban": 429,
    "unavailable": 503,
}

#: the longest error message an HTTP answer carries
MAX_MESSAGE_CHARS = 200


class ErrorResponse(JSONResponse):
    """A refusal's answer, which keeps its ``code`` (for the metrics) beside the body."""

    def __init__(self, status: int, e: ProtocolError) -> None:
        message = e.message if len(e.message) <= MAX_MESSAGE_CHARS else e.message[:197] + "..."
        headers = {"Retry-After": e.retry_after_header} if isinstance(e, RateLimited) else None
        body = {"error": {"code": e.code, "message": message}}
        super().__init__(body, status_code=status, headers=headers)
        self.code = e.code


def error_response(status: int, e: ProtocolError) -> ErrorResponse:
    """The response for one refusal (a rate limit's says when to come back: ``Retry-After``)."""
    return ErrorResponse(status, e)


async def protocol_error(_request: Request, e: Exception) -> Response:
    assert isinstance(e, ProtocolError)
    return error_response(HTTP_STATUS.get(e.code, 422), e)


async def validation_error(_request: Request, e: Exception) -> Response:
    assert isinstance(e, ValidationError)
    return error_response(422, ProtocolError("bad_message", str(e.errors()[0]["msg"])))


async def request_error(_request: Request, e: Exception) -> Response:
    # a body, query or path value FastAPI refused: the protocol's error, not FastAPI's own;
    # a location can be a key the client made up: quoted short like any value
    assert isinstance(e, RequestValidationError)
    first = e.errors()[0]
    parts = [str(part) for part in first["loc"][1:]] or [str(first["loc"][0])]
    where = ".".join(p if len(p) <= 24 else quote(p, 24) for p in parts)
    return error_response(422, ProtocolError("bad_message", f"{where}: {first['msg']}"))


async def http_error(request: Request, e: Exception) -> Response:
    # Starlette's own refusals (no such method on a route, a body it could not read)
    assert isinstance(e, HTTPException)
    if e.status_code == 405:
        refusal = ProtocolError("bad_method", f"{request.method} is not allowed here")
    elif e.status_code == 404:
        refusal = ProtocolError("not_found", "no such route")
    else:
        refusal = ProtocolError("bad_message", "the request could not be read")
    return error_response(e.status_code if e.status_code < 500 else 400, refusal)


async def rooms_unreachable(_request: Request, e: Exception) -> Response:
    # the rooms this process runs go on; what needs them elsewhere waits until they are back
    log.warning("Redis is unreachable: %s", e)
    return error_response(503, ProtocolError("unavailable", "rooms are unreachable; try again"))


Handler = Callable[[Request, Exception], Awaitable[Response]]


def counted(handler: Handler) -> Handler:
    """``handler``, its refusals counted by code in the app's metrics (``/metrics``)."""

    async def answer(request: Request, e: Exception) -> Response:
        response = await handler(request, e)
        metrics = getattr(request.app.state, "metrics", None)
        if metrics is not None and isinstance(response, ErrorResponse):
            metrics.errors.labels(code=response.code).inc()
        return response

    return answer


def install(app: FastAPI, unreachable: tuple[type[Exception], ...] = ()) -> None:
    """Answer refusals, malformed bodies, and (``unreachable``) the exceptions that mean the
    rooms cannot be reached right now; each is counted by its code."""
    app.add_exception_handler(ProtocolError, counted(protocol_error))
    app.add_exception_handler(ValidationError, counted(validation_error))
    app.add_exception_handler(RequestValidationError, counted(request_error))
    app.add_exception_handler(HTTPException, counted(http_error))
    for exc in unreachable:
        app.add_exception_handler(exc, counted(rooms_unreachable))
