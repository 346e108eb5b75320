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
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


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
        # the socket now belongs to the WebSocket protocol and this object is dropped; its
        # parser holds its callbacks (bound methods of this object), a cycle that only a full
        # collection would free, with the transport it holds. uvicorn breaks the same cycle
        # in connection_lost, which an upgraded connection never reaches here.
        self.parser = None  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def deadline_protocol(seconds: float) -> type[DeadlineProtocol]:
    """:class:`DeadlineProtocol` with a read deadline of ``seconds`` per request (give it to
    ``uvicorn.run(http=...)``)."""
    return type("DeadlineProtocol", (DeadlineProtocol,), {"seconds": seconds})


class ReleasingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that lets go of its memory as soon as its connection is lost.

    websockets' protocol object and its parser (a suspended generator that holds the protocol)
    form a reference cycle, with the compression state of the connection in it: only a full
    collection of the garbage collector frees it, and the server runs one rarely (a full
    collection walks every object of every room). Every player who came and went left about
    45 KiB behind until then (docs/performance.md, "Memory"). Closing the parser when the
    connection is lost breaks the cycle, so that the connection is freed with its last
    reference. Nothing parses after that: the socket is gone, and uvicorn refuses to send on a
    lost connection."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.conn.parser.close()
