"""Benchmark of an arena (docs/arenas.md, issue 25): simulated players racing in one arena.

For each step of ``--players`` (the first is the reference): a fresh ``ubongo serve`` (a fresh
SQLite file; its process pinned to one core, its card worker left free as in bench/server.py),
one arena made on it (Classic, races of 4, starting at once, 10 minutes or more), and that many
simulated players in load generator processes (``--load-processes``, default one a core left)
pinned to the other core(s). Each player has its own account and client address
(``X-Forwarded-For``, which the server trusts from 127.0.0.1: two accounts of one address are
never seated together), joins, keeps the arena socket open, and plays every race it is seated
in: it opens the race's room socket, thinks ``--think`` seconds (uniform) once the task is
dealt, submits the solver's arrangement and stays to the race's end. After ``--warmup`` seconds of
races (played, not counted) come ``--minutes`` of measured races:

* **pairing wait**: from the moment a player is free (its arena socket's first view, or its
  previous race's ``game_over``) to the arena view carrying its next seat;
* **submit -> verdict**: from sending the arrangement to its ``verdict``;
* **standings delay**: from a race's ``game_over`` to the first arena view whose ``me.results``
  holds that race (the arena socket and the room socket are two connections: a race may be
  scored, and its player seated again, before its ``game_over`` comes; such a wait counts as
  0, and how often it happened is printed);
* messages and bytes each player receives a minute, on the arena socket and on room sockets;
* the server's CPU (utime + stime from /proc; 100% = one core) and its card worker's, its RSS
  at the end and per player; the load generators' CPU and event-loop lag (if they are busy or
  late, the client was the bottleneck, not the server).

Prints one line per step, then a Markdown table (absolute figures, and ratios against the
first step) with the command that made it, for docs/arenas.md. Goals (issue 25): pairing wait
p99 < 3 s, verdict p99 < 50 ms, standings delay p99 < 2 s, messages per player flat from 100
to 1,000 players.

    .venv/bin/python bench/arena.py                          # 100 then 1,000 players, 5 min
    .venv/bin/python bench/arena.py --quick                  # 24 players, 1.5 min: a fast look
    .venv/bin/python bench/arena.py --players 40 --minutes 2 --think 3,15

A step takes its minutes plus about a minute (start, players joining, warm-up, the end): the
default run about 13 minutes on an idle two-core machine.

Several processes (``--redis-url``) are not measured: arenas are not offered there yet
(``503 unavailable``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import shlex
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server import children_of, cpu_seconds, pct, rss_bytes, threads_of  # bench/server.py
from server_harness import ServerProcess, solution

EDITION = "classic"
#: the arena's races: 4 seats (docs/arenas.md)
SEATS = 4
#: ``ubongo serve`` flags of every step: no schedule (one arena only), machine players (no
#: speed floor, no play traces, nothing held for review), and the per-address limits raised
#: (each player has its own address, but a generous ceiling keeps them out of the figures)
SERVE_FLAGS = (
    "--arena-schedule=none",
    "--record-seconds-per-piece=0",
    "--no-require-traces",
    "--hold-score=0",
    "--accounts-per-hour=1000000",
    "--connections-per-address=1000000",
    "--rooms-per-minute=1000000",
    "--arenas-per-day=1000",
)
#: what a player may see out of order (counted, not a fault: the arena and the room are two
#: sockets): its race scored, or its next seat, before the race's ``game_over`` came
SEEN_EARLY = (
    "scored before its game_over came",
    "seated again before the last race's game_over came",
)
#: goals of issue 25 (p99)
GOAL_PAIRING_S, GOAL_VERDICT_MS, GOAL_STANDINGS_S = 3.0, 50.0, 2.0
#: a race not over after this long is given up (a Classic round: 60 s, a second chance 60 s)
RACE_TIMEOUT_S = 300.0
#: how long a player waits for its verdict
VERDICT_TIMEOUT_S = 30.0
#: sockets opened at once while the players arrive
CONNECT_AT_ONCE = 50
#: the event-loop lag probe's period
LAG_PERIOD_S = 0.1

_solutions: dict[str, list[dict[str, Any]]] = {}


def solved(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The solver's arrangement for a task (cached by what the task is)."""
    key = json.dumps([task["area"], task["pieces"], task["layers"]])
    if key not in _solutions:
        _solutions[key] = solution(task, EDITION)
    return _solutions[key]


