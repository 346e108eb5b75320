"""Benchmark of several server processes sharing rooms through Redis, against one process.

The same game as ``bench/server.py`` (``--rooms`` rooms of 4 people playing ``--rounds``
Classic rounds, half of them first sending a wrong arrangement; the time from sending a
submission to receiving its verdict), run twice in one go:

1. **one process**: ``ubongo serve`` with rooms in memory, every player connected to it;
2. **two processes + Redis**: two ``ubongo serve --redis-url`` on one ``redis-server``;
   each room is created on one process (its owner, alternating) and its players are spread
   over both: seats 0 and 2 on the owner, seats 1 and 3 on the other process, whose messages
   are forwarded to the owner and whose verdicts and events come back through Redis.

Prints p50/p99/max for all players and, in the Redis run, separately for those on the owner
and those on the other process, with the CPU of the server processes and of Redis.

    .venv/bin/python bench/cluster.py                # 200 rooms x 4 players
    .venv/bin/python bench/cluster.py --rooms 20     # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server import (  # bench/server.py
    BENCH_LIMITS,
    Player,
    arguments,
    cpu_seconds,
    open_room,
    pct,
    solved,
)
from server_harness import RedisProcess, ServerProcess


async def play(
    servers: list[ServerProcess], pids: list[int], args: argparse.Namespace
) -> dict[str, Any]:
    rooms: list[list[tuple[Player, bool]]] = []
    for batch in range(0, args.rooms, 20):
        rooms += await asyncio.gather(
            *(
                open_room(servers, i % len(servers), args.rounds, i, args.puzzles)
                for i in range(batch, min(args.rooms, batch + 20))
            )
        )
    await asyncio.sleep(1.0)  # let the "ready" messages land
    think = (0.5, args.think)
    near: list[float] = []
    far: list[float] = []
    cpu0 = [cpu_seconds(pid) for pid in pids]
    t0 = time.perf_counter()
    await asyncio.gather(
        *(
            p.play(args.rounds, think, near if local else far, start=(p.seat == 0))
            for players in rooms
            for p, local in players
        )
    )
    wall = time.perf_counter() - t0
    cpu = [(cpu_seconds(pid) - c) / wall for pid, c in zip(pids, cpu0, strict=True)]
    for players in rooms:
        for p, _local in players:
            await p.close()
    return {"near": near, "far": far, "cpu": cpu, "wall": wall}


def warm_solutions() -> int:
    """Solve every Classic side-A task now, so that neither run pays for the solver in the
    client (it shares the client's event loop with the measurements)."""
    from ubongo.puzzles.deck import standard_deck

    count = 0
    for card, side in standard_deck("classic").sides("A"):
        for key in side.keys:
            task = side.task(key)
            solved(
                {
                    "card": card.number,
                    "side": side.name,
                    "key": key,
                    "pieces": list(task.pieces),
                    "area": [list(c) for c in sorted(side.area.cells)],
                    "layers": side.area.layers,
                }
            )
            count += 1
    return count


def row(name: str, values: list[float], cpu: str) -> str:
    if not values:
        return f"{name:34} {0:6d}"
    return (
        f"{name:34} {len(values):6d} {statistics.median(values):8.1f} "
        f"{pct(values, 0.99):8.1f} {max(values):8.1f} {cpu:>14}"
    )


def main() -> None:
    args = arguments(__doc__ or "")
    folder = Path(tempfile.mkdtemp(prefix="ubongo-bench-cluster-"))
    warm_solutions()

    # 1. one process, rooms in memory
    single = ServerProcess(
        f"sqlite:///{folder / 'single.sqlite3'}", log=folder / "single.log", args=BENCH_LIMITS
    )
    single.start()
    try:
        one = asyncio.run(play([single], [single.proc.pid if single.proc else 0], args))
    finally:
        single.stop()

    # 2. two processes sharing rooms through Redis
    redis = RedisProcess(folder).start()
    servers = [
        ServerProcess(
            f"sqlite:///{folder / 'cluster.sqlite3'}",
            log=folder / f"node{i}.log",
            redis_url=redis.url,
            args=BENCH_LIMITS,
        )
        for i in range(2)
    ]
    try:
        for s in servers:
            s.start()
        pids = [s.proc.pid if s.proc else 0 for s in servers]
        two = asyncio.run(play(servers, [*pids, redis.proc.pid if redis.proc else 0], args))
    finally:
        for s in servers:
            s.stop()
        redis.stop()

    print(
        f"cluster bench: {args.rooms} rooms x 4 players, {args.rounds} rounds, "
        f"think 0.5-{args.think} s, {os.cpu_count()} CPUs"
    )
    print(
        f"{'submission -> verdict':34} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
        f"{'CPU':>14}",
    )
    print(row("one process (memory)", one["near"], f"{one['cpu'][0]:.0%}"))
    both = two["near"] + two["far"]
    cpu = "+".join(f"{c:.0%}" for c in two["cpu"][:2]) + f" R {two['cpu'][2]:.0%}"
    print(row("2 processes + Redis: everyone", both, cpu))
    print(row("  players on the room's owner", two["near"], ""))
    print(row("  players on the other process", two["far"], ""))
    ratio = pct(both, 0.99) / pct(one["near"], 0.99)
    print(
        f"p99 ratio (2 processes / one): {ratio:.1f}x; game phases {one['wall']:.0f} s, "
        f"{two['wall']:.0f} s"
    )


if __name__ == "__main__":
    main()
