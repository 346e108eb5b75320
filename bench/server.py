"""Benchmark of the game server: simulated players on loopback WebSockets playing real rounds.

Starts ``ubongo serve`` in a subprocess (a fresh SQLite file), then in this process:

1. **baseline**: every simulated player opens ``/ws/echo`` and sends messages at the pace it
   will later play; the round trip of an echo is the floor any game message can reach on this
   machine with this many connections;
2. **game**: ``--rooms`` rooms of 4 people (Classic, side A), each playing ``--rounds`` rounds:
   after a random think time a player sends a wrong arrangement (half of them) and then the
   right one (found by the solver); the time from sending a submission to receiving its
   verdict is measured.

Prints p50/p99/max of both, the ratio, and the server's CPU use (from /proc) in each phase.

    .venv/bin/python bench/server.py                 # 200 rooms x 4 players
    .venv/bin/python bench/server.py --rooms 20      # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import ServerProcess, solution

TICKS = os.sysconf("SC_CLK_TCK")
_solutions: dict[str, list[dict[str, Any]]] = {}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def solved(task: dict[str, Any]) -> list[dict[str, Any]]:
    # by what the task is, not where it is in a deck: every fresh game has its own cards
    key = json.dumps([task["area"], task["pieces"]])
    if key not in _solutions:
        _solutions[key] = solution(task, "classic")
    return _solutions[key]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def echo_player(
    url: str, messages: int, think: tuple[float, float], out: list[float]
) -> None:
    rng = random.Random()
    async with connect(url, max_size=None) as ws:
        for i in range(messages):
            await asyncio.sleep(rng.uniform(*think))
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "submit", "round": i, "placements": []}))
            await ws.recv()
            out.append((time.perf_counter() - sent) * 1000)


class Player:
    def __init__(self, ws: ClientConnection, seat: int, rng: random.Random) -> None:
        self.ws = ws
        self.seat = seat
        self.rng = rng
        self.pending: asyncio.Future[float] | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Leave: cancel submissions still thinking when the game ended, close the socket."""
        for task in list(self.tasks):
            task.cancel()
        await self.ws.close()

    async def play(
        self, rounds: int, think: tuple[float, float], out: list[float], start: bool
    ) -> None:
        if start:
            await self.ws.send(json.dumps({"type": "start"}))
        played = 0
        async for text in self.ws:
            assert isinstance(text, str)
            if text.startswith('{"type":"error"'):
                error = json.loads(text)
                if error["ref"] == "start":  # a "ready" still on its way: try again
                    await asyncio.sleep(0.2)
                    await self.ws.send(json.dumps({"type": "start"}))
                else:
                    print("error:", error, file=sys.stderr)
                continue
            if text.startswith('{"type":"verdict"'):
                if self.pending is not None and not self.pending.done():
                    self.pending.set_result(time.perf_counter())
                continue
            head = text[:80]
            if not any(f'"kind":"{k}"' in head for k in ("round_started", "playoff", "game_over")):
                continue
            msg = json.loads(text)
            if msg["kind"] == "game_over":
                return
            game = msg["room"]["game"]
            if game["tasks"].get(str(self.seat)) is None:
                continue  # a playoff among the others
            task = asyncio.create_task(self.submit(game, think, out))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            played += 1

    async def submit(
        self, game: dict[str, Any], think: tuple[float, float], out: list[float]
    ) -> None:
        await asyncio.sleep(self.rng.uniform(*think))
        right = solved(game["tasks"][str(self.seat)])
        tries = [right[:-1], right] if self.rng.random() < 0.5 else [right]
        for placements in tries:
            loop = asyncio.get_running_loop()
            self.pending = loop.create_future()
            sent = time.perf_counter()
            await self.ws.send(
                json.dumps({"type": "submit", "round": game["round"], "placements": placements})
            )
            try:
                got = await asyncio.wait_for(self.pending, 30)
            except TimeoutError:
                continue
            out.append((got - sent) * 1000)