def address_of(index: int) -> str:
    """Player ``index``'s own client address (10.0.0.1, 10.0.0.2, ...)."""
    return f"10.{index // 62500 % 250}.{index // 250 % 250}.{index % 250 + 1}"


# --- one load generator ---------------------------------------------------------------------


class Stats:
    """What a generator measured: samples and counts, kept only while ``measuring``."""

    def __init__(self) -> None:
        self.measuring = False
        self.samples: dict[str, list[float]] = defaultdict(list)
        self.counts: Counter[str] = Counter()
        #: what went wrong (counted over the whole run, warm-up included)
        self.problems: Counter[str] = Counter()
        #: the races measured (their numbers), and those with bots in seats
        self.races: set[int] = set()
        self.bot_races: set[int] = set()

    def note(self, kind: str, value: float) -> None:
        if self.measuring:
            self.samples[kind].append(value)

    def count(self, kind: str, n: int = 1) -> None:
        if self.measuring:
            self.counts[kind] += n


class Sim:
    """One simulated player: its arena page (kept open) and the races it is seated in."""

    def __init__(self, gen: Generator, index: int, token: str) -> None:
        self.gen = gen
        self.st = gen.st
        self.index = index
        self.token = token
        self.headers = {"X-Forwarded-For": address_of(index)}
        self.rng = random.Random(index)
        self.first_view = asyncio.Event()
        #: seats not raced yet, each with when its view came
        self.seats: asyncio.Queue[tuple[dict[str, Any], float]] = asyncio.Queue()
        self.raced: set[str] = set()
        #: since when the player is free (None: in a race)
        self.free_at: float | None = None
        #: race number -> when its game_over came (waiting for the view that scores it)
        self.over_at: dict[int, float] = {}
        #: race number -> when the first view holding its result came
        self.scored: dict[int, float] = {}
        self.seated = 0
        self.seated_measured = 0
        self._verdict: asyncio.Future[tuple[float, bool]] | None = None

    # --- the arena page -------------------------------------------------------------------------

    async def keep_page(self) -> None:
        """The arena socket, open for good (opened again at once if the server drops it)."""
        url = f"{self.gen.ws_url}/arenas/{self.gen.arena}"
        while True:
            try:
                async with self.gen.connecting:
                    ws = await connect(
                        url,
                        additional_headers=self.headers,
                        max_size=None,
                        ping_interval=None,
                        open_timeout=120,
                    )
                async with ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    async for text in ws:
                        assert isinstance(text, str)
                        self.on_view(text)
                self.st.problems["arena socket closed by the server"] += 1
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as e:
                self.st.problems[f"arena socket lost ({type(e).__name__})"] += 1
            await asyncio.sleep(1.0)

    def on_view(self, text: str) -> None:
        now = time.perf_counter()
        self.st.count("arena frames")
        self.st.count("arena bytes", len(text.encode()))
        msg = json.loads(text)
        if msg.get("type") != "arena":
            self.st.problems[f"arena socket error {msg.get('code')}"] += 1
            return
        if not self.first_view.is_set():
            self.first_view.set()
            self.free_at = now
        me = msg.get("me")
        if not me:
            return
        seat = me.get("seat")
        if seat and seat["code"] not in self.raced:
            self.raced.add(seat["code"])
            self.seats.put_nowait((seat, now))
        results = me["results"]
        if len(results) > len(self.scored):
            for r in results:
                number = r["race"]
                if number not in self.scored:
                    self.scored[number] = now
                    over = self.over_at.pop(number, None)
                    if over is not None:
                        self.st.note("standings", now - over)

    # --- races ------------------------------------------------------------------------------

    async def play(self) -> None:
        """Every race the player is seated in, one after the other, for good."""
        await self.first_view.wait()
        while True:
            seat, seated_at = await self.seats.get()
            if self.free_at is not None:
                if seated_at < self.free_at:  # seated before its last game_over came
                    self.st.count(SEEN_EARLY[1])
                self.st.note("pairing", max(0.0, seated_at - self.free_at))
            self.free_at = None
            self.seated += 1
            if self.st.measuring:
                self.seated_measured += 1
            try:
                async with asyncio.timeout(RACE_TIMEOUT_S):
                    over = await self.race(seat, seated_at)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as e:
                self.st.problems[f"race lost ({type(e).__name__})"] += 1
                over = time.perf_counter()
            self.free_at = over

    async def race(self, seat: dict[str, Any], seated_at: float) -> float:
        """One race: its room socket from hello to ``game_over``; when that came."""
        async with self.gen.connecting:
            ws = await connect(
                self.gen.ws_url,
                additional_headers=self.headers,
                max_size=None,
                ping_interval=None,
                open_timeout=120,
            )
        thinking: set[asyncio.Task[None]] = set()
        try:
            async with ws:
                return await self.follow(ws, seat, seated_at, thinking)
        finally:
            for task in list(thinking):
                task.cancel()

    async def follow(
        self,
        ws: ClientConnection,
        seat: dict[str, Any],
        seated_at: float,
        thinking: set[asyncio.Task[None]],
    ) -> float:
        """The room socket's frames, from hello to ``game_over``; when that came."""
        number: int | None = None
        played: set[int] = set()
        mine = str(seat["seat"])
        await ws.send(json.dumps({"type": "hello", "room": seat["code"], "token": seat["token"]}))
        async for text in ws:
            now = time.perf_counter()
            assert isinstance(text, str)
            self.st.count("room frames")
            self.st.count("room bytes", len(text.encode()))
            if text.startswith('{"type":"verdict"'):
                if self._verdict is not None and not self._verdict.done():
                    self._verdict.set_result((now, bool(json.loads(text)["ok"])))
                continue
            game: dict[str, Any] | None = None
            if text.startswith('{"type":"welcome"'):
                number, game = self.welcome(json.loads(text)["room"])
            elif text.startswith('{"type":"error"'):
                self.st.problems[f"room error {json.loads(text)['code']}"] += 1
                continue
            elif '"kind":"round_started"' in text[:100]:
                game = json.loads(text)["room"]["game"]
            elif '"kind":"game_over"' in text[:100]:
                self.ended(number, now)
                return now
            if game is None or game["round"] in played or not game["tasks"].get(mine):
                continue
            played.add(game["round"])
            self.st.note("dealt", now - seated_at)
            task = asyncio.create_task(self.submit(ws, game, game["tasks"][mine], now))
            thinking.add(task)
            task.add_done_callback(thinking.discard)
        self.st.problems["room socket closed before game_over"] += 1
        return time.perf_counter()

    def welcome(self, room: dict[str, Any]) -> tuple[int | None, dict[str, Any] | None]:
        """The race's number, and its game if its round is on already (a late arrival)."""
        number: int | None = room["settings"]["arena_race"]
        if self.st.measuring and number is not None:
            self.st.counts["player races"] += 1
            self.st.races.add(number)
            if any(s and s["kind"] == "bot" for s in room["seats"]):
                self.st.bot_races.add(number)
        game: dict[str, Any] | None = room["game"]
        if game is not None and game["stage"] not in ("playing", "second_chance"):
            game = None
        return number, game

    def ended(self, number: int | None, now: float) -> None:
        """The race's ``game_over``: its standings delay starts (or is 0 if the view that
        scores it came first)."""
        if number is None:
            self.st.problems["game_over without a welcome"] += 1
        elif number in self.scored:
            self.st.note("standings", 0.0)
            self.st.count(SEEN_EARLY[0])
        else:
            self.over_at[number] = now

    async def submit(
        self, ws: ClientConnection, game: dict[str, Any], task: dict[str, Any], dealt: float
    ) -> None:
        think = self.rng.uniform(*self.gen.think)
        await asyncio.sleep(max(0.0, dealt + think - time.perf_counter()))
        placements = solved(task)
        self._verdict = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        message = {"type": "submit", "round": game["round"], "placements": placements}
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            return  # the race is over for this socket (the player went, or the run ends)
        try:
            got, ok = await asyncio.wait_for(self._verdict, VERDICT_TIMEOUT_S)
        except TimeoutError:
            self.st.problems["no verdict in 30 s"] += 1
            return
        self.st.note("verdict", (got - sent) * 1000)
        if not ok:
            self.st.problems["arrangement refused"] += 1


