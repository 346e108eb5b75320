"""What every HTTP answer and WebSocket handshake goes through before the routes: the body
limit, the security headers, the WebSocket ``Origin`` check (docs/server.md, "Security").

Both middlewares are plain ASGI (no ``BaseHTTPMiddleware``): the body limit counts bytes as
they arrive, so a body over the limit is refused after at most one chunk past it, whether or
not it declared a ``Content-Length``, and is never held in memory whole.

>>> origin_allowed(None, "ubongo.example.org", ())
True
>>> origin_allowed("https://ubongo.example.org", "ubongo.example.org", ())
True
>>> origin_allowed("https://evil.example", "ubongo.example.org", ())
False
>>> origin_allowed("https://evil.example", "ubongo.example.org", ("https://evil.example",))
True
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the longest piece of a client's value an error message quotes
QUOTE_CHARS = 32


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """A client's value for an error message: its ``repr``, cut to ``limit`` characters, so
    that no answer echoes what it was sent.

    >>> quote("K7QX")
    "'K7QX'"
    >>> quote("A" * 5000)
    "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...'"
    """
    text = str(value)
    if len(text) <= limit - 2:
        return repr(text)
    return repr(text[: limit - 2] + "...")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case (how browsers send ``Origin``)."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket handshake with this ``Origin`` header may go on: no ``Origin``
    (bots, scripts, the tests' harness: not a browser, so no page of another site), one on
    the same host as the request (any scheme: a TLS proxy in front changes it), or one of
    ``allowed`` (origins, as :func:`origin_of` gives them)."""
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc.lower()
    if host is not None and netloc and netloc == host.lower():
        return True
    return origin_of(origin) in allowed


def content_security_policy(connect: tuple[str, ...] = ()) -> str:
    """The CSP of every answer: the page's scripts, styles, fonts and data come from this
    server only (``connect``: WebSocket origins to allow besides ``'self'``), no inline script,
    no plugin, no framing. ``img-src data:`` is for the inline SVG favicon."""
    directives = {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "font-src": "'self'",
        "connect-src": " ".join(("'self'", *connect)),
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def websocket_origins(public_url: str) -> tuple[str, ...]:
    """``ws://``/``wss://`` of the public URL's host, for ``connect-src`` (browsers that do not
    count ``ws:`` of the page's own host as ``'self'``)."""
    parts = urlsplit(public_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return (f"{scheme}://{parts.netloc}".lower(),) if parts.netloc else ()


class SecurityHeaders:
    """Adds the security headers to every HTTP answer; ``relaxed`` paths (the API docs pages
    of ``--dev``, which load Swagger UI from its CDN with inline scripts) get all but the CSP."""

    def __init__(self, app: ASGIApp, csp: str, relaxed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.relaxed = relaxed
        common = [
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin"),
        ]
        self.headers = [*common, (b"content-security-policy", csp.encode())]
        self.relaxed_headers = common

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.relaxed_headers if scope["path"] in self.relaxed else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                added = [(name, value) for name, value in extra if name not in names]
                message = {**message, "headers": [*message.get("headers", []), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def too_large_body(limit: int) -> bytes:
    """The body of the ``413`` answer (``docs/protocol.md``)."""
    message = f"the request body is over {limit} bytes"
    return json.dumps({"error": {"code": "too_large", "message": message}}).encode()


class BodyLimit:
    """Refuses a request body over ``limit`` bytes with ``413 too_large``: at once if its
    ``Content-Length`` says so, else (chunked, or a length that lies) as soon as the bytes
    received pass the limit; the app then sees the client gone and its answer is dropped."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        received = 0
        refused = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    refused = True
                    if not started:
                        await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 413 has been sent: what the app answers after is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting_receive, guarded_send)

    async def _refuse(self, send: Send) -> None:
        body = too_large_body(self.limit)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    # the rest of the body is not read: the connection cannot be reused
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    """The declared body length; one that is not a number counts as too large."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else 1 << 62
    return None
