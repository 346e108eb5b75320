"""The room WebSocket ``/ws`` (``docs/protocol.md``), and ``/ws/echo``.

One task reads the client's frames and hands each to the room service with its receive time;
another writes the connection's queue to the socket, so a slow client never holds up a room.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from ..connection import Connection
from ..deps import RoomServiceDep
from ..protocol import MAX_MESSAGE_BYTES
from ..security import origin_allowed

log = logging.getLogger("ubongo.server")

router = APIRouter()


@router.websocket("/ws")
async def websocket(ws: WebSocket, rooms: RoomServiceDep) -> None:
    """A client's connection: ``hello`` joins a room, then commands and events."""
    if not await _same_site(ws):
        return
    await ws.accept()
    conn = rooms.connect(ws)
    writer_task = asyncio.create_task(_writer(ws, conn))
    try:
        while conn.closing is None:
            message = await ws.receive()
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
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer_task, 2.0)
        writer_task.cancel()
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _same_site(ws: WebSocket) -> bool:
    """Whether a page of this site (or of an allowed origin) opens the socket, or no browser
    does; another site's page is refused before the handshake (HTTP 403), so that it cannot
    play with its visitor's seat tokens."""
    allowed: tuple[str, ...] = ws.app.state.allowed_origins
    if origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), allowed):
        return True
    await ws.close(code=1008)
    return False


async def _writer(ws: WebSocket, conn: Connection) -> None:
    """Send the connection's queue in order; ``None`` in it closes the socket."""
    while True:
        text = await conn.queue.get()
        if text is None:
            break
        await ws.send_text(text)
    with contextlib.suppress(Exception):
        await ws.close(conn.closing or 1000)


@router.websocket("/ws/echo")
async def echo(ws: WebSocket) -> None:
    """Sends every text frame back: the baseline bench/server.py measures against, and a
    quick check that WebSockets get through a proxy."""
    if not await _same_site(ws):
        return
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            text = await ws.receive_text()
            await ws.send_text(text[:MAX_MESSAGE_BYTES])
