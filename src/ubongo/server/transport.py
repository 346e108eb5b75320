"""A read deadline for HTTP requests: a request must have arrived whole within a few seconds.

uvicorn closes a keep-alive connection that stays idle, but not one that is in the middle of a
request: a client that sends its headers (or its body) a byte at a time, or opens a connection
and says nothing, keeps it for ever (slowloris). :func:`deadline_protocol` makes uvicorn's
HTTP protocol close such connections: from the connection's start, or the first byte of its
next request, the request's headers and body have ``seconds`` to arrive; a WebSocket upgrade
ends the deadline (the socket then has its own: ``hello`` in time, ping timeouts).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class DeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that closes a connection whose request has not arrived
    whole within ``seconds``."""

    seconds: float = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.abort()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # a new request begins: it has ``seconds`` to arrive
        super().data_received(data)

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def deadline_protocol(seconds: float) -> type[DeadlineProtocol]:
    """:class:`DeadlineProtocol` with a read deadline of ``seconds`` per request (give it to
    ``uvicorn.run(http=...)``)."""
    return type("DeadlineProtocol", (DeadlineProtocol,), {"seconds": seconds})
