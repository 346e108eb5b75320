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

**The knee** (``--players 1000,2000,...`` or ``--knee``): a ramp of connected players against
one server process, pinned to one core, with the players simulated by separate load
generator processes on the other cores (half of them playing rounds as above, half seated in
lobbies); prints per step p50/p99/max, server, card-worker and load-generator CPU, RSS per
player, ratios against the first step, and the first step whose p99 passes 50 ms.
``--compare REF`` plays every step against a server of git REF too (docs/performance.md).

    .venv/bin/python bench/server.py --players 1000,2000,3000 --past-knee --compare main

**Churn** (``--churn N``): ``N`` rounds of ``--players`` players who come and go against one
server that forgets their rooms 3 s after they leave; the server's RSS after each round shows
whether anything they left stays (docs/performance.md, "Memory").

    .venv/bin/python bench/server.py --churn 6 --players 1000 --puzzles standard --compare a692955
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
import threading
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import ServerProcess, metric, metric_total, scrape, solution

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
        #: error codes the server answered (counted; printed unless ``quiet``)
        self.errors: dict[str, int] = {}
        self.quiet = False
        #: how late each round began after the time the previous round's end announced (ms)
        self.start_lags: list[float] = []
        self._next_at: float | None = None

    async def close(self) -> None:
        """Leave: cancel submissions still thinking when the game ended, close the socket."""
        for task in list(self.tasks):
            task.cancel()
        await self.ws.close()

    async def refused(self, error: dict[str, Any]) -> None:
        if error["ref"] == "start":  # a "ready" still on its way: try again
            await asyncio.sleep(0.2)
            await self.ws.send(json.dumps({"type": "start"}))
            return
        self.errors[error["code"]] = self.errors.get(error["code"], 0) + 1
        if not self.quiet:
            print("error:", error, file=sys.stderr)

    async def play(
        self, rounds: int, think: tuple[float, float], out: list[float], start: bool
    ) -> None:
        if start:
            await self.ws.send(json.dumps({"type": "start"}))
        played = 0
        async for text in self.ws:
            assert isinstance(text, str)
            if text.startswith('{"type":"error"'):
                await self.refused(json.loads(text))
                continue
            if text.startswith('{"type":"verdict"'):
                if self.pending is not None and not self.pending.done():
                    self.pending.set_result(time.perf_counter())
                continue
            head = text[:80]
            if '"kind":"round_ended"' in head:
                self._next_at = json.loads(text)["data"]["next_round_at"]
                continue
            if not any(f'"kind":"{k}"' in head for k in ("round_started", "playoff", "game_over")):
                continue
            msg = json.loads(text)
            if msg["kind"] == "game_over":
                return
            if msg["kind"] == "round_started" and self._next_at is not None:
                self.start_lags.append(msg["at"] - self._next_at)
                self._next_at = None
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
        # (no keepalive pings from the client: the server pings, and a busy load generator
        # must not drop a connection for a late pong)
        ws = await connect(server.ws_url, max_size=None, open_timeout=60, ping_interval=None)
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


# --- the knee: a ramp of player counts against one server process ---------------------------

#: the p99 of submission -> verdict past which a step is past the knee (issue 16)
KNEE_P99_MS = 50.0
#: the steps of ``--knee``
KNEE_RAMP = (1000, 2000, 3000, 4000, 5000, 6000, 8000)


