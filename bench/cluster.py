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

    .venv/bin/python bench/cluster.py --spread            # 200 rooms x 4 players
    .venv/bin/python bench/cluster.py --spread --rooms 20 # a quick look

**Behind nginx** (the default; issue 16): the whole cluster started by ``scripts/cluster up``
(PostgreSQL, Redis, N processes, nginx routing by room code), once with one process and once
with two, under the same load through nginx:

1. **throughput**: ``--rooms`` rooms of 2 players in a round (standard deck); every player keeps
   one submission in flight for ``--seconds`` (a wrong arrangement, so that the round goes on;
   the server checks it in full) and sends the next as soon as its verdict arrives. Verdicts a
   second, p50/p99, and the CPU of the server processes, nginx, Redis and this load generator;
2. **failover** (two processes): ``--failover-rooms`` rooms in a round, the process owning
   about half of them killed (SIGKILL); each of their players reconnects through nginx at once
   (as the web client does) and sends a submission: the time from the kill to its verdict.

    .venv/bin/python bench/cluster.py                     # 100 rooms x 2, 20 s, 20 rooms
    .venv/bin/python bench/cluster.py --rooms 20 --seconds 5   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server import (  # bench/server.py
    BENCH_LIMITS,
    Player,
    cpu_seconds,
    open_room,
    pct,
    solved,
)
from server_harness import ROOT, RedisProcess, ServerProcess, free_port, solution
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from ubongo.server.cluster.ring import Ring


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


def spread(args: argparse.Namespace) -> None:
    """Players of each room spread over two processes, no load balancer (before nginx)."""
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


# --- behind nginx: scripts/cluster, throughput with one and two processes, failover ------------

#: every simulated player comes from one address: the per-address limits out of the way
SERVE_FLAGS = (
    "--log-level=warning",
    "--connections-per-address=1000000",
    "--rooms-per-minute=1000000",
    "--accounts-per-hour=1000000",
    "--messages-per-second=1000000",
)


def cluster_up(folder: Path, processes: int) -> dict[str, Any]:
    """The whole cluster, as an operator starts it (docs/operations.md)."""
    port = str(free_port())
    script = [sys.executable, str(ROOT / "scripts" / "cluster")]
    flags = ["--processes", str(processes), "--port", port, "--", *SERVE_FLAGS]
    subprocess.run([*script, "up", str(folder), *flags], check=True, stdout=subprocess.DEVNULL)
    state: dict[str, Any] = json.loads((folder / "cluster.json").read_text())
    return state


def cluster_down(folder: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "scripts" / "cluster"), "down", str(folder)])


def children(pid: int) -> list[int]:
    """nginx's worker processes (the master does not serve)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=60) as r:
        answer: dict[str, Any] = json.loads(r.read())
        return answer


class Seat:
    """One player's socket through nginx (``/ws?room=CODE``, as the web client opens it)."""

    def __init__(self, base: str, code: str, token: str, seat: int) -> None:
        self.url = f"{base.replace('http', 'ws', 1)}/ws?room={code}"
        self.code, self.token, self.seat = code, token, seat
        self.ws: ClientConnection | None = None
        self.game: dict[str, Any] | None = None

    async def join(self) -> None:
        self.ws = await connect(self.url, max_size=None, open_timeout=60)
        await self.ws.send(json.dumps({"type": "hello", "room": self.code, "token": self.token}))
        while True:
            msg = json.loads(await self.ws.recv())
            if msg["type"] == "welcome":
                if msg["room"].get("game"):
                    self.game = msg["room"]["game"]
                return
            if msg["type"] == "error":
                raise RuntimeError(msg)

    async def until(self, kind: str) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg: dict[str, Any] = json.loads(await self.ws.recv())
            if msg["type"] == "event" and msg["kind"] == kind:
                return msg
            if msg["type"] == "error":
                raise RuntimeError(msg)

    def wrong(self) -> str:
        """A wrong arrangement of this seat's task (one piece short): checked in full, refused
        (missing_piece), and the round goes on."""
        assert self.game is not None
        task = self.game["tasks"][str(self.seat)]
        placements = solution(task, "classic")[:-1]
        return json.dumps({"type": "submit", "round": self.game["round"], "placements": placements})

    async def verdict(self, text: str, answer: str = "verdict") -> float:
        """Send a message; the seconds until its answer (a ``verdict``, a ``pong``)."""
        assert self.ws is not None
        head = f'{{"type":"{answer}"'
        sent = time.perf_counter()
        await self.ws.send(text)
        while True:
            raw = await self.ws.recv()
            if isinstance(raw, str) and raw.startswith(head):
                return time.perf_counter() - sent
            if isinstance(raw, str) and raw.startswith('{"type":"error"'):
                raise RuntimeError(raw)


