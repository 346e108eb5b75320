"""The server's log lines: JSON, one object a line, when the output is a file or a pipe (what a
log collector reads); readable text at a terminal. Every line carries what it is about when
that is known: the ``request_id`` of the HTTP request or WebSocket it comes from, the ``room``
code and the ``account`` id (never a token). uvicorn's own lines go the same way.

The values are bound with :mod:`structlog.contextvars` by :class:`RequestLog` (the request id),
the WebSocket gateway (the room, for the message it handles) and the bearer dependency (the
account); the standard library's loggers are kept, so modules log as before
(``log.warning("room %s: ...", code)``).

No line carries a secret: an invite key in a path (``/api/rooms/<key>``, what uvicorn's access
log writes) keeps its room code and loses the rest (:func:`redact`).
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, Literal

import structlog
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import strong_random

LogFormat = Literal["auto", "json", "text"]

#: uvicorn's loggers: their lines are formatted like ours instead of by uvicorn's own handlers
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")


#: an invite key (a room's 5-letter code and a 21-letter secret, in any case) as a path segment
#: or query value; the secret is what is dropped
INVITE_KEY = re.compile(r"(?<=[/=])([A-Za-z0-9]{5})[A-Za-z0-9]{21}(?=[/?&#\s\"']|$)")


def redact(text: str) -> str:
    """``text`` without the secrets of the invite keys in it.

    >>> redact('"GET /api/rooms/K7QXBMN2345678923456789234/seats HTTP/1.1" 200')
    '"GET /api/rooms/K7QXB.../seats HTTP/1.1" 200'
    >>> redact("GET /api/rooms/K7QXB")
    'GET /api/rooms/K7QXB'
    """
    return INVITE_KEY.sub(r"\1...", text)


class Redact(logging.Filter):
    """Takes the invite keys out of every line's message and arguments before it is written."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def configure(level: str = "info", fmt: LogFormat = "auto") -> None:
    """Send every log line (ours and uvicorn's) to standard error, as JSON lines or text
    (``auto``: text at a terminal, JSON otherwise)."""
    json_lines = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer(ensure_ascii=False)
        if json_lines
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    last: list[Any] = [structlog.stdlib.ProcessorFormatter.remove_processors_meta]
    if json_lines:  # a crash's traceback as text in the line's "exception" field
        last.append(structlog.processors.format_exc_info)
    last.append(renderer)
    formatter = structlog.stdlib.ProcessorFormatter(foreign_pre_chain=shared, processors=last)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    handler.addFilter(Redact())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True


def new_request_id() -> str:
    return strong_random.token_hex(6)


class RequestLog:
    """Outermost middleware: each HTTP request and WebSocket gets a ``request_id`` (bound for
    its log lines and answered as ``X-Request-Id``); each HTTP answer is counted by route and
    status class in the app's metrics."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = new_request_id()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)["x-request-id"] = request_id
            await send(message)

        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            structlog.contextvars.clear_contextvars()
            metrics = getattr(scope["app"].state, "metrics", None)
            if scope["type"] == "http" and metrics is not None and status:
                route = scope.get("route")
                path = getattr(route, "path", None) or "unmatched"
                metrics.requests.labels(route=path, status=f"{status // 100}xx").inc()
