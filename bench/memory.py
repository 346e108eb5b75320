"""Memory of the game server: bytes per room and per connected player, from the resident
memory (VmRSS) of a real ``ubongo serve`` process as rooms and players are added (issue 16).

In steps of ``--rooms`` rooms (``--steps`` times), against one server on a fresh SQLite file:

1. **rooms**: rooms are created over HTTP (each with its creator's seat, nobody connected);
2. **seats**: three more seats are taken in each (HTTP);
3. **connected**: the four players of each room open their WebSocket, say ``hello`` and
   ``ready`` (a lobby of four, everyone connected);
4. **playing**: each room's host starts a game (Classic, the printed deck): the game state,
   its event log (kept for reconnects) and every player's task.

After each part the server's RSS is read (after a moment for the server to settle) and the
difference, divided by what was added, is printed. RSS moves in pages and with the
allocator's arenas: the figures are averages over hundreds of rooms, and the steps show
whether they hold as the server grows.

    .venv/bin/python bench/memory.py                 # 4 steps of 250 rooms (4,000 players)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server import BENCH_LIMITS, rss_bytes  # bench/server.py
from server_harness import ServerProcess


def settle(pid: int, seconds: float = 2.0) -> int:
    """The server's RSS once it has been idle a moment (batched saves written)."""
    time.sleep(seconds)
    return rss_bytes(pid)


async def connect_room(
    server: ServerProcess, code: str, tokens: list[str], compression: str | None
) -> list[ClientConnection]:
    sockets = []
    for seat, token in enumerate(tokens):
        ws = await connect(server.ws_url, max_size=None, open_timeout=60, compression=compression)
        await ws.send(json.dumps({"type": "hello", "room": code, "token": token}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                raise RuntimeError(f"hello refused: {msg}")
            if msg["type"] == "welcome":
                break
        if seat:
            await ws.send(json.dumps({"type": "ready"}))
        sockets.append(ws)
    return sockets


async def drain(ws: ClientConnection, started: asyncio.Event | None) -> None:
    try:
        async for text in ws:
            if started is not None and '"kind":"round_started"' in str(text)[:80]:
                started.set()
    except Exception:
        return


async def start_games(rooms: list[list[ClientConnection]]) -> list[asyncio.Task[None]]:
    """Each room's host starts its game; returns when every game's first round began."""
    events = []
    drains = []
    for sockets in rooms:
        started = asyncio.Event()
        events.append(started)
        drains += [asyncio.create_task(drain(ws, started)) for ws in sockets]
        await sockets[0].send(json.dumps({"type": "start"}))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 300)
    return drains


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=250, help="rooms added per step")
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_const",
        const=None,
        default="deflate",
        help="clients that do not offer permessage-deflate (as browsers do)",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ubongo-memory-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'memory.sqlite3'}",
        log=folder / "server.log",
        # (a busy machine may take longer than the default to read a hello)
        args=(*BENCH_LIMITS, "--hello-seconds", "120", "--unjoined-room-seconds", "3600"),
    )
    server.start(timeout=180)
    assert server.proc is not None
    pid = server.proc.pid
    try:
        asyncio.run(run(server, pid, args))
    finally:
        server.stop()


async def run(server: ServerProcess, pid: int, args: argparse.Namespace) -> None:
    pool = ThreadPoolExecutor(8)
    loop = asyncio.get_running_loop()
    rss = settle(pid)
    print(
        f"memory bench: steps of {args.rooms} rooms (4 players each); server RSS at start "
        f"{rss / 2**20:.1f} MiB"
    )
    print(f"{'step':>4} {'part':>10} {'added':>6} {'RSS MiB':>8} {'KiB each':>9}")
    kept: list[list[ClientConnection]] = []
    tasks: list[asyncio.Task[None]] = []
    per: dict[str, list[float]] = {}

    def show(step: int, part: str, added: int, before: int) -> int:
        now = settle(pid)
        each = (now - before) / added / 1024
        per.setdefault(part, []).append(each)
        print(f"{step:4d} {part:>10} {added:6d} {now / 2**20:8.1f} {each:9.1f}", flush=True)
        return now

    def create(_n: int) -> dict[str, Any]:
        # (seats held long: a busy machine may take a while to connect every player)
        return server.create_room(
            "host", edition="classic", puzzles="standard", seat_hold_seconds=600
        )

    for step in range(1, args.steps + 1):
        created = await asyncio.gather(
            *(loop.run_in_executor(pool, create, n) for n in range(args.rooms))
        )
        rss = show(step, "rooms", args.rooms, rss)

        def seats(code: str) -> list[str]:
            return [server.take_seat(code, f"p{n}")["token"] for n in range(3)]

        taken = await asyncio.gather(
            *(loop.run_in_executor(pool, seats, c["code"]) for c in created)
        )
        rss = show(step, "seats", 3 * args.rooms, rss)
        rooms = []
        for lo in range(0, len(created), 25):
            rooms += await asyncio.gather(
                *(
                    connect_room(server, c["code"], [c["token"], *t], args.compression)
                    for c, t in zip(created[lo : lo + 25], taken[lo : lo + 25], strict=True)
                )
            )
        kept += rooms
        rss = show(step, "connected", 4 * args.rooms, rss)
        tasks += await start_games(rooms)
        rss = show(step, "playing", args.rooms, rss)
    print(
        "KiB each, the mean of the steps: "
        + ", ".join(f"{part} {sum(v) / len(v):.1f}" for part, v in per.items())
        + "  (rooms: a room in its lobby with its creator's seat; seats: a seat taken; "
        "connected: a player's open WebSocket in a lobby; playing: a game started, per room)"
    )
    for t in tasks:
        t.cancel()
    for sockets in kept:
        for ws in sockets:
            await ws.close()


if __name__ == "__main__":
    main()
