"""Benchmark of an arena (docs/arenas.md, issue 25): simulated players racing in one arena.

For each step of ``--players`` (the first is the reference), and for each count of
``--processes`` (default ``1,2``: the same step on one process, then on two):

* **one process**: a fresh ``ubongo serve`` (a fresh SQLite file; its process pinned to one
  core, its card worker left free as in bench/server.py), the load generators pinned to the
  other core(s);
* **N processes behind nginx**: the whole cluster as an operator starts it, ``scripts/cluster
  up`` (a PostgreSQL of its own, Redis, N ``ubongo serve --redis-url`` and nginx in front, as
  in bench/cluster.py); one process leads the arenas (docs/arenas.md, "Several processes"),
  the others forward to it and make the races' rooms it deals them. The players talk to
  nginx only: HTTP and the arena socket (``/ws/arenas/ID``) go wherever nginx sends them, a
  race's room socket names its room (``/ws?room=CODE``, as the web client does), so nginx
  sends it to the process that made the room. **Nothing is pinned**: the machine's cores
  (two here) are shared by the servers, Redis, PostgreSQL, nginx and the load generators.

On each: one arena made (the first edition of the editions' data, races of 4, starting at once,
10 minutes or more), and that many simulated players in load generator processes
(``--load-processes``; by default one a free core, and at least one for each
:data:`PLAYERS_PER_GENERATOR` players: a real player has a machine of their own, and one
process for a thousand was late with the bursts of a thousand sockets, and every figure taken
at the players carries that). Each player has its own account and client address: it connects
from its own loopback address (127.1.0.1, 127.1.0.2, ...; 127.0.0.0/8 is all the loopback's),
which the server sees as the peer directly, or through nginx as ``X-Forwarded-For:
$remote_addr`` (the deployed configuration, deploy/nginx-ubongo.conf.template, trusted from
127.0.0.1): two accounts of one address are never seated together. A player joins, keeps the
arena socket open, and plays every race it is seated in: it opens the race's room socket,
thinks ``--think`` seconds (uniform) once the task is dealt, submits the solver's arrangement
and stays to the race's end. After ``--warmup`` seconds of races (played, not counted) come
``--minutes`` of measured races:

* **pairing wait**: from the moment a player is free (its arena socket's first view, or its
  previous race's ``game_over``) to the arena view carrying its next seat;
* **submit -> verdict**: from sending the arrangement to its ``verdict``; and the servers'
  own figure (``ubongo_submit_to_verdict_seconds`` on their ``/metrics``, read before and after
  the measured minutes: from the frame's arrival to the verdict sent), with their event
  loop's lag, which tell the server's part from the load generator's (to the bucket);
* **standings delay**: from a race's ``game_over`` to the first arena view whose ``me.results``
  holds that race (the arena socket and the room socket are two connections: a race may be
  scored, and its player seated again, before its ``game_over`` comes; such a wait counts as
  0, and how often it happened is printed);
* messages and bytes each player receives a minute, on the arena socket and on room sockets;
* the servers' CPU (utime + stime from /proc; 100% = one core), all together and each process,
  and their card workers'; each process's RSS at the end, and its growth per player; with
  several processes, Redis's, PostgreSQL's and nginx's CPU, and which process leads the
  arenas (``leads_arenas`` of each process's ``GET /api/health``); the load generators' CPU
  and event-loop lag (if they are busy or late, the client was the bottleneck, not the
  server).

Prints one line per run, then a Markdown table (absolute figures, and ratios against the
first run: the first step on the first process count) with the command that made it, for
docs/arenas.md. Goals (issue 25): pairing wait p99 < 3 s, verdict p99 < 50 ms, standings delay
p99 < 2 s, messages per player flat from 100 to 1,000 players.

    .venv/bin/python bench/arena.py                          # 100 then 1,000 players, 5 min,
                                                             # each on 1 then 2 processes
    .venv/bin/python bench/arena.py --players 1000 --minutes 3   # issue 25's comparison
    .venv/bin/python bench/arena.py --quick                  # 24 players, 1.5 min: a fast look
    .venv/bin/python bench/arena.py --processes 1 --players 40 --minutes 2 --think 3,15

A run takes its minutes plus about a minute (start, players joining, warm-up, the end): the
default run (four runs) about 26 minutes on an idle two-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import os
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cluster import children, cluster_down, postgres_pids  # bench/cluster.py
from server import children_of, cpu_seconds, pct, rss_bytes, threads_of  # bench/server.py
from server_harness import ROOT, ServerProcess, free_port, scrape, solution

from ubongo import editions

#: the arena's edition: the first of the editions' data (its title in the bench's lines)
EDITION = editions.names()[0]
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
#: the same, for the processes scripts/cluster starts (ServerProcess adds the log level itself)
CLUSTER_FLAGS = ("--log-level=warning", *SERVE_FLAGS)
#: nginx's connections a player may hold: its arena socket and a race's room socket, each
#: twice (the player's side and the process's)
NGINX_PER_PLAYER = 4
#: what a player may see out of order (counted, not a fault: the arena and the room are two
#: sockets): its race scored, or its next seat, before the race's ``game_over`` came
SEEN_EARLY = (
    "scored before its game_over came",
    "seated again before the last race's game_over came",
)
#: goals of issue 25 (p99)
GOAL_PAIRING_S, GOAL_VERDICT_MS, GOAL_STANDINGS_S = 3.0, 50.0, 2.0
#: a race not over after this long is given up (a round and a second chance, a few minutes)
RACE_TIMEOUT_S = 300.0
#: how long a player waits for its verdict
VERDICT_TIMEOUT_S = 30.0
#: sockets opened at once while the players arrive
CONNECT_AT_ONCE = 50
#: players a load generator process plays at most by default (``--load-processes 0``): with
#: all 1,000 in one, its event loop was late by 40 ms (p99, on a core of its own) to 145 ms
#: (sharing the two cores), and every verdict measured at the players carried it
PLAYERS_PER_GENERATOR = 250
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
    """Player ``index``'s own client address, on the loopback (127.1.0.1, 127.1.0.2, ...):
    its sockets and requests come from it, so the server sees it as the peer, or from nginx
    as ``X-Forwarded-For`` (nginx puts its peer's address there, whatever the client sent)."""
    return f"127.{index // 62500 % 250 + 1}.{index // 250 % 250}.{index % 250 + 1}"


#: the address the arena's maker comes from
MAKER = "127.250.250.250"


def call(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    address: str | None = None,
) -> tuple[int, Any]:
    """An HTTP request to ``port`` on the loopback (a server, or nginx), from ``address`` (a
    player's own) if given: the status and the answer's JSON."""
    source = (address, 0) if address else None
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=source)
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


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
        #: its sockets come from its own address
        self.local = (address_of(index), 0)
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
                        local_addr=self.local,
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
        results = me["results"] or ()  # null: unchanged since the last view
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
        """One race: its room socket from hello to ``game_over``; when that came. The socket
        names its room, as the web client's does: nginx sends it to the process that made
        the room."""
        async with self.gen.connecting:
            ws = await connect(
                f"{self.gen.ws_url}?room={seat['code']}",
                local_addr=self.local,
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
    problems: Counter[str] = Counter()

    def one(index: int) -> tuple[int, str] | None:
        try:
            return joined(index)
        except OSError as e:
            problems[f"account or join failed ({type(e).__name__})"] += 1
            return None

    def joined(index: int) -> tuple[int, str] | None:
        address = address_of(index)
        status, body = call(port, "POST", "/api/accounts", {}, address=address)
        if status != 201:
            problems[f"account refused {status} {body['error']['code']}"] += 1
            return None
        token = str(body["token"])
        path = f"/api/arenas/{arena}/join"
        status, body = call(port, "POST", path, {}, token, address=address)
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


# --- where the players go: one server process, or a cluster behind nginx ---------------------


@dataclass
class Target:
    """What a run's players talk to (``port``: the server, or nginx) and what it is made of."""

    processes: int
    port: int
    #: each ``ubongo serve``: (pid, its own port)
    servers: list[tuple[int, int]]
    #: the cores left for the load generators (None: nothing pinned)
    load_cpus: set[int] | None
    #: the servers' logs
    logs: list[Path]
    stop: Callable[[], None]
    #: scripts/cluster's cluster.json (None: one process on its own)
    state: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


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


def one_process(folder: Path, tag: str, no_pin: bool) -> Target:
    """A fresh ``ubongo serve`` on a fresh SQLite file, pinned to one core."""
    log = folder / f"{tag}.log"
    server = ServerProcess(f"sqlite:///{folder / f'{tag}.sqlite3'}", log=log, args=SERVE_FLAGS)
    server.start(timeout=180)
    assert server.proc is not None
    pid = server.proc.pid
    try:
        load_cpus = pin_server(pid, no_pin)
    except BaseException:
        server.stop()
        raise
    return Target(1, server.port, [(pid, server.port)], load_cpus, [log], server.stop)


def behind_nginx(folder: Path, tag: str, processes: int, players: int) -> Target:
    """The whole cluster, ``scripts/cluster up`` (PostgreSQL, Redis, ``processes`` servers,
    nginx), in FOLDER/TAG; nothing pinned. ``down`` by the target's ``stop``."""
    home = folder / tag
    port = free_port()
    script = [sys.executable, str(ROOT / "scripts" / "cluster")]
    flags = ["--processes", str(processes), "--port", str(port), "--", *CLUSTER_FLAGS]
    try:
        with open(folder / f"{tag}-up.log", "wb") as out:
            subprocess.run([*script, "up", str(home), *flags], check=True, stdout=out)
        state: dict[str, Any] = json.loads((home / "cluster.json").read_text())
        notes = nginx_room(state, players)
    except BaseException:
        cluster_down(home)
        raise
    return Target(
        processes,
        port,
        [(p["pid"], p["port"]) for p in state["processes"]],
        None,
        [home / f"ubongo-{i}.log" for i in range(processes)],
        lambda: cluster_down(home),
        state,
        notes,
    )


def nginx_room(state: dict[str, Any], players: int) -> list[str]:
    """Room in the cluster's nginx for every player's sockets: scripts/cluster gives it 4096
    connections, and each player may hold NGINX_PER_PLAYER (1,000 players: about 4,000).
    Raised in its nginx.conf and nginx reloaded if need be; a note saying so."""
    need = NGINX_PER_PLAYER * players + 512
    home = Path(state["folder"]) / "nginx"
    conf = home / "nginx.conf"
    text = conf.read_text()
    found = re.search(r"worker_connections (\d+);", text)
    if found is None or int(found[1]) >= need:
        return []
    conf.write_text(text.replace(found[0], f"worker_connections {need};"))
    master = state["nginx"]["pid"]
    old = set(children(master))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    subprocess.run(
        [nginx, "-p", str(home), "-c", str(conf), "-s", "reload"], check=True, capture_output=True
    )
    deadline = time.monotonic() + 30
    while (old & set(children(master)) or not children(master)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [f"nginx's worker_connections raised from {found[1]} to {need}"]


def watched(target: Target) -> dict[str, list[int]]:
    """The processes whose CPU is measured, by name: each server, their card workers, and
    Redis, PostgreSQL (the postmaster and its backends) and nginx's workers of a cluster."""
    groups = {f"server {i}": [pid] for i, (pid, _) in enumerate(target.servers)}
    groups["cards"] = [c for pid, _ in target.servers for c in children_of(pid)]
    if target.state is not None:
        groups["redis"] = [target.state["redis"]["pid"]]
        groups["postgres"] = postgres_pids(target.state)
        groups["nginx"] = children(target.state["nginx"]["pid"])
    return groups


def cpu_now(target: Target) -> dict[str, dict[int, float]]:
    """CPU seconds so far of each watched process, by group."""
    out: dict[str, dict[int, float]] = {}
    for name, pids in watched(target).items():
        out[name] = {}
        for pid in pids:
            with contextlib.suppress(OSError, IndexError):
                out[name][pid] = cpu_seconds(pid)
    return out


def cpu_use(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]], wall: float
) -> dict[str, float]:
    """Each group's CPU between two readings (100% = one core); a process started between
    them counts whole, one gone since the first is left out."""
    return {
        name: sum(t - before.get(name, {}).get(pid, 0.0) for pid, t in now.items()) / wall
        for name, now in after.items()
    }