class Generator:
    """A load generator process's share of the players."""

    def __init__(
        self,
        port: int,
        arena: str,
        tokens: list[tuple[int, str]],
        think: tuple[float, float],
        phase: Any,
    ) -> None:
        self.ws_url = f"ws://127.0.0.1:{port}/ws"
        self.arena = arena
        self.think = think
        self.phase = phase
        self.st = Stats()
        self.sims = [Sim(self, index, token) for index, token in tokens]
        self.connecting = asyncio.Semaphore(CONNECT_AT_ONCE)
        self.cpu = 0.0
        self.wall = 0.0

    async def probe_lag(self) -> None:
        """How late the event loop wakes up (the generator's own delay in every figure)."""
        while True:
            t = time.perf_counter()
            await asyncio.sleep(LAG_PERIOD_S)
            self.st.note("lag", (time.perf_counter() - t - LAG_PERIOD_S) * 1000)

    async def run(self, barrier: Any, out: Any) -> None:
        """Bring the players to their page, wait for the others, measure while the main
        process says so; the figures go to ``out`` before the sockets are closed."""
        tasks: list[asyncio.Task[Any]] = [asyncio.create_task(self.probe_lag())]
        for sim in self.sims:
            tasks += [asyncio.create_task(sim.keep_page()), asyncio.create_task(sim.play())]
        arrived = [asyncio.create_task(s.first_view.wait()) for s in self.sims]
        _done, late = await asyncio.wait(arrived, timeout=600)
        for t in late:
            t.cancel()
        if late:
            self.st.problems["never saw the arena"] += len(late)
        await asyncio.to_thread(barrier.wait)  # every generator's players are on their page
        while self.phase.value < 1:
            await asyncio.sleep(0.05)
        self.st.measuring = True
        cpu0, t0 = time.process_time(), time.perf_counter()
        while self.phase.value < 2:
            await asyncio.sleep(0.05)
        self.st.measuring = False
        self.cpu, self.wall = time.process_time() - cpu0, time.perf_counter() - t0
        result = {
            "samples": dict(self.st.samples),
            "counts": dict(self.st.counts),
            "problems": dict(self.st.problems),
            "races": self.st.races,
            "bot_races": self.st.bot_races,
            "cpu": self.cpu,
            "wall": self.wall,
            "players": len(self.sims),
            "unseated": sum(1 for s in self.sims if s.seated_measured == 0),
            "never_seated": sum(1 for s in self.sims if s.seated == 0),
        }
        out.put(result)
        for t in tasks:
            t.cancel()
        await asyncio.wait(tasks, timeout=15)