async def open_rooms(base: str, count: int) -> list[tuple[Seat, Seat]]:
    """``count`` rooms of 2 people in their first round (standard deck, a long hourglass)."""

    async def one(i: int) -> tuple[Seat, Seat]:
        made = await asyncio.to_thread(
            post,
            f"{base}/api/rooms",
            {
                "name": "host",
                "settings": {
                    "edition": "classic",
                    "puzzles": "standard",
                    "hourglass_seconds": 600,
                    "rounds": 1,
                    "seed": i,
                },
            },
        )
        code = made["code"]
        seat = await asyncio.to_thread(post, f"{base}/api/rooms/{code}/seats", {"name": "p1"})
        host, other = Seat(base, code, made["token"], 0), Seat(base, code, seat["token"], 1)
        await host.join()
        await other.join()
        assert other.ws is not None and host.ws is not None
        await other.ws.send(json.dumps({"type": "ready"}))
        await other.until("ready")
        await host.ws.send(json.dumps({"type": "start"}))
        started = await host.until("round_started")
        host.game = other.game = started["room"]["game"]
        return host, other

    rooms: list[tuple[Seat, Seat]] = []
    for batch in range(0, count, 20):
        rooms += await asyncio.gather(*(one(i) for i in range(batch, min(count, batch + 20))))
    return rooms


def postgres_pids(state: dict[str, Any]) -> list[int]:
    """The postmaster and its backends."""
    master = int((Path(state["postgres"]["data"]) / "postmaster.pid").read_text().split()[0])
    return [master, *children(master)]


async def throughput(state: dict[str, Any], rooms: int, seconds: float) -> dict[str, Any]:
    """Per kind of message (a submission, a ping), every player keeps one in flight."""
    opened = await open_rooms(state["url"], rooms)
    seats = [s for pair in opened for s in pair]
    for s in seats:  # the solver's answers before the clock starts
        s.wrong()
    pids = [p["pid"] for p in state["processes"]]
    others = {
        "nginx": children(state["nginx"]["pid"]),
        "redis": [state["redis"]["pid"]],
        "postgres": postgres_pids(state),
    }
    out: dict[str, Any] = {}
    for kind, answer in (("submit", "verdict"), ("ping", "pong")):
        watched = pids + [p for group in others.values() for p in group]
        cpu0 = {pid: cpu_seconds(pid) for pid in watched}
        me0, t0 = time.process_time(), time.perf_counter()
        end = t0 + seconds
        times: list[float] = []

        async def loop(
            seat: Seat,
            kind: str = kind,
            answer: str = answer,
            end: float = end,
            times: list[float] = times,
        ) -> None:
            n = 0
            while time.perf_counter() < end:
                n += 1
                text = (
                    seat.wrong()
                    if kind == "submit"
                    else json.dumps({"type": "ping", "id": n, "t": time.time() * 1000})
                )
                times.append(await seat.verdict(text, answer) * 1000)

        await asyncio.gather(*(loop(s) for s in seats))
        wall = time.perf_counter() - t0
        use = {pid: (cpu_seconds(pid) - cpu0[pid]) / wall for pid in watched}
        out[kind] = {
            "count": len(times),
            "rate": len(times) / wall,
            "p50": statistics.median(times),
            "p99": pct(times, 0.99),
            "servers": [use[p] for p in pids],
            **{name: sum(use[p] for p in group) for name, group in others.items()},
            "client": (time.process_time() - me0) / wall,
        }
    for s in seats:
        assert s.ws is not None
        await s.ws.close()
    return out


