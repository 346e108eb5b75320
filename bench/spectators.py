"""Benchmark of spectators arriving in one room: what the server sends, and how long it takes.

``--spectators`` spectators (default 1,000) join one lobby as fast as they can (``--parallel``
handshakes at a time), then wait until each has heard the final count. Every frame every
client receives is counted (messages and bytes: what the server sent), run twice in one go:

1. **old**: ``--presence-seconds 0``: a ``spectators`` event, with the room's snapshot, to
   everybody for each arrival (what the server did before issue 15: quadratic);
2. **new**: the default, at most one such event per room every 250 ms.

Prints both and the ratios.

    .venv/bin/python bench/spectators.py                   # 1,000 spectators
    .venv/bin/python bench/spectators.py --spectators 200  # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import ServerProcess


class Counter:
    """What all the clients received."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0


async def watch(
    url: str, code: str, target: int, counter: Counter, gate: asyncio.Semaphore
) -> ClientConnection:
    """One spectator: joins, then reads (counting) until it has heard ``target`` watching."""
    async with gate:
        ws = await connect(url, max_size=None, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "room": code, "spectate": True}))
    while True:
        text = await ws.recv()
        counter.messages += 1
        counter.bytes += len(text)
        msg = json.loads(text)
        room = msg.get("room")
        if room is not None and room["spectators"] >= target:
            return ws


async def crowd(server: ServerProcess, args: argparse.Namespace) -> dict[str, Any]:
    created = server.create_room("Host")
    code = created["code"]
    counter = Counter()
    host = await connect(server.ws_url, max_size=None)
    await host.send(json.dumps({"type": "hello", "room": code, "token": created["token"]}))
    gate = asyncio.Semaphore(args.parallel)
    start = time.perf_counter()

    async def host_reads() -> None:
        while True:
            text = await host.recv()
            counter.messages += 1
            counter.bytes += len(text)
            room = json.loads(text).get("room")
            if room is not None and room["spectators"] >= args.spectators:
                return

    spectators, _ = await asyncio.gather(
        asyncio.gather(
            *(
                watch(server.ws_url, code, args.spectators, counter, gate)
                for _ in range(args.spectators)
            )
        ),
        host_reads(),
    )
    seconds = time.perf_counter() - start
    for ws in [host, *spectators]:
        await ws.close()
    return {"messages": counter.messages, "bytes": counter.bytes, "seconds": seconds}


def run(label: str, extra: tuple[str, ...], args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        flags = (
            f"--spectators-per-room={args.spectators}",
            f"--connections-per-address={args.spectators + 10}",
            *extra,
        )
        server = ServerProcess(f"sqlite:///{tmp}/bench.sqlite3", args=flags).start()
        try:
            result = asyncio.run(crowd(server, args))
        finally:
            server.stop()
    print(
        f"{label:5} {result['messages']:>10,} messages {result['bytes'] / 1e6:>9.1f} MB "
        f"{result['seconds']:>7.1f} s",
        flush=True,
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=50, help="handshakes at a time")
    args = parser.parse_args()
    print(f"{args.spectators} spectators join one room (all frames received, host included)")
    old = run("old", ("--presence-seconds=0",), args)
    new = run("new", (), args)
    print(
        f"old/new: {old['messages'] / new['messages']:.0f}x messages, "
        f"{old['bytes'] / new['bytes']:.0f}x bytes, {old['seconds'] / new['seconds']:.1f}x time"
    )


if __name__ == "__main__":
    main()