def _setup(port: int, arena: str, indices: range) -> tuple[list[tuple[int, str]], Counter[str]]:
    """Each player's account (made from its own address) joined to the arena: (index, token)."""
    server = ServerProcess("", port=port)
    problems: Counter[str] = Counter()

    def one(index: int) -> tuple[int, str] | None:
        try:
            return joined(index)
        except OSError as e:
            problems[f"account or join failed ({type(e).__name__})"] += 1
            return None

    def joined(index: int) -> tuple[int, str] | None:
        address = address_of(index)
        status, body = server.post("/api/accounts", {}, address=address)
        if status != 201:
            problems[f"account refused {status} {body['error']['code']}"] += 1
            return None
        token = str(body["token"])
        status, body = server.post(f"/api/arenas/{arena}/join", {}, token, address=address)
        if status != 200:
            problems[f"join refused {status} {body['error']['code']}"] += 1
            return None
        return index, token

    with ThreadPoolExecutor(8) as pool:
        made = [t for t in pool.map(one, indices) if t is not None]
    return made, problems


def _generator_process(
    port: int,
    arena: str,
    indices: range,
    think: tuple[float, float],
    barrier: Any,
    phase: Any,
    out: Any,
    cpus: set[int] | None,
) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        tokens, problems = _setup(port, arena, indices)

        async def go() -> None:
            gen = Generator(port, arena, tokens, think, phase)
            gen.st.problems.update(problems)
            await gen.run(barrier, out)

        asyncio.run(go())
    except BaseException as e:
        import traceback

        barrier.abort()
        out.put({"failed": "".join(traceback.format_exception(e))[-3000:]})