async def failover(state: dict[str, Any], rooms: int) -> dict[str, Any]:
    """Kill the first process mid-round; per player of its rooms, the time from the kill to
    a verdict on the process that took the room over."""
    opened = await open_rooms(state["url"], rooms)
    names = [f"127.0.0.1:{p['port']}" for p in state["processes"]]
    ring = Ring(names)
    victim = state["processes"][0]
    doomed = [pair for pair in opened if ring.server(pair[0].code) == names[0]]
    for pair in doomed:
        for s in pair:
            s.wrong()
    killed = time.perf_counter()

    async def back(seat: Seat) -> float:
        assert seat.ws is not None
        try:  # the socket closes when nginx loses the process behind it
            async for _ in seat.ws:
                pass
        except ConnectionClosed:
            pass
        while True:
            try:
                await seat.join()
                await seat.verdict(seat.wrong())
                return time.perf_counter() - killed
            except (OSError, ConnectionClosed, InvalidStatus, RuntimeError):
                await asyncio.sleep(0.05)

    os.kill(victim["pid"], signal.SIGKILL)
    times = await asyncio.gather(*(back(s) for pair in doomed for s in pair))
    for pair in opened:
        for s in pair:
            if s.ws is not None:
                await s.ws.close()
    return {"rooms": len(doomed), "players": len(times), "times": sorted(times)}


def behind_nginx(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="ubongo-bench-nginx-"))
    warm_solutions()
    runs: dict[int, dict[str, Any]] = {}
    moved: dict[str, Any] = {}
    for processes in (1, 2):
        run_folder = folder / f"p{processes}"
        state = cluster_up(run_folder, processes)
        try:
            runs[processes] = asyncio.run(throughput(state, args.rooms, args.seconds))
            if processes == 2:
                moved = asyncio.run(failover(state, args.failover_rooms))
        finally:
            cluster_down(run_folder)
    print(
        f"cluster bench behind nginx: {args.rooms} rooms x 2 players, one message in flight "
        f"each, {args.seconds:g} s a kind; {os.cpu_count()} CPUs (shared by everything below)"
    )
    print(
        f"{'message':8} {'processes':>9} {'answers':>8} {'per s':>7} {'p50 ms':>7} "
        f"{'p99 ms':>7}  CPU: servers / nginx / Redis / PostgreSQL / load generator"
    )
    for kind in ("submit", "ping"):
        for n, r in runs.items():
            k = r[kind]
            servers = "+".join(f"{c:.0%}" for c in k["servers"])
            print(
                f"{kind:8} {n:9d} {k['count']:8d} {k['rate']:7.0f} {k['p50']:7.1f} "
                f"{k['p99']:7.1f}  {servers} / {k['nginx']:.0%} / {k['redis']:.0%} / "
                f"{k['postgres']:.0%} / {k['client']:.0%}"
            )
        one, two = runs[1][kind], runs[2][kind]
        print(
            f"{kind}: two / one: throughput {two['rate'] / one['rate']:.2f}x, "
            f"p50 {two['p50'] / one['p50']:.2f}x, p99 {two['p99'] / one['p99']:.2f}x"
        )
    t = moved["times"]
    print(
        f"failover: kill -9 of the process owning {moved['rooms']} of {args.failover_rooms} "
        f"rooms; its {moved['players']} players back with a verdict after "
        f"min {t[0]:.2f} s, median {statistics.median(t):.2f} s, max {t[-1]:.2f} s "
        f"(bound 3 s: {t[-1] / 3:.2f}x of it)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--spread", action="store_true", help="the older run without nginx")
    parser.add_argument("--rooms", type=int, default=None, help="rooms (100; --spread: 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="throughput run (s)")
    parser.add_argument("--failover-rooms", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2, help="--spread: rounds")
    parser.add_argument("--think", type=float, default=8.0, help="--spread: longest think (s)")
    parser.add_argument("--puzzles", choices=("fresh", "standard"), default="fresh")
    args = parser.parse_args()
    if args.spread:
        args.rooms = args.rooms or 200
        spread(args)
    else:
        args.rooms = args.rooms or 100
        behind_nginx(args)


if __name__ == "__main__":
    main()
