"""The room WebSocket ``/ws`` (``docs/protocol.md``), and ``/ws/echo``.

One task reads the client's frames and hands each to the room service with its receive time;
another writes the connection's queue to the socket, so a slow client never holds up a room.
A client that opens too many sockets, says no ``hello`` in time, or does not read what it is
sent is dropped (``docs/server.md``, "Rooms and limits").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from prometheus_client import Counter
from starlette.websockets import WebSocketState

from ..ops.ratelimit import address_key
from ..ops.security import origin_allowed
from ..protocol.incoming import MAX_MESSAGE_BYTES
from ..protocol.outgoing import encode
from ..rooms.connection import CLOSE_SLOW, Connection
from .deps import RoomServiceDep

log = logging.getLogger("ubongo.server")

router = APIRouter()

#: close codes: no ``hello`` in time; too many sockets from one address
CLOSE_NO_HELLO, CLOSE_TOO_MANY = 4002, 4029
#: the kernel's send buffer of a WebSocket (bytes; Linux doubles it): without a bound it
#: grows to megabytes for a client that does not read, before the connection's own queue
#: (``max_queued_messages``) even starts to fill
SEND_BUFFER = 64 * 1024


@router.websocket("/ws")
async def websocket(ws: WebSocket, rooms: RoomServiceDep) -> None:
    """A client's connection: ``hello`` joins a room, then commands and events."""
    address = await admit(ws, rooms)
    if address is None:
        return
    try:
        await ws.accept()
        _bound_send_buffer(ws)
        await _serve(ws, rooms, rooms.connect(ws, address))
    finally:
        rooms.limits.close_socket(address)


async def admit(ws: WebSocket, rooms: RoomServiceDep) -> str | None:
    """The client's address, its socket counted among the address's (the caller closes it
    with ``rooms.limits.close_socket``); None when it is refused: another site's page, or too
    many sockets from its address (the room socket and the notice socket count alike)."""
    if not await same_site(ws):
        return None
    address = address_key(ws.client.host if ws.client else None)
    if not rooms.limits.open_socket(address):
        await refuse(ws, rooms.config.connections_per_address)
        return None
    return address


async def next_frame(ws: WebSocket) -> str | bytes | None:
    """The next frame's text or bytes from a socket that is not a room's (the notice and the
    arena socket); None when the client has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text: str | bytes | None = message.get("text")
    return text if text is not None else message.get("bytes") or b""


async def first_frame(ws: WebSocket, seconds: float) -> str | bytes | None:
    """The hello of a socket that is not a room's, given ``seconds`` to come; None (the socket
    closed with ``CLOSE_NO_HELLO``) when it does not."""
    try:
        raw = await asyncio.wait_for(next_frame(ws), seconds)
    except TimeoutError:
        raw = None
    if raw is None:
        await ws.close(CLOSE_NO_HELLO)
    return raw


async def write_queue(ws: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    """Send what ``queue`` holds, in order; ``None`` ends it (a page that does not read: it is
    closed, and opens a new socket)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while (text := await queue.get()) is not None:
            await ws.send_text(text)
        await ws.close(1013)


async def _serve(ws: WebSocket, rooms: RoomServiceDep, conn: Connection) -> None:
    writer_task = asyncio.create_task(_writer(ws, conn, rooms.metrics.messages_out))
    conn.on_abort = lambda: _abort(ws, writer_task)
    hello_by = rooms.clock.now() + rooms.config.hello_seconds
    try:
        while conn.closing is None:
            if conn.attached:
                message = await ws.receive()
            else:
                # a socket that never says hello costs a file descriptor and memory: it has
                # hello_seconds to do so (other messages before it do not buy time)
                left = hello_by - rooms.clock.now()
                try:
                    message = await asyncio.wait_for(ws.receive(), max(left, 0.001))
                except TimeoutError:
                    conn.close(CLOSE_NO_HELLO)
                    break
            if message["type"] == "websocket.disconnect":
                break
            received_at = rooms.clock.now()
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await rooms.receive(conn, raw, received_at)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:  # the server never goes down because of one connection
        log.exception("websocket handler failed")
    finally:
        rooms.disconnect(conn)
        conn.close(conn.closing or 1000)
        await _end_writer(writer_task)
        conn.on_abort = None  # it holds the writer task: no cycle outlives the socket
        if conn.closing == CLOSE_SLOW:
            log.info("dropped a client that did not read (%d messages waiting)", conn.max_queue)
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def same_site(ws: WebSocket) -> bool:
    """Whether a page of this site (or of an allowed origin) opens the socket, or no browser
    does; another site's page is refused before the handshake (HTTP 403), so that it cannot
    play with its visitor's seat tokens."""
    allowed: tuple[str, ...] = ws.app.state.allowed_origins
    if origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), allowed):
        return True
    await ws.close(code=1008)
    return False