# --- one step: a server, an arena, N players ---------------------------------------------------


def pin_server(pid: int, no_pin: bool) -> set[int] | None:
    """The server process (every thread of it) on the first core; the cores left for the load
    generators (None: nothing pinned). Its card worker, started with it, is left where the
    system puts it, as in bench/server.py (it is made to use another core: its CPU is a
    column of its own)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2 or no_pin:
        return None
    for tid in threads_of(pid):
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(tid, {cores[0]})
    return set(cores[1:])


def make_arena(server: ServerProcess, minutes: int) -> str:
    """A running arena (Classic, races of 4, from now for ``minutes``): its id."""
    status, body = server.post("/api/accounts", {}, address="10.250.250.250")
    assert status == 201, body
    new = {
        "title": "Bench arena",
        "edition": EDITION,
        "minutes": minutes,
        "seats": SEATS,
        "starts_in": 0,
        "private": False,
    }
    status, view = server.post("/api/arenas", new, body["token"])
    assert status == 201, view
    return str(view["id"])


def server_cpu(pid: int, helpers: list[int]) -> tuple[float, float]:
    """CPU seconds of the server and of its helper processes (the card worker)."""
    alive = [c for c in helpers if Path(f"/proc/{c}").exists()]
    return cpu_seconds(pid), sum(cpu_seconds(c) for c in alive)


def progress(server: ServerProcess, arena: str, label: str, t0: float) -> None:
    """A line now and then while a step runs (a long run says it is alive)."""
    try:
        view = server.get(f"/api/arenas/{arena}")
        print(
            f"  {label} {time.perf_counter() - t0:5.0f} s: {view['players']} players, "
            f"{view['races_in_play']} races in play",
            flush=True,
        )
    except OSError as e:
        print(f"  {label}: the arena did not answer ({e})", flush=True)


def wait_phase(server: ServerProcess, arena: str, label: str, seconds: float) -> None:
    t0 = time.perf_counter()
    while (left := seconds - (time.perf_counter() - t0)) > 0:
        time.sleep(min(60.0, left))
        if seconds - (time.perf_counter() - t0) > 1:
            progress(server, arena, label, t0)


def step(players: int, args: argparse.Namespace, folder: Path, n: int) -> dict[str, Any]:
    """One step: a fresh server and arena, ``players`` simulated players; its figures."""
    import multiprocessing

    server = ServerProcess(
        f"sqlite:///{folder / f'arena{n}.sqlite3'}", log=folder / f"arena{n}.log", args=SERVE_FLAGS
    )
    server.start(timeout=180)
    assert server.proc is not None
    pid = server.proc.pid
    try:
        load_cpus = pin_server(pid, args.no_pin)
        rss0 = rss_bytes(pid)
        arena_minutes = min(60, max(10, math.ceil(args.warmup / 60 + args.minutes + 4)))
        arena = make_arena(server, arena_minutes)
        k = args.load_processes or max(1, len(load_cpus or ()) or 1)
        k = min(k, players)
        ctx = multiprocessing.get_context("fork")
        barrier = ctx.Barrier(k + 1, timeout=1200)
        phase = ctx.Value("i", 0)
        out = ctx.Queue()
        procs = [
            ctx.Process(
                target=_generator_process,
                args=(
                    server.port,
                    arena,
                    range(players * i // k, players * (i + 1) // k),
                    args.think,
                    barrier,
                    phase,
                    out,
                    load_cpus,
                ),
            )
            for i in range(k)
        ]
        t_setup = time.perf_counter()
        for proc in procs:
            proc.start()
        try:
            barrier.wait()  # every player joined, on its arena page
        except threading.BrokenBarrierError:
            got = [out.get(timeout=60) for _ in procs]
            failed = [r.get("failed") for r in got]
            raise RuntimeError(f"a load generator failed: {failed}") from None
        setup = time.perf_counter() - t_setup
        label = f"{players} players"
        print(f"  {label}: joined and on the arena page in {setup:.0f} s", flush=True)
        wait_phase(server, arena, f"{label} warm-up", args.warmup)
        helpers = children_of(pid)
        cpu0, help0 = server_cpu(pid, helpers)
        load0 = os.getloadavg()[0]
        t0 = time.perf_counter()
        phase.value = 1
        wait_phase(server, arena, label, args.minutes * 60)
        phase.value = 2
        wall = time.perf_counter() - t0
        cpu1, help1 = server_cpu(pid, helpers)
        rss = rss_bytes(pid)
        loadavg = (load0 + os.getloadavg()[0]) / 2
        results = [out.get(timeout=300) for _ in procs]
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
        failures = [r["failed"] for r in results if "failed" in r]
        if failures:
            raise RuntimeError(f"a load generator failed: {failures}")
    finally:
        server.stop()
    logged = server.log_path.read_text() if server.log_path else ""
    merged = merge(results)
    merged.update(
        players=players,
        wall=wall,
        cpu=(cpu1 - cpu0) / wall,
        cards=(help1 - help0) / wall,
        rss=rss,
        rss_per_player=(rss - rss0) / players,
        loadavg=loadavg,
        setup=setup,
        generators=k,
        tracebacks=logged.count("Traceback"),
    )
    return merged


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The generators' figures together."""
    samples: dict[str, list[float]] = defaultdict(list)
    counts: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    races: set[int] = set()
    bot_races: set[int] = set()
    for r in results:
        for kind, values in r["samples"].items():
            samples[kind] += values
        counts.update(r["counts"])
        problems.update(r["problems"])
        races |= r["races"]
        bot_races |= r["bot_races"]
    counts["races"], counts["races with bots"] = len(races), len(bot_races)
    wall = max(r["wall"] for r in results)
    return {
        "samples": samples,
        "counts": counts,
        "problems": problems,
        "loadgen": sum(r["cpu"] for r in results) / wall,
        "unseated": sum(r["unseated"] for r in results),
        "never_seated": sum(r["never_seated"] for r in results),
        "joined": sum(r["players"] for r in results),
    }