def leader(target: Target) -> int | None:
    """Which server leads the arenas (its ``GET /api/health`` asked directly; None: none
    says so, or one process on its own)."""
    if target.state is None:
        return None
    for i, (_, port) in enumerate(target.servers):
        with contextlib.suppress(OSError, ValueError):
            status, body = call(port, "GET", "/api/health")
            if status == 200 and body.get("leads_arenas"):
                return i
    return None


# --- one run: a target, an arena, N players ----------------------------------------------------


def make_arena(port: int, minutes: int) -> str:
    """A running arena (:data:`EDITION`, races of 4, from now for ``minutes``): its id."""
    status, body = call(port, "POST", "/api/accounts", {}, address=MAKER)
    assert status == 201, body
    new = {
        "title": "Bench arena",
        "edition": EDITION,
        "minutes": minutes,
        "seats": SEATS,
        "starts_in": 0,
        "private": False,
    }
    status, view = call(port, "POST", "/api/arenas", new, body["token"], address=MAKER)
    assert status == 201, view
    return str(view["id"])


def progress(port: int, arena: str, label: str, t0: float) -> None:
    """A line now and then while a run goes on (a long run says it is alive)."""
    try:
        _, view = call(port, "GET", f"/api/arenas/{arena}")
        print(
            f"  {label} {time.perf_counter() - t0:5.0f} s: {view['players']} players, "
            f"{view['races_in_play']} races in play",
            flush=True,
        )
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"  {label}: the arena did not answer ({e!r})", flush=True)