def rss_bytes(pid: int) -> int:
    """Resident memory of process ``pid`` (``VmRSS`` in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def threads_of(pid: int) -> list[int]:
    return [int(t) for t in os.listdir(f"/proc/{pid}/task")]


def children_of(pid: int) -> list[int]:
    """The processes ``pid`` started (the server's card worker), from /proc."""
    found: list[int] = []
    for tid in threads_of(pid):
        text = Path(f"/proc/{pid}/task/{tid}/children").read_text()
        found += [int(c) for c in text.split()]
    return found


def pin(pid: int, cpus: set[int]) -> None:
    """Every thread of ``pid`` to ``cpus`` (threads started later inherit it)."""
    for tid in threads_of(pid):
        os.sched_setaffinity(tid, cpus)


async def _drain(ws: ClientConnection) -> None:
    """An idle player reads what it is sent (a lobby's events), so its socket stays healthy."""
    try:
        async for _ in ws:
            pass
    except Exception:
        return


async def _load(
    port: int,
    play_rooms: range,
    idle_rooms: range,
    args: argparse.Namespace,
    barrier: Any,
) -> dict[str, Any]:
    """One load generator's share of a step: open its rooms (the idle ones stay in their
    lobby), wait for the others, play, wait for the others, leave."""
    server = ServerProcess("", port=port)
    rooms: list[list[Player]] = []
    idle: list[list[Player]] = []
    for kind, indices in ((rooms, play_rooms), (idle, idle_rooms)):
        for lo in range(indices.start, indices.stop, 20):
            opened = await asyncio.gather(
                *(
                    open_room([server], 0, args.rounds, i, args.puzzles)
                    for i in range(lo, min(indices.stop, lo + 20))
                )
            )
            kind += [[p for p, _local in players] for players in opened]
    drains = [asyncio.create_task(_drain(p.ws)) for players in idle for p in players]
    await asyncio.sleep(1.0)  # let the "ready" messages land
    await asyncio.to_thread(barrier.wait)
    cpu0 = time.process_time()
    latencies: list[float] = []
    for players in rooms:
        for p in players:
            p.quiet = True
    await asyncio.gather(
        *(
            p.play(args.rounds, (0.5, args.think), latencies, start=(p.seat == 0))
            for players in rooms
            for p in players
        )
    )
    cpu = time.process_time() - cpu0
    await asyncio.to_thread(barrier.wait)
    errors: dict[str, int] = {}
    lags = [lag for players in rooms for lag in players[0].start_lags]
    for players in rooms:
        for p in players:
            for code, n in p.errors.items():
                errors[code] = errors.get(code, 0) + n
    for players in rooms + idle:
        for p in players:
            await p.close()
    for d in drains:
        d.cancel()
    return {"latencies": latencies, "cpu": cpu, "errors": errors, "lags": lags}


def _load_process(
    port: int,
    play_rooms: range,
    idle_rooms: range,
    args: argparse.Namespace,
    barrier: Any,
    out: Any,
    cpus: set[int] | None,
) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        out.put(asyncio.run(_load(port, play_rooms, idle_rooms, args, barrier)))
    except BaseException as e:
        import traceback

        barrier.abort()
        out.put({"failed": "".join(traceback.format_exception(e))[-2000:]})


def knee_step(
    server: ServerProcess, players: int, args: argparse.Namespace, load_cpus: set[int] | None
) -> dict[str, Any]:
    """One step of the ramp: ``players`` connected, half of them in rooms playing rounds, half
    seated in lobbies; measured over the game phase."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    assert server.proc is not None
    pid = server.proc.pid
    rooms = max(1, players // 8)  # rooms of 4 playing, as many rooms of 4 waiting
    k = args.load_processes
    barrier = ctx.Barrier(k + 1, timeout=900)
    out = ctx.Queue()
    base = args.room_index
    args.room_index += 2 * rooms

    def share(lo: int, n: int, i: int) -> range:
        return range(lo + n * i // k, lo + n * (i + 1) // k)

    procs = [
        ctx.Process(
            target=_load_process,
            args=(
                server.port,
                share(base, rooms, i),
                share(base + rooms, rooms, i),
                args,
                barrier,
                out,
                load_cpus,
            ),
        )
        for i in range(k)
    ]
    for proc in procs:
        proc.start()

    def failed() -> RuntimeError:
        got = [out.get(timeout=60) for _ in procs]
        return RuntimeError(f"a load generator failed: {[r.get('failed') for r in got]}")

    try:
        barrier.wait()  # everybody connected
    except threading.BrokenBarrierError:
        raise failed() from None
    rss = rss_bytes(pid)
    helpers = children_of(pid)
    waits0 = card_waits(server)
    cpu0 = cpu_seconds(pid)
    help0 = sum(cpu_seconds(c) for c in helpers)
    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    try:
        barrier.wait()  # everybody played
    except threading.BrokenBarrierError:
        raise failed() from None
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    waits1 = card_waits(server)
    help_cpu = sum(cpu_seconds(c) for c in helpers if Path(f"/proc/{c}").exists()) - help0
    results = [out.get(timeout=300) for _ in procs]
    for proc in procs:
        proc.join(60)
    failures = [r["failed"] for r in results if "failed" in r]
    if failures:
        raise RuntimeError(f"a load generator failed: {failures}")
    latencies = [x for r in results for x in r["latencies"]]
    lags = [x for r in results for x in r["lags"]]
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    return {
        "players": rooms * 8,
        "n": len(latencies),
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p99": pct(latencies, 0.99) if latencies else float("nan"),
        "max": max(latencies, default=float("nan")),
        "cpu": cpu / wall,
        "helpers_cpu": help_cpu / wall,
        "load_cpu": sum(r["cpu"] for r in results) / wall,
        "rss": rss,
        "wall": wall,
        "errors": errors,
        "lag": pct(lags, 0.99) if lags else float("nan"),
        "loadavg": (load0 + os.getloadavg()[0]) / 2,
        # later rounds that waited for the card worker in the step, and their seconds
        "waits": None
        if waits0 is None or waits1 is None
        else (round(waits1[0] - waits0[0]), waits1[1] - waits0[1]),
    }


def waited(waits: tuple[int, float] | None) -> str:
    """The ``waited`` column: ``count/seconds``."""
    return "-" if waits is None else f"{waits[0]}/{waits[1]:.1f}"


def card_waits(server: ServerProcess) -> tuple[float, float] | None:
    """How many later rounds (a game's second and on) have waited for the card worker so far,
    and their seconds, from ``/metrics``; ``None`` for a build without the metric."""
    text = scrape(server.url)
    name = 'ubongo_round_card_wait_seconds_{}{{round="later"}}'
    if "ubongo_round_card_wait_seconds" not in text:
        return None
    count, total = metric(text, name.format("count")), metric(text, name.format("sum"))
    return (count or 0.0, total or 0.0)


def build_of(ref: str) -> Path:
    """The source tree of git ``ref`` (``src/`` only), exported to a temporary folder: a
    server run from it (``PYTHONPATH``) is that build's."""
    import subprocess

    folder = Path(tempfile.mkdtemp(prefix=f"ubongo-knee-{ref.replace('/', '-')}-"))
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", ref, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "src"


def builds(args: argparse.Namespace) -> list[tuple[str, Path | None]]:
    """The builds to run, each as (label, source tree): git ``--compare`` REF's first (its
    exported ``src/``), then this tree's (``None``)."""
    now: list[tuple[str, Path | None]] = [("now", None)]
    return [(args.compare, build_of(args.compare)), *now] if args.compare else now


def pin_server(server: ServerProcess, args: argparse.Namespace) -> set[int] | None:
    """Pin the server (every thread) to the first core, unless ``--no-pin`` or a single
    core; the cores left for the load generators (``None``: not pinned)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2 or args.no_pin:
        return None
    assert server.proc is not None
    pin(server.proc.pid, {cores[0]})
    return set(cores[1:])


def start_server(
    folder: Path, name: str, src: Path | None, extra: tuple[str, ...] = ()
) -> ServerProcess:
    """``ubongo serve`` on a fresh SQLite file, from this tree or from ``src`` (``extra``: more
    of its options)."""
    server = ServerProcess(
        f"sqlite:///{folder / f'{name}.sqlite3'}",
        log=folder / f"{name}.log",
        args=BENCH_LIMITS + extra,
    )
    before = os.environ.get("PYTHONPATH")
    if src is not None:
        os.environ["PYTHONPATH"] = str(src)
    try:
        server.start(timeout=180)  # (a busy machine)
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before
    return server


def knee(args: argparse.Namespace) -> None:
    """The ramp: one ``ubongo serve`` (pinned to one core when there are two or more), load
    generators in their own processes on the other cores; stops after the first step whose
    p99 passes :data:`KNEE_P99_MS` (``--past-knee``: keep going). ``--compare REF``: each step
    is played against a server of git ``REF`` first, then against this tree's."""
    steps = [int(x) for x in args.players.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="ubongo-knee-"))
    servers = [
        (label, start_server(folder, f"b{i}", src)) for i, (label, src) in enumerate(builds(args))
    ]
    load_cpus: set[int] | None = None
    rss0: dict[str, int] = {}
    for label, server in servers:
        assert server.proc is not None
        load_cpus = pin_server(server, args)
        rss0[label] = rss_bytes(server.proc.pid)
    print(
        f"knee: one server process{' pinned to one CPU' if load_cpus else ''} "
        f"(builds: {', '.join(label for label, _ in servers)}, one at a time), "
        f"{args.load_processes} load generator processes"
        f"{f' on CPU {sorted(load_cpus)}' if load_cpus else ''}; half of the players in "
        f"rooms of 4 playing {args.rounds} rounds ({args.puzzles} cards, think 0.5-"
        f"{args.think} s), half seated in lobbies; server RSS at start "
        f"{', '.join(f'{v / 2**20:.0f} MiB' for v in rss0.values())}",
        flush=True,
    )
    head = (
        f"{'build':>8} {'players':>7} {'n':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'server':>7} {'cards':>6} {'loadgen':>8} {'RSS MiB':>8} {'KiB/pl':>7} {'p50 x':>6} "
        f"{'p99 x':>6} {'CPU x':>6} {'lag99':>6} {'waited':>10} {'load':>5}  errors"
    )
    print(head, flush=True)
    first: dict[str, dict[str, Any]] = {}
    knee_at: dict[str, int] = {}
    args.room_index = 0
    try:
        for players in steps:
            for label, server in servers:
                if label in knee_at and not args.past_knee:
                    continue
                r = knee_step(server, players, args, load_cpus)
                ref = first.setdefault(label, r)
                per_player = (r["rss"] - rss0[label]) / r["players"] / 1024
                print(
                    f"{label[:8]:>8} {r['players']:7d} {r['n']:6d} {r['p50']:7.1f} "
                    f"{r['p99']:7.1f} {r['max']:7.1f} {r['cpu']:7.0%} {r['helpers_cpu']:6.0%} "
                    f"{r['load_cpu']:8.0%} {r['rss'] / 2**20:8.0f} {per_player:7.1f} "
                    f"{r['p50'] / ref['p50']:6.1f} {r['p99'] / ref['p99']:6.1f} "
                    f"{r['cpu'] / ref['cpu']:6.1f} {r['lag']:6.0f} {waited(r['waits']):>10} "
                    f"{r['loadavg']:5.2f}  "
                    f"{','.join(f'{c}:{n}' for c, n in sorted(r['errors'].items())) or '-'}",
                    flush=True,
                )
                if r["p99"] > KNEE_P99_MS and label not in knee_at:
                    knee_at[label] = r["players"]
            if len(knee_at) == len(servers) and not args.past_knee:
                break
    finally:
        for _label, server in servers:
            server.stop()
    print(
        f"ratios (x) against the build's first step ({steps[0]} players); server and cards: "
        f"CPU of the server process and of its card worker (100% = one core); loadgen: all "
        f"load generators; KiB/pl: (RSS with everybody connected - RSS at start) / players; "
        f"lag99: p99 of how late (ms) a room's second and later rounds began after the "
        f"time announced (cards still being made, or a busy loop); waited: of those rounds, "
        f"how many waited for the card worker and how long in all (s; '-': a build without "
        f"the metric); "
        f"load: the machine's 1-minute load average during the step"
    )
    for label, _server in servers:
        if label in knee_at:
            print(
                f"knee of {label}: {knee_at[label]} players (the first step whose p99 passes "
                f"{KNEE_P99_MS:.0f} ms)"
            )
        else:
            print(f"knee of {label}: not reached (every step's p99 <= {KNEE_P99_MS:.0f} ms)")


#: churn: a room is forgotten 3 s after its last player has gone (finished or not), so that
#: every round of players leaves nothing that the server means to keep
CHURN_ROOM_SECONDS = ("--idle-room-seconds=3", "--finished-room-seconds=3")


def rooms_open(server: ServerProcess) -> int:
    """How many rooms the server runs now (``ubongo_rooms`` on its ``/metrics``)."""
    return round(metric_total(scrape(server.url), "ubongo_rooms"))


def churn(args: argparse.Namespace) -> None:
    """Players who come and go: ``--churn N`` rounds of ``--players`` players (a knee step:
    half in rooms playing, half in lobbies) against one server whose rooms are forgotten 3 s
    after their players leave; after each round, once the server runs no room, its RSS. A
    server that frees what it no longer needs stays flat after the first round (its caches
    and the allocator's arenas filled). ``--compare REF``: the same against git REF first."""
    players = int(args.players or 1000)
    folder = Path(tempfile.mkdtemp(prefix="ubongo-churn-"))
    print(
        f"churn: {args.churn} rounds of {players} players ({args.puzzles} cards, {args.rounds} "
        f"rounds a game) against one server process, rooms forgotten 3 s after their players "
        f"leave; RSS read once the server runs no room",
        flush=True,
    )
    print(
        f"{'build':>8} {'round':>5} {'p99 ms':>7} {'RSS MiB':>8} {'+MiB':>6} {'x 1st':>6}",
        flush=True,
    )
    growth: dict[str, float] = {}
    args.room_index = 0
    for i, (label, src) in enumerate(builds(args)):
        server = start_server(folder, f"c{i}", src, CHURN_ROOM_SECONDS)
        assert server.proc is not None
        pid = server.proc.pid
        load_cpus = pin_server(server, args)
        after: list[int] = []
        try:
            for n in range(args.churn):
                r = knee_step(server, players, args, load_cpus)
                for _ in range(120):
                    if rooms_open(server) == 0:
                        break
                    time.sleep(1)
                time.sleep(3)  # (connections' last callbacks)
                after.append(rss_bytes(pid))
                print(
                    f"{label[:8]:>8} {n + 1:5d} {r['p99']:7.1f} {after[-1] / 2**20:8.0f} "
                    f"{(after[-1] - after[0]) / 2**20:6.0f} {after[-1] / after[0]:6.2f}",
                    flush=True,
                )
        finally:
            server.stop()
        if len(after) >= 2:
            growth[label] = (after[-1] - after[0]) / (len(after) - 1)
    for label, per_round in growth.items():
        print(
            f"{label}: {per_round / 2**20:.1f} MiB more per round after the first "
            f"({per_round / players / 1024:.1f} KiB per player who came and went)"
        )


#: every simulated player connects from this machine's one address: the per-address limits
#: (docs/server.md, "Rooms and limits") are raised so that they do not cap the load measured
BENCH_LIMITS = (
    "--connections-per-address=1000000",
    "--rooms-per-minute=1000000",
    "--accounts-per-hour=1000000",
)


def arguments(doc: str, ramp: bool = False) -> argparse.Namespace:
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
    if ramp:
        parser.add_argument(
            "--players",
            help="the knee: a ramp of connected players against one process, e.g. 1000,2000,4000",
        )
        parser.add_argument(
            "--knee", action="store_true", help=f"the ramp {','.join(map(str, KNEE_RAMP))}"
        )
        parser.add_argument("--load-processes", type=int, default=2)
        parser.add_argument("--past-knee", action="store_true", help="go on past the knee")
        parser.add_argument(
            "--churn",
            type=int,
            metavar="N",
            help="N rounds of --players (one number, default 1000) who come and go",
        )
        parser.add_argument("--no-pin", action="store_true", help="do not pin the server")
        parser.add_argument(
            "--compare", metavar="REF", help="also run each step against git REF's server"
        )
    return parser.parse_args()


def main() -> None:
    args = arguments(__doc__ or "", ramp=True)
    if args.churn:
        churn(args)
        return
    if args.knee and not args.players:
        args.players = ",".join(map(str, KNEE_RAMP))
    if args.players:
        knee(args)
        return
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