# --- figures and the report --------------------------------------------------------------------


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


def p99(values: list[float]) -> float:
    return pct(values, 0.99) if values else math.nan


def figures(r: dict[str, Any]) -> dict[str, float]:
    """A step's figures by name (per player per minute for the traffic)."""
    s, c = r["samples"], r["counts"]
    per = r["players"] * r["wall"] / 60
    return {
        "races": c["races"],
        "bots": c["races with bots"] / c["races"] if c["races"] else math.nan,
        "races_pm": c["player races"] / per,
        "pair50": p50(s["pairing"]),
        "pair99": p99(s["pairing"]),
        "verdict50": p50(s["verdict"]),
        "verdict99": p99(s["verdict"]),
        "stand50": p50(s["standings"]),
        "stand99": p99(s["standings"]),
        "dealt50": p50(s["dealt"]),
        "dealt99": p99(s["dealt"]),
        "arena_msgs": c["arena frames"] / per,
        "arena_kib": c["arena bytes"] / per / 1024,
        "room_msgs": c["room frames"] / per,
        "room_kib": c["room bytes"] / per / 1024,
        "cpu": r["cpu"],
        "cards": r["cards"],
        "rss": r["rss"] / 2**20,
        "kib_pl": r["rss_per_player"] / 1024,
        "loadgen": r["loadgen"],
        "lag99": p99(s["lag"]),
    }


def ratio(value: float, ref: float) -> str:
    if not (math.isfinite(value) and math.isfinite(ref)) or ref == 0:
        return "-"
    return f"{value / ref:.1f}x"