async def open_room(
    servers: list[ServerProcess], owner: int, rounds: int, index: int, puzzles: str = "fresh"
) -> list[tuple[Player, bool]]:
    """A room created on ``servers[owner]``; seats alternate between the owner and the next
    process. Each player comes with whether it is connected to the owner."""
    rng = random.Random(index)
    home = servers[owner]
    created = await asyncio.to_thread(
        home.create_room,
        "host",
        edition="classic",
        hourglass_seconds=60,
        rounds=rounds,
        between_seconds=1,
        seat_hold_seconds=120,
        puzzles=puzzles,
    )
    tokens = [created["token"]]
    for n in range(3):
        taken = await asyncio.to_thread(home.take_seat, created["code"], f"p{n}")
        tokens.append(taken["token"])
    players = []
    for seat, token in enumerate(tokens):
        local = seat % 2 == 0 or len(servers) == 1
        server = home if local else servers[(owner + 1) % len(servers)]
        ws = await connect(server.ws_url, max_size=None, open_timeout=60)
        await ws.send(json.dumps({"type": "hello", "room": created["code"], "token": token}))
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] == "welcome":
                break
        if seat:
            await ws.send(json.dumps({"type": "ready"}))
        players.append((Player(ws, seat, rng), local))
    return players


async def run(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    pid = server.proc.pid if server.proc else 0
    n = args.rooms * 4
    think = (0.5, args.think)
    # --- baseline: echo on the same server, the same number of connections -----------------
    echo: list[float] = []
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(
        *(
            echo_player(server.url.replace("http", "ws") + "/ws/echo", 3, think, echo)
            for _ in range(n)
        )
    )
    echo_cpu, echo_wall = cpu_seconds(pid) - cpu0, time.perf_counter() - t0
    # --- the game -------------------------------------------------------------------------------
    rooms: list[list[Player]] = []
    for batch in range(0, args.rooms, 20):
        opened = await asyncio.gather(
            *(
                open_room([server], 0, args.rounds, i, args.puzzles)
                for i in range(batch, min(args.rooms, batch + 20))
            )
        )
        rooms += [[p for p, _local in players] for players in opened]
    await asyncio.sleep(1.0)  # let the "ready" messages land
    latencies: list[float] = []
    cpu0, t0 = cpu_seconds(pid), time.perf_counter()
    await asyncio.gather(
        *(
            p.play(args.rounds, think, latencies, start=(p.seat == 0))
            for players in rooms
            for p in players
        )
    )
    game_cpu, game_wall = cpu_seconds(pid) - cpu0, time.perf_counter() - t0
    for players in rooms:
        for p in players:
            await p.close()
    return {
        "players": n,
        "echo": echo,
        "echo_cpu": echo_cpu / echo_wall,
        "game": latencies,
        "game_cpu": game_cpu / game_wall,
        "game_wall": game_wall,
    }


#: every simulated player connects from this machine's one address: the per-address limits
#: (docs/server.md, "Rooms and limits") are raised so that they do not cap the load measured
BENCH_LIMITS = (
    "--connections-per-address=1000000",
    "--rooms-per-minute=1000000",
    "--accounts-per-hour=1000000",
)


def arguments(doc: str) -> argparse.Namespace:
    """The load every server bench plays: rooms of 4, rounds, think time (shared with
    bench/cluster.py, so that both measure the same game)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--think", type=float, default=8.0, help="longest think time (s)")
    parser.add_argument(
        "--puzzles",
        choices=("fresh", "standard"),
        default="fresh",
        help="tasks made for each game (the rooms' default) or the shipped deck",
    )
    return parser.parse_args()


def main() -> None:
    args = arguments(__doc__ or "")
    folder = Path(tempfile.mkdtemp(prefix="ubongo-bench-"))
    server = ServerProcess(
        f"sqlite:///{folder / 'bench.sqlite3'}", log=folder / "server.log", args=BENCH_LIMITS
    )
    server.start()
    try:
        r = asyncio.run(run(args, server))
    finally:
        server.stop()
    echo, game = r["echo"], r["game"]
    print(
        f"server bench: {args.rooms} rooms x 4 players = {r['players']} connections, "
        f"{args.rounds} rounds, think 0.5-{args.think} s, {os.cpu_count()} CPUs"
    )
    print(f"{'':28} {'n':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'server CPU':>11}")
    for name, values, cpu in (
        ("echo (baseline)", echo, r["echo_cpu"]),
        ("submission -> verdict", game, r["game_cpu"]),
    ):
        print(
            f"{name:28} {len(values):6d} {statistics.median(values):8.1f} "
            f"{pct(values, 0.99):8.1f} {max(values):8.1f} {cpu:10.0%}"
        )
    ratio50 = statistics.median(game) / statistics.median(echo)
    ratio99 = pct(game, 0.99) / pct(echo, 0.99)
    print(
        f"ratio to echo: p50 {ratio50:.1f}x, p99 {ratio99:.1f}x; "
        f"game phase {r['game_wall']:.0f} s; target p99 < 50 ms"
    )


if __name__ == "__main__":
    main()
