"""Soak: rooms created, played to the end with bots, finished and left, over and over; prints
the process's memory and live-object counts over time (issue 16, "Memory").

The room service runs in this process (:class:`~ubongo.server.rooms.service.LocalRoomService` with
its real SQLite storage, saved rooms, timers, bots and card worker), so that its objects can
be counted: every ``--every`` seconds a line with the games finished so far, the resident
memory (VmRSS), Python's heap as tracemalloc sees it (``--tracemalloc``: slower), the number
of objects the garbage collector tracks, and how many of the rooms and game states made so
far are still alive (weak references). ``--rooms`` rooms are in play at any time: one person
and three bots in each, Classic, ``--rounds`` rounds of a short hourglass; the person submits
the right arrangement at once, the bots when their thinking time is up (or the hourglass
runs out), and leaves when the game is over (the room closes).

    .venv/bin/python bench/soak.py                   # 3 minutes, 40 rooms at a time
    .venv/bin/python bench/soak.py --seconds 600
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
import time
import tracemalloc
import weakref
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import solution

from ubongo.rules.state import Game
from ubongo.server.config import ServerConfig
from ubongo.server.protocol.incoming import SettingsPatch
from ubongo.server.rooms.room import Room
from ubongo.server.rooms.service import LocalRoomService
from ubongo.server.store import Store

EDITION = "classic"


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Live:
    """Weak references to the rooms and game states made (pruned as they die)."""

    def __init__(self) -> None:
        self.rooms: list[weakref.ref[Room]] = []
        self.games: list[weakref.ref[Game]] = []
        self.made = [0, 0]

    def counts(self) -> tuple[int, int]:
        self.rooms = [r for r in self.rooms if r() is not None]
        self.games = [g for g in self.games if g() is not None]
        return len(self.rooms), len(self.games)


async def one_game(service: LocalRoomService, n: int, rounds: int, live: Live) -> None:
    settings = SettingsPatch(
        edition=EDITION,
        rounds=rounds,
        hourglass_seconds=3,
        between_seconds=0,
        puzzles="standard",
    )
    seat = await service.create_room(f"Soak {n}", settings)
    room = service.gateway.rooms.hub.get(seat["code"])
    assert room is not None
    live.rooms.append(weakref.ref(room))
    live.made[0] += 1
    conn = service.connect(None)

    async def say(message: dict[str, Any]) -> None:
        await service.receive(conn, json.dumps(message), service.clock.now())

    await say({"type": "hello", "room": seat["code"], "token": seat["token"]})
    for _ in range(3):
        await say({"type": "add_bot", "level": "hard"})
    await say({"type": "start"})
    msg: dict[str, Any] = {}
    while True:
        try:
            text = await asyncio.wait_for(conn.queue.get(), 60)
        except TimeoutError:
            game_phase = room.game.phase if room.game is not None else None
            held = service.saved.held(room.code)
            raise RuntimeError(
                f"room {room.code}: nothing for 60 s (room {room.phase}, game {game_phase}, "
                f"clock {room.timer is not None}, held {held}, last {msg})"
            ) from None
        assert text is not None, "the connection was closed"
        msg = json.loads(text)
        if msg["type"] == "error":
            if msg["code"] in ("stale_round", "too_late", "wrong_phase"):
                continue  # a round that ended before its start was read here
            raise RuntimeError(msg)
        if msg["type"] != "event":
            continue
        if room.game is not None and (not live.games or live.games[-1]() is not room.game):
            live.games.append(weakref.ref(room.game))
            live.made[1] += 1
        if msg["kind"] in ("round_started", "playoff"):
            game = msg["room"]["game"]
            if "0" not in game["tasks"]:
                continue  # a tie-break among the bots
            placements = solution(game["tasks"]["0"], EDITION)
            await say({"type": "submit", "round": game["round"], "placements": placements})
        elif msg["kind"] == "game_over":
            break
    await say({"type": "leave"})
    service.disconnect(conn)


async def soak(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ubongo-soak-"))
    storage = Store(f"sqlite:///{folder / 'soak.sqlite3'}")
    storage.migrate()
    service = LocalRoomService(storage, ServerConfig())
    await service.start()
    live = Live()
    done = 0
    started = 0
    t0 = time.monotonic()

    async def player() -> None:
        nonlocal done, started
        while time.monotonic() - t0 < args.seconds:
            started += 1
            await one_game(service, started, args.rounds, live)
            done += 1

    async def report() -> None:
        print(
            f"{'s':>5} {'games':>6} {'RSS MiB':>8} {'heap MiB':>9} {'gc objects':>11} "
            f"{'rooms':>6} {'games alive':>12} {'open rooms':>11}",
            flush=True,
        )
        while True:
            gc.collect()
            rooms, games = live.counts()
            heap = tracemalloc.get_traced_memory()[0] / 2**20 if args.tracemalloc else 0.0
            print(
                f"{time.monotonic() - t0:5.0f} {done:6d} {rss_mib():8.1f} {heap:9.1f} "
                f"{len(gc.get_objects()):11d} {rooms:6d} {games:12d} "
                f"{len(list(service.gateway.rooms.hub.codes())):11d}",
                flush=True,
            )
            await asyncio.sleep(args.every)

    if args.tracemalloc:
        tracemalloc.start()
    reporter = asyncio.create_task(report())
    try:
        await asyncio.gather(*(player() for _ in range(args.rooms)))
        await asyncio.sleep(1.0)  # the last saves
    finally:
        reporter.cancel()
        await service.stop()
    gc.collect()
    rooms, games = live.counts()
    print(
        f"end: {done} games in {time.monotonic() - t0:.0f} s; RSS {rss_mib():.1f} MiB; "
        f"rooms alive {rooms} of {live.made[0]} made, game states alive {games} of "
        f"{live.made[1]} seen"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--rooms", type=int, default=40, help="rooms in play at a time")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between reports")
    parser.add_argument("--tracemalloc", action="store_true")
    asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    main()