def wait_phase(port: int, arena: str, label: str, seconds: float) -> None:
    t0 = time.perf_counter()
    while (left := seconds - (time.perf_counter() - t0)) > 0:
        time.sleep(min(60.0, left))
        if seconds - (time.perf_counter() - t0) > 1:
            progress(port, arena, label, t0)


class Load:
    """A run's load generator processes, each with its share of the players."""

    def __init__(self, target: Target, arena: str, players: int, args: argparse.Namespace):
        import multiprocessing

        k = args.load_processes or max(
            len(target.load_cpus or ()), math.ceil(players / PLAYERS_PER_GENERATOR), 1
        )
        self.k = min(k, players)
        ctx = multiprocessing.get_context("fork")
        self.barrier: Any = ctx.Barrier(self.k + 1, timeout=1200)
        self.phase: Any = ctx.Value("i", 0)
        self.out: Any = ctx.Queue()
        self.procs = [
            ctx.Process(
                target=_generator_process,
                args=(
                    target.port,
                    arena,
                    range(players * i // self.k, players * (i + 1) // self.k),
                    args.think,
                    self.barrier,
                    self.phase,
                    self.out,
                    target.load_cpus,
                ),
            )
            for i in range(self.k)
        ]

    def start(self) -> float:
        """Start them; the seconds until every player joined and is on its arena page."""
        t0 = time.perf_counter()
        for proc in self.procs:
            proc.start()
        try:
            self.barrier.wait()
        except threading.BrokenBarrierError:
            got = [self.out.get(timeout=60) for _ in self.procs]
            failed = [r.get("failed") for r in got]
            raise RuntimeError(f"a load generator failed: {failed}") from None
        return time.perf_counter() - t0

    def results(self) -> list[dict[str, Any]]:
        """Each generator's figures, once the measured minutes are over."""
        results = [self.out.get(timeout=300) for _ in self.procs]
        for proc in self.procs:
            proc.join(30)
        failures = [r["failed"] for r in results if "failed" in r]
        if failures:
            raise RuntimeError(f"a load generator failed: {failures}")
        return results

    def close(self) -> None:
        for proc in self.procs:
            if proc.pid is not None and proc.is_alive():
                proc.kill()


def measure(target: Target, players: int, args: argparse.Namespace) -> dict[str, Any]:
    """One run on a target started: an arena, ``players`` simulated players; its figures."""
    label = f"{players} players, {target.processes} process{'es' if target.processes > 1 else ''}"
    rss0 = [rss_bytes(pid) for pid, _ in target.servers]
    arena_minutes = min(60, max(10, math.ceil(args.warmup / 60 + args.minutes + 4)))
    arena = make_arena(target.port, arena_minutes)
    load = Load(target, arena, players, args)
    try:
        setup = load.start()
        print(f"  {label}: joined and on the arena page in {setup:.0f} s", flush=True)
        wait_phase(target.port, arena, f"{label} warm-up", args.warmup)
        leaders = [leader(target)]
        own0 = own_figures(target)
        cpu0, load0, t0 = cpu_now(target), os.getloadavg()[0], time.perf_counter()
        load.phase.value = 1
        wait_phase(target.port, arena, label, args.minutes * 60)
        load.phase.value = 2
        wall = time.perf_counter() - t0
        own = own_figures(target)
        cpu = cpu_use(cpu0, cpu_now(target), wall)
        rss = [rss_bytes(pid) for pid, _ in target.servers]
        loadavg = (load0 + os.getloadavg()[0]) / 2
        leaders.append(leader(target))
        results = load.results()
    finally:
        load.close()
    merged = merge(results)
    merged.update(
        players=players,
        processes=target.processes,
        wall=wall,
        cpu=cpu,
        rss=rss,
        rss0=rss0,
        loadavg=loadavg,
        setup=setup,
        generators=load.k,
        leaders=leaders,
        pinned=target.load_cpus is not None,
        notes=target.notes,
        own=(own0, own),
    )
    return merged


def own_figures(target: Target) -> list[str]:
    """Each server's ``/metrics`` text now."""
    return [scrape(f"http://127.0.0.1:{port}") for _, port in target.servers]


def bucketed(texts: tuple[list[str], list[str]], name: str, q: float) -> float:
    """Quantile ``q`` of what the servers' histogram ``name`` counted between two scrapes
    (each a text per server), in ms: the upper bound of the bucket that holds it (a
    histogram knows no more), NaN if it counted nothing."""
    counts: defaultdict[float, float] = defaultdict(float)
    for sign, scraped in ((-1, texts[0]), (1, texts[1])):
        for text in scraped:
            for line in text.splitlines():
                if line.startswith(name + "_bucket{"):
                    found = re.search(r'le="([^"]+)"', line)
                    assert found is not None, line
                    counts[float(found[1])] += sign * float(line.rsplit(" ", 1)[1])
    total = counts[math.inf]
    if not total:
        return math.nan
    return next(le for le in sorted(counts) if counts[le] >= q * total) * 1000


def step(players: int, processes: int, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    """One run: a fresh target of ``processes`` server processes, one arena, ``players``
    simulated players; its figures. The target is stopped whatever happens."""
    tag = f"p{processes}-{players}"
    if processes == 1:
        target = one_process(folder, tag, args.no_pin)
    else:
        target = behind_nginx(folder, tag, processes, players)
    try:
        r = measure(target, players, args)
    finally:
        target.stop()
    for when, texts in zip(("before", "after"), r["own"], strict=True):
        # the servers' whole /metrics around the measured minutes, for what the table leaves out
        (folder / f"{tag}-metrics-{when}.txt").write_text("\n".join(texts), encoding="utf-8")
    r["tracebacks"] = sum(
        log.read_text(errors="replace").count("Traceback") for log in target.logs if log.exists()
    )
    return r


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


def plural(processes: int) -> str:
    return f"{processes} process{'es' if processes > 1 else ''}"


def servers_cpu(r: dict[str, Any]) -> list[float]:
    return [r["cpu"][f"server {i}"] for i in range(r["processes"])]


def each(r: dict[str, Any]) -> tuple[str, str]:
    """Each server's CPU and RSS (MiB) at the end, "L" after the one that led the arenas."""
    led = r["leaders"][-1]
    marks = ["L" if i == led else "" for i in range(r["processes"])]
    cpu = " + ".join(f"{c:.0%}{m}" for c, m in zip(servers_cpu(r), marks, strict=True))
    rss = " + ".join(f"{x / 2**20:.0f}{m}" for x, m in zip(r["rss"], marks, strict=True))
    return cpu, rss


def infra(r: dict[str, Any]) -> str:
    """Redis / PostgreSQL / nginx CPU of a cluster ("-": one process on its own)."""
    c = r["cpu"]
    if "redis" not in c:
        return "-"
    return f"{c['redis']:.0%} / {c['postgres']:.0%} / {c['nginx']:.0%}"


def figures(r: dict[str, Any]) -> dict[str, Any]:
    """A run's figures by name (per player per minute for the traffic)."""
    s, c = r["samples"], r["counts"]
    per = r["players"] * r["wall"] / 60
    cpu_each, rss_each = each(r)
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
        "cpu": sum(servers_cpu(r)),
        "cards": r["cpu"]["cards"],
        "cpu_each": cpu_each,
        "rss_each": rss_each,
        "infra": infra(r),
        "rss": sum(r["rss"]) / 2**20,
        "kib_pl": (sum(r["rss"]) - sum(r["rss0"])) / r["players"] / 1024,
        "loadgen": r["loadgen"],
        "lag99": p99(s["lag"]),
        "own_verdict50": bucketed(r["own"], "ubongo_submit_to_verdict_seconds", 0.5),
        "own_verdict99": bucketed(r["own"], "ubongo_submit_to_verdict_seconds", 0.99),
        "own_lag99": bucketed(r["own"], "ubongo_event_loop_lag_seconds", 0.99),
    }


def ratio(value: float, ref: float) -> str:
    if not (math.isfinite(value) and math.isfinite(ref)) or ref == 0:
        return "-"
    return f"{value / ref:.1f}x"


def line(r: dict[str, Any], ref: dict[str, Any]) -> str:
    f, g = figures(r), figures(ref)
    problems = ", ".join(f"{k}: {v}" for k, v in sorted(r["problems"].items())) or "-"
    return (
        f"{r['players']:7d} {r['processes']:5d} {f['races']:6.0f} {f['bots']:5.0%} "
        f"{f['pair50']:6.2f} {f['pair99']:6.2f} {f['verdict50']:6.1f} {f['verdict99']:6.1f} "
        f"{f['stand50']:6.2f} {f['stand99']:6.2f} {f['arena_msgs']:6.1f} {f['arena_kib']:7.1f} "
        f"{f['room_msgs']:6.1f} {f['room_kib']:7.1f} {f['cpu']:6.0%} {f['cards']:5.0%} "
        f"{f['rss']:6.0f} {f['kib_pl']:6.1f} {f['loadgen']:6.0%} {f['lag99']:6.1f} "
        f"{ratio(f['pair99'], g['pair99']):>6} {ratio(f['verdict99'], g['verdict99']):>6} "
        f"{ratio(f['stand99'], g['stand99']):>6} {ratio(f['arena_msgs'], g['arena_msgs']):>6} "
        f"{ratio(f['cpu'], g['cpu']):>6}  {problems}"
    )


HEAD = (
    f"{'players':>7} {'procs':>5} {'races':>6} {'bots':>5} {'pair50':>6} {'pair99':>6} "
    f"{'ver50':>6} {'ver99':>6} {'std50':>6} {'std99':>6} {'a-msg':>6} {'a-KiB':>7} "
    f"{'r-msg':>6} {'r-KiB':>7} {'server':>6} {'cards':>5} {'RSS':>6} {'KiB/pl':>6} "
    f"{'loadgen':>6} {'lag99':>6} {'pair x':>6} {'ver x':>6} {'std x':>6} {'msg x':>6} "
    f"{'CPU x':>6}  problems"
)


def notes(r: dict[str, Any]) -> str:
    """The line under a run's: how it ran, and what went wrong or came early."""
    f = figures(r)
    said = [
        f"{r['generators']} load generator(s)",
        f"setup {r['setup']:.0f} s",
        f"load average {r['loadavg']:.2f}",
        f"{r['joined']} of {r['players']} joined",
        f"{r['unseated']} not seated while measured",
        f"{r['never_seated']} never seated",
    ]
    if r["processes"] > 1:
        first, last = r["leaders"]
        led = "none" if last is None else f"process {last}"
        if first != last:
            led = f"process {first} at the start, {led} at the end"
        said += [
            f"servers' CPU {f['cpu_each']}, RSS {f['rss_each']} MiB (L: leads the arenas: {led})",
            f"Redis / PostgreSQL / nginx CPU {f['infra']}",
            "nothing pinned",
            *r["notes"],
        ]
    c = r["counts"]
    for note in SEEN_EARLY:
        if c[note]:
            said.append(f"{note}: {c[note]} of {c['player races']} player races")
    if r["tracebacks"]:
        said.append(f"the servers logged {r['tracebacks']} tracebacks")
    return "        " + "; ".join(said)


#: the rows of the Markdown table: title, figures, their format, the figure the ratio is of
#: (None: none), the goal in words and whether a run met it
Row = tuple[str, tuple[str, ...], str, str | None, str, Callable[[dict[str, Any]], bool] | None]
ROWS: list[Row] = [
    ("races measured", ("races", "bots"), "{:.0f} ({:.0%} with bots)", None, "", None),
    ("races a player a minute", ("races_pm",), "{:.2f}", "races_pm", "", None),
    (
        "pairing wait p50 / p99 (s)",
        ("pair50", "pair99"),
        "{:.2f} / {:.2f}",
        "pair99",
        "p99 < 3 s",
        lambda f: bool(f["pair99"] < GOAL_PAIRING_S),
    ),
    (
        "submit to verdict p50 / p99 (ms)",
        ("verdict50", "verdict99"),
        "{:.1f} / {:.1f}",
        "verdict99",
        "p99 < 50 ms",
        lambda f: bool(f["verdict99"] < GOAL_VERDICT_MS),
    ),
    (
        "the servers' own: submit to verdict p50 / p99, event loop lag p99 (ms, at most)",
        ("own_verdict50", "own_verdict99", "own_lag99"),
        "{:.0f} / {:.0f}, {:.0f}",
        None,
        "",
        None,
    ),
    (
        "standings delay p50 / p99 (s)",
        ("stand50", "stand99"),
        "{:.2f} / {:.2f}",
        "stand99",
        "p99 < 2 s",
        lambda f: bool(f["stand99"] < GOAL_STANDINGS_S),
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
        "server CPU, all processes / card workers (100% = one core)",
        ("cpu", "cards"),
        "{:.0%} / {:.0%}",
        "cpu",
        "",
        None,
    ),
    (
        "each server process: CPU / RSS MiB (L: leads the arenas)",
        ("cpu_each", "rss_each"),
        "{} / {}",
        None,
        "",
        None,
    ),
    ("Redis / PostgreSQL / nginx CPU", ("infra",), "{}", None, "", None),
    (
        "server RSS at the end, all processes (MiB) / KiB a player",
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
    """The table docs/arenas.md keeps: each figure per run, with its ratio to the first."""
    ref = figures(steps[0])
    cols = [f"{r['players']:,} players, {plural(r['processes'])}" for r in steps]
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
    parser.add_argument(
        "--processes",
        default="1,2",
        help="server processes, each step run on each: 1 (pinned, SQLite), N > 1 (scripts/cluster "
        "behind nginx, PostgreSQL and Redis, nothing pinned)",
    )
    parser.add_argument("--minutes", type=float, default=5.0, help="measured minutes a run")
    parser.add_argument(
        "--warmup", type=float, default=20.0, help="seconds of races played before measuring"
    )
    parser.add_argument(
        "--think", default="3,15", help="a player's think time, uniform between LO,HI seconds"
    )
    parser.add_argument(
        "--load-processes",
        type=int,
        default=0,
        help="load generators (0: one a free core, and one a PLAYERS_PER_GENERATOR players)",
    )
    parser.add_argument("--no-pin", action="store_true", help="one process: pin nothing")
    parser.add_argument("--quick", action="store_true", help="24 players, 1.5 minutes")
    args = parser.parse_args()
    if args.quick:
        args.players, args.minutes, args.warmup = "24", 1.5, 10.0
    lo, hi = (float(x) for x in args.think.split(","))
    args.think = (lo, hi)
    args.steps = [int(x) for x in args.players.split(",")]
    args.counts = [int(x) for x in args.processes.split(",")]
    if min(args.counts) < 1:
        parser.error("--processes: at least 1")
    return args


def main() -> None:
    args = arguments()
    command = shlex.join([".venv/bin/python", "bench/arena.py", *sys.argv[1:]])
    folder = Path(tempfile.mkdtemp(prefix="ubongo-arena-"))
    lo, hi = args.think
    setups = []
    if 1 in args.counts:
        setups.append(
            "1 process: SQLite, "
            + ("nothing pinned" if args.no_pin else "the server pinned to one core")
        )
    if max(args.counts) > 1:
        setups.append(
            "N processes: scripts/cluster behind nginx (PostgreSQL, Redis), nothing pinned: "
            f"the {os.cpu_count()} CPUs shared by servers, Redis, PostgreSQL, nginx and players"
        )
    print(
        f"arena bench: {', '.join(map(str, args.steps))} players in one arena "
        f"({editions.record(EDITION).title}, races "
        f"of {SEATS}) on {', '.join(map(plural, args.counts))}, think {lo:g}-{hi:g} s, "
        f"{args.warmup:g} s warm-up then {args.minutes:g} min measured a run; "
        f"{os.cpu_count()} CPUs; {'; '.join(setups)}; logs in {folder}",
        flush=True,
    )
    steps: list[dict[str, Any]] = []
    for players in args.steps:
        for processes in args.counts:
            r = step(players, processes, args, folder)
            steps.append(r)
            if len(steps) == 1:
                print(HEAD)
            print(line(r, steps[0]), flush=True)
            print(notes(r), flush=True)
    print(
        "procs: server processes; pair: pairing wait (s); ver: submit -> verdict (ms); std: "
        "standings delay (s); a-/r-: arena / room sockets, messages and KiB a player a minute; "
        "server, cards: CPU of the server processes (summed) and of their card workers (100% = "
        "one core); RSS MiB at the end (summed), KiB/pl its growth a player; loadgen: the load "
        "generators' CPU; lag99: their event loop's p99 lag (ms); x: against the first run "
        f"({args.steps[0]} players, {plural(args.counts[0])})"
    )
    print()
    print(markdown(steps, command))


if __name__ == "__main__":
    main()