def line(r: dict[str, Any], ref: dict[str, Any]) -> str:
    f, g = figures(r), figures(ref)
    problems = ", ".join(f"{k}: {v}" for k, v in sorted(r["problems"].items())) or "-"
    return (
        f"{r['players']:7d} {f['races']:6.0f} {f['bots']:5.0%} "
        f"{f['pair50']:6.2f} {f['pair99']:6.2f} {f['verdict50']:6.1f} {f['verdict99']:6.1f} "
        f"{f['stand50']:6.2f} {f['stand99']:6.2f} {f['arena_msgs']:6.1f} {f['arena_kib']:7.1f} "
        f"{f['room_msgs']:6.1f} {f['room_kib']:7.1f} {f['cpu']:6.0%} {f['cards']:5.0%} "
        f"{f['rss']:6.0f} {f['kib_pl']:6.1f} {f['loadgen']:6.0%} {f['lag99']:6.1f} "
        f"{ratio(f['pair99'], g['pair99']):>6} {ratio(f['verdict99'], g['verdict99']):>6} "
        f"{ratio(f['stand99'], g['stand99']):>6} {ratio(f['arena_msgs'], g['arena_msgs']):>6} "
        f"{ratio(f['cpu'], g['cpu']):>6}  {problems}"
    )


HEAD = (
    f"{'players':>7} {'races':>6} {'bots':>5} {'pair50':>6} {'pair99':>6} {'ver50':>6} "
    f"{'ver99':>6} {'std50':>6} {'std99':>6} {'a-msg':>6} {'a-KiB':>7} {'r-msg':>6} "
    f"{'r-KiB':>7} {'server':>6} {'cards':>5} {'RSS':>6} {'KiB/pl':>6} {'loadgen':>6} "
    f"{'lag99':>6} {'pair x':>6} {'ver x':>6} {'std x':>6} {'msg x':>6} {'CPU x':>6}  problems"
)

#: the rows of the Markdown table: title, figures, their format, the figure the ratio is of
#: (None: none), the goal in words and whether a step met it
Row = tuple[str, tuple[str, ...], str, str | None, str, Callable[[dict[str, float]], bool] | None]
ROWS: list[Row] = [
    ("races measured", ("races", "bots"), "{:.0f} ({:.0%} with bots)", None, "", None),
    ("races a player a minute", ("races_pm",), "{:.2f}", "races_pm", "", None),
    (
        "pairing wait p50 / p99 (s)",
        ("pair50", "pair99"),
        "{:.2f} / {:.2f}",
        "pair99",
        "p99 < 3 s",
        lambda f: f["pair99"] < GOAL_PAIRING_S,
    ),
    (
        "submit to verdict p50 / p99 (ms)",
        ("verdict50", "verdict99"),
        "{:.1f} / {:.1f}",
        "verdict99",
        "p99 < 50 ms",
        lambda f: f["verdict99"] < GOAL_VERDICT_MS,
    ),
    (
        "standings delay p50 / p99 (s)",
        ("stand50", "stand99"),
        "{:.2f} / {:.2f}",
        "stand99",
        "p99 < 2 s",
        lambda f: f["stand99"] < GOAL_STANDINGS_S,
    ),
    (
        "seat to task dealt p50 / p99 (s)",
        ("dealt50", "dealt99"),
        "{:.2f} / {:.2f}",
        "dealt99",
        "",
        None,
    ),
    (
        "arena socket: messages / KiB a player a minute",
        ("arena_msgs", "arena_kib"),
        "{:.1f} / {:.1f}",
        "arena_msgs",
        "messages flat",
        None,
    ),
    (
        "room sockets: messages / KiB a player a minute",
        ("room_msgs", "room_kib"),
        "{:.1f} / {:.1f}",
        "room_msgs",
        "messages flat",
        None,
    ),
    (
        "server CPU / card worker CPU (100% = one core)",
        ("cpu", "cards"),
        "{:.0%} / {:.0%}",
        "cpu",
        "",
        None,
    ),
    (
        "server RSS at the end (MiB) / KiB a player",
        ("rss", "kib_pl"),
        "{:.0f} / {:.0f}",
        "rss",
        "",
        None,
    ),
    (
        "load generators: CPU / loop lag p99 (ms)",
        ("loadgen", "lag99"),
        "{:.0%} / {:.1f}",
        "loadgen",
        "",
        None,
    ),
]