async def refuse(ws: WebSocket, limit: int) -> None:
    """Too many sockets from this address: say so, and close (code 4029)."""
    await ws.accept()
    with contextlib.suppress(Exception):
        message = f"at most {limit} connections from one address; close one and try again"
        await ws.send_text(
            encode({"type": "error", "code": "rate_limited", "message": message, "ref": None})
        )
        await ws.close(CLOSE_TOO_MANY)


async def _end_writer(writer_task: asyncio.Task[None]) -> None:
    """Let the writer send what is queued (2 s at most), then end it, whatever its end was.

    Waited for with :func:`asyncio.wait`, which never raises the task's own end: the writer of
    a client that does not read was cancelled (:func:`_abort`), and awaiting it directly
    raised its ``CancelledError`` in this handler, which uvicorn logged as a failed request
    with a 5 KB traceback for every dropped client (issue #23: one info line is enough)."""
    await asyncio.wait({writer_task}, timeout=2.0)
    writer_task.cancel()
    if writer_task.done() and not writer_task.cancelled():
        # retrieved, so that asyncio does not log it when the task is collected: the writer
        # ends quietly on a gone client, and anything else is of no use once the socket is
        writer_task.exception()


def _abort(ws: WebSocket, writer_task: asyncio.Task[None]) -> None:
    """Drop a client that does not read: its writer waits on a full socket for ever, and a
    close frame would queue behind it, so the TCP connection itself is aborted (the reader
    then sees the disconnect and the room forgets the connection)."""
    writer_task.cancel()
    abort = _transport_abort(ws)
    if abort is not None:
        abort()


def _transport(ws: WebSocket) -> object:
    """The TCP transport under ``ws`` (``None`` if it cannot be found): the ASGI server's
    protocol object owns the ``receive`` it handed the app (uvicorn's WebSocket protocols
    keep it as ``transport``)."""
    receive = getattr(ws, "_receive", None)
    return getattr(getattr(receive, "__self__", None), "transport", None)


def _transport_abort(ws: WebSocket) -> Callable[[], None] | None:
    """What aborts the TCP connection under ``ws``."""
    abort = getattr(_transport(ws), "abort", None)
    return abort if callable(abort) else None


def _bound_send_buffer(ws: WebSocket) -> None:
    """Keep the kernel from buffering megabytes for a client that does not read."""
    get_extra_info = getattr(_transport(ws), "get_extra_info", None)
    sock = get_extra_info("socket") if callable(get_extra_info) else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


async def _writer(ws: WebSocket, conn: Connection, sent: Counter) -> None:
    """Send the connection's queue in order (``sent`` counts them); ``None`` in it closes
    the socket."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
            sent.inc()
    except (WebSocketDisconnect, RuntimeError, OSError):
        # the client is gone: end quietly. An exception kept by the task would hold its
        # traceback, whose frames hold this connection and its socket in a reference cycle
        # that only a full collection frees (the server's memory grew with every player who
        # came and went)
        return
    with contextlib.suppress(Exception):
        await ws.close(conn.closing or 1000)


@router.websocket("/ws/echo")
async def echo(ws: WebSocket) -> None:
    """Sends every text frame back: the baseline bench/server.py measures against, and a
    quick check that WebSockets get through a proxy."""
    if not await same_site(ws):
        return
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            text = await ws.receive_text()
            await ws.send_text(text[:MAX_MESSAGE_BYTES])
