"""A socket that closed leaves nothing behind, without waiting for a full garbage collection
(issue 16, "Memory"; docs/performance.md).

The server collects its oldest generation rarely: a full collection walks every object of every
room. Whatever a closed socket leaves in a reference cycle therefore stays until then, and the
server's memory grew with every player who came and went (about 45 KiB each, in bench/server.py
steps of 1,000). Here the real app runs under uvicorn with the server's protocols
(:mod:`ubongo.server.ops.transport`), in this process so that its objects can be counted, with the
collector switched off: after WebSocket clients that close politely, clients that drop their
TCP connection and a plain HTTP request, none of the objects of their connections is alive.
"""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path

import uvicorn
from waiting import eventually_async
from websockets.asyncio.client import connect
from websockets.server import ServerProtocol

from ubongo.server.app import create_app
from ubongo.server.ops.transport import (
    DeadlineProtocol,
    ReleasingWebSocketProtocol,
    deadline_protocol,
)
from ubongo.server.rooms.connection import Connection

#: what one server-side connection is made of; none of them may outlive its socket
KINDS: tuple[type, ...] = (ServerProtocol, ReleasingWebSocketProtocol, DeadlineProtocol, Connection)


def alive() -> dict[str, int]:
    """How many objects of each of :data:`KINDS` exist (the collector tracks them all)."""
    counts = {kind.__name__: 0 for kind in KINDS}
    for obj in gc.get_objects():
        for kind in KINDS:
            if issubclass(type(obj), kind):  # (not isinstance: a dead weak proxy raises)
                counts[kind.__name__] += 1
    return counts


def test_closed_sockets_are_freed_without_a_full_collection(tmp_path: Path) -> None:
    async def scenario() -> tuple[dict[str, int], dict[str, int]]:
        app = create_app(f"sqlite:///{tmp_path / 'sockets.sqlite3'}")
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=0,
            http=deadline_protocol(10.0),
            ws=ReleasingWebSocketProtocol,
            log_config=None,
            lifespan="on",
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        await eventually_async(lambda: server.started, "uvicorn to start")
        port = server.servers[0].sockets[0].getsockname()[1]
        gc.disable()  # after start-up: its own collect() ran; from here on, nothing collects
        try:
            before = alive()
            # polite goodbyes: a message the server refuses, then a close handshake
            for _ in range(5):
                async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
                    await ws.send(json.dumps({"type": "no such message"}))
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert reply["type"] == "error"
                async with connect(f"ws://127.0.0.1:{port}/ws/echo") as ws:
                    await ws.send("hello")
                    assert await asyncio.wait_for(ws.recv(), 10) == "hello"
            # closed tabs: the TCP connection drops without a close frame
            for _ in range(5):
                ws = await connect(f"ws://127.0.0.1:{port}/ws")
                await ws.send(json.dumps({"type": "no such message"}))
                await asyncio.wait_for(ws.recv(), 10)
                ws.transport.abort()
            # ... and some with the server's answers still on their way to them
            for _ in range(5):
                ws = await connect(f"ws://127.0.0.1:{port}/ws")
                for _ in range(3):
                    await ws.send(json.dumps({"type": "no such message"}))
                ws.transport.abort()
            # a plain request on a connection of its own, closed after the answer
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /api/editions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            await writer.drain()
            assert (await reader.read()).startswith(b"HTTP/1.1 200")
            writer.close()
            # the server sees every socket go (its handlers' cleanup included)
            rooms = app.state.rooms
            await eventually_async(
                lambda: not server.server_state.connections and not rooms.gateway.connections,
                "the server to see every socket go",
            )
            for _ in range(20):  # callbacks the closes scheduled: turns of the loop, no time
                await asyncio.sleep(0)
            after = alive()
        finally:
            gc.enable()
            server.should_exit = True
            await serving
        return before, after

    before, after = asyncio.run(scenario())
    assert before == {kind.__name__: 0 for kind in KINDS}
    assert after == before, f"left behind by closed sockets: {after}"