def markdown(steps: list[dict[str, Any]], command: str) -> str:
    """The table docs/arenas.md keeps: each figure per step, with its ratio to the first."""
    ref = figures(steps[0])
    cols = [f"{r['players']:,} players" for r in steps]
    out = [
        f"`{command}`",
        "",
        f"| figure | goal | {' | '.join(cols)} |",
        "|---|---|" + "---|" * len(steps),
    ]
    for title, keys, fmt, of, goal, met in ROWS:
        cells = []
        for i, r in enumerate(steps):
            f = figures(r)
            cell = fmt.format(*(f[k] for k in keys))
            if i and of is not None:
                cell += f" ({ratio(f[of], ref[of])})"
            if met is not None:
                cell += " ok" if met(f) else " **missed**"
            cells.append(cell)
        out.append(f"| {title} | {goal} | {' | '.join(cells)} |")
    return "\n".join(out)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--players", default="100,1000", help="the steps, players in the arena (first: reference)"
    )
    parser.add_argument("--minutes", type=float, default=5.0, help="measured minutes a step")
    parser.add_argument(
        "--warmup", type=float, default=20.0, help="seconds of races played before measuring"
    )
    parser.add_argument(
        "--think", default="3,15", help="a player's think time, uniform between LO,HI seconds"
    )
    parser.add_argument(
        "--load-processes", type=int, default=0, help="load generators (0: one a free core)"
    )
    parser.add_argument("--no-pin", action="store_true", help="pin neither server nor players")
    parser.add_argument("--quick", action="store_true", help="24 players, 1.5 minutes")
    args = parser.parse_args()
    if args.quick:
        args.players, args.minutes, args.warmup = "24", 1.5, 10.0
    lo, hi = (float(x) for x in args.think.split(","))
    args.think = (lo, hi)
    args.steps = [int(x) for x in args.players.split(",")]
    return args


def main() -> None:
    args = arguments()
    command = shlex.join([".venv/bin/python", "bench/arena.py", *sys.argv[1:]])
    folder = Path(tempfile.mkdtemp(prefix="ubongo-arena-"))
    lo, hi = args.think
    print(
        f"arena bench: {', '.join(map(str, args.steps))} players in one arena (Classic, races "
        f"of {SEATS}), think {lo:g}-{hi:g} s, {args.warmup:g} s warm-up then {args.minutes:g} "
        f"min measured a step; {os.cpu_count()} CPUs, "
        f"{'nothing pinned' if args.no_pin else 'server pinned to one'}; logs in {folder}",
        flush=True,
    )
    print(
        "several processes (--redis-url): not measured yet: arenas are not offered there "
        "(503 unavailable, docs/arenas.md)",
        flush=True,
    )
    steps: list[dict[str, Any]] = []
    for n, players in enumerate(args.steps):
        r = step(players, args, folder, n)
        steps.append(r)
        if n == 0:
            print(HEAD)
        print(line(r, steps[0]), flush=True)
        notes = [
            f"{r['generators']} load generator(s)",
            f"setup {r['setup']:.0f} s",
            f"load average {r['loadavg']:.2f}",
            f"{r['joined']} of {players} joined",
            f"{r['unseated']} not seated while measured",
            f"{r['never_seated']} never seated",
        ]
        c = r["counts"]
        for note in SEEN_EARLY:
            if c[note]:
                notes.append(f"{note}: {c[note]} of {c['player races']} player races")
        if r["tracebacks"]:
            notes.append(f"the server logged {r['tracebacks']} tracebacks")
        print("        " + "; ".join(notes), flush=True)
    print(
        "pair: pairing wait (s); ver: submit -> verdict (ms); std: standings delay (s); a-/r-: "
        "arena / room sockets, messages and KiB a player a minute; server, cards: CPU of the "
        "server and of its card worker (100% = one core); RSS MiB at the end, KiB/pl its growth "
        "a player; loadgen: the load generators' CPU; lag99: their event loop's p99 lag (ms); "
        f"x: against the first step ({args.steps[0]} players)"
    )
    print()
    print(markdown(steps, command))


if __name__ == "__main__":
    main()
