"""How much CPU does one race cost the server, and where does it go?  Issue 25's arena at 1,000
players saturates one process at about 16 races a second: some 50 ms of CPU a race. Timing it
under load on a busy machine is noise; this counts CPU time, in one process.

Run with ``.venv/bin/python bench/race_cpu.py [--races N] [--at-once C] [--repeat R]``
(``--shares`` or ``--profile FILE`` for where the CPU goes instead, below).

The room service runs in this process as ``tests/test_server_memory.py`` runs it: a
:class:`~ubongo.server.rooms.service.LocalRoomService` on a fresh SQLite file (real saved
rooms, card worker, timers, arena director), connections from ``service.connect`` and frames
through ``service.receive``, what the server sends read from each connection's queue. The
server is configured as ``bench/arena.py`` serves (no speed floor, no play traces, nothing
held for review). One arena of the editions' first edition, races of 4 on its default side;
a pool of ``--accounts`` accounts joined to it (each its own account and address).

A race is an arena race: the director's own way of starting one (``ArenaDirector._start_race``,
what its pairing calls for each group, the groups here drawn at random from the pool): a rated,
locked room of one round on a fresh task (``QuickRooms.race``), the race's row stored. Its four
people connect and say ``hello``; once the round has started each in turn submits the solver's
arrangement and waits for its verdict (each finish its own save, as when people finish apart);
the game is stored and rated, everybody hears ``game_over``, the race is scored in the arena,
the players close their sockets, and the finished room is forgotten (its saved row deleted).
``C`` races run at once.

Measured from the first race's start until every room is forgotten and saved: CPU ms of this
process per race (``time.process_time``: the event loop and the database threads; not the
card worker's process, which makes the cards on the other core in the server too) less the
players' own CPU (reading their frames, solving their task: counted with
``time.thread_time`` around it), and wall ms per race (``C`` at once). A few races first, not
timed, warm the caches. Modes, each on its own file and service, alternated ``R`` times (best
of ``R``):

* **full**: the race as the server runs it;
* **unrated**: the same races with the room unrated (no pair cap, no rating rows; the game is
  stored and scored in the arena all the same);
* **unsaved**: the same races rated, with open rooms not saved (a hub that stores nothing:
  no durable form, no SQL, and nothing waits for a save);
* **bare**: unrated and unsaved.

Where a full race's CPU goes, two ways (rows: outgoing messages, open-room saves, the game
stored and rated, the arena's race rows, the rules, incoming frames, the rest):

* ``--shares``: ``N`` full races with each row's functions wrapped in their thread's CPU clock
  (``time.thread_time``; a handful of calls a race, so nothing else is slowed), against the
  process's CPU: the figures to trust;
* ``--profile FILE``: ``N`` full races under cProfile, each thread with its own profiler timed
  by ``time.thread_time`` (``time.process_time`` in one thread's profiler would charge the
  database threads' CPU to whatever the loop does meanwhile), merged into FILE (``pstats``),
  the same rows from it. It shows which functions, but its cost on every call makes code of
  many small calls (``copy.deepcopy``, SQLAlchemy) look several times dearer than it is.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import json
import os
import pstats
import random
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from unittest import mock

from ubongo import editions, rules
from ubongo.arena import Arena, Format
from ubongo.board import Area, placements_of
from ubongo.pieces import edition as edition_pieces
from ubongo.rules.actions import placement_to_json
from ubongo.server.config import ServerConfig
from ubongo.server.online.arena_live import Live, Seated
from ubongo.server.protocol import incoming as incoming_module
from ubongo.server.rooms import connection as connection_module
from ubongo.server.rooms import results as results_module
from ubongo.server.rooms import service as service_module
from ubongo.server.rooms.connection import Connection
from ubongo.server.rooms.feed import RoomFeed
from ubongo.server.rooms.results import GameResults
from ubongo.server.rooms.saved import SAVE_DELAY, SavedRoomsHub
from ubongo.server.rooms.service import LocalRoomService
from ubongo.server.store import Store
from ubongo.server.store.arenas import ArenaRepository
from ubongo.server.store.open_rooms import OpenRoomRepository
from ubongo.solver import solve

P = ParamSpec("P")
T = TypeVar("T")

MODES = ("full", "unrated", "unsaved", "bare")
SEATS = 4
#: races played before the timing (caches, the card worker, SQLAlchemy's compiled statements)
WARM_RACES = 8
#: how long a player waits for a frame before the bench fails
FRAME_TIMEOUT_S = 30.0


def config() -> ServerConfig:
    """``bench/arena.py``'s flags: no schedule, machine players (no speed floor, no traces,
    nothing held), limits out of the way; finished rooms forgotten soon (their deletion is part
    of a race, and the timing waits for it)."""
    return ServerConfig(
        arena_schedule="none",
        record_seconds_per_piece=0.0,
        require_traces=False,
        hold_score=0.0,
        connections_per_address=1_000_000,
        rooms_per_minute=1_000_000,
        finished_room_seconds=0.5,
    )


class NotSaved(SavedRoomsHub):
    """The saved hub with nothing saved: it holds nothing (deliveries go out at once) and
    never writes (the reference without saving open rooms)."""

    durable = False

    def _save_soon(self) -> None:
        return

    async def stop(self) -> None:
        return


@dataclass
class Players:
    """The players' side of the bench: their own CPU, counted to be taken off the server's."""

    edition: str
    cpu: float = 0.0
    solutions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    rated: int = 0

    @contextmanager
    def own(self) -> Iterator[None]:
        """Count what the block spends of this thread's CPU as the players'."""
        start = time.thread_time()
        try:
            yield
        finally:
            self.cpu += time.thread_time() - start

    @staticmethod
    def decode(text: str) -> dict[str, Any]:
        """A frame as the player reads it."""
        found: dict[str, Any] = json.loads(text)
        return found

    @staticmethod
    def encode(message: dict[str, Any]) -> str:
        """A frame as the player sends it."""
        return json.dumps(message)

    def solution(self, task: dict[str, Any]) -> list[dict[str, Any]]:
        """The solver's arrangement of a task as the snapshot gives it (each race's people
        share one task: solved once)."""
        key = json.dumps(task, sort_keys=True)
        found = self.solutions.get(key)
        if found is None:
            ed = edition_pieces(self.edition)
            area = Area(ed.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
            pieces = [ed.piece(p) for p in task["pieces"]]
            cover = solve(area, pieces)
            assert cover is not None, task
            by_id = {p.id: p for p in pieces}
            found = [placement_to_json(p) for p in placements_of(by_id, cover)]
            self.solutions[key] = found
        return found


class Bench:
    """One service on one SQLite file, one arena, a pool of joined accounts."""

    def __init__(self, folder: Path, mode: str, accounts: int, seed: int) -> None:
        self.mode = mode
        self.store = Store(f"sqlite:///{folder / f'{mode}.sqlite3'}")
        self.store.migrate()
        if mode in ("unsaved", "bare"):
            with mock.patch.object(service_module, "SavedRoomsHub", NotSaved):
                self.service = LocalRoomService(self.store, config())
        else:
            self.service = LocalRoomService(self.store, config())
        if mode in ("unrated", "bare"):
            self.service.arenas.make_race = self._unrated_race
        self.pool = [
            self.store.accounts.create(f"Racer {n}", f"{n:064d}", at=1.0) for n in range(accounts)
        ]
        self.rng = random.Random(seed)
        self.players = Players(editions.names()[0])
        self.live: Live | None = None
        self.racing: set[int] = set()

    async def _unrated_race(
        self, arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
    ) -> list[dict[str, Any]]:
        """The director's race, its room unrated before its game starts."""
        seats = await self.service.quick_rooms.race(arena, number, people, levels)
        room = self.service.gateway.rooms.hub.get(str(seats[0]["code"]))
        assert room is not None
        room.settings = replace(room.settings, rated=False)
        return seats

    async def start(self) -> None:
        """Start the service, make the arena and join the pool to it (no page open: the
        director seats nobody by itself)."""
        await self.service.start()
        rec = editions.record(editions.names()[0])
        director = self.service.arenas
        fmt = Format(rec.name, 24 * 60, SEATS, rec.default_side, "race-cpu")
        arena_id = await director.make("Race CPU", fmt, self.service.clock.now(), None)
        for account in self.pool:
            await director.join(arena_id, account, f"Racer {account}", [_address(account)])
        self.live = director.live[arena_id]

    async def stop(self) -> None:
        await self.service.stop()
        self.store.close()

    async def seat(self, accounts: list[int]) -> list[dict[str, Any]]:
        """A race of ``accounts`` started as the director's pairing starts one: each person's
        seat ticket."""
        live = self.live
        assert live is not None
        number = live.next_race
        live.next_race += 1
        for a in accounts:  # (what ArenaDirector._pair notes of a group it seats)
            e = live.entrants[a]
            e.free_since, e.race, e.seat = None, number, None
        await self.service.arenas._start_race(live, number, accounts, 0)
        seats = [live.entrants[a].seat for a in accounts]
        if any(s is None for s in seats):
            raise RuntimeError(f"race {number} was not made (see the log)")
        return [s for s in seats if s is not None]

    async def race(self) -> None:
        """One race of people free now, from their seats to their sockets closed."""
        # (an arena seats a player in one race at a time)
        accounts = self.rng.sample(sorted(set(self.pool) - self.racing), SEATS)
        self.racing.update(accounts)
        try:
            await self._race(accounts)
        finally:
            self.racing.difference_update(accounts)

    async def _race(self, accounts: list[int]) -> None:
        service = self.service
        seats = await self.seat(accounts)
        conns = [service.connect(None, _address(a)) for a in accounts]
        for conn, seat in zip(conns, seats, strict=True):
            await self.say(conn, {"type": "hello", "room": seat["code"], "token": seat["token"]})
        games = [await self.frame(c, '"kind":"round_started"') for c in conns]
        for conn, seat, game in zip(conns, seats, games, strict=True):
            g = game["room"]["game"]
            with self.players.own():
                placements = self.players.solution(g["tasks"][str(seat["seat"])])
            await self.say(conn, {"type": "submit", "round": g["round"], "placements": placements})
            verdict = await self.frame(conn, '{"type":"verdict"')
            assert verdict["ok"], verdict
        ends = [await self.frame(c, '"kind":"game_over"') for c in conns]
        assert ends[0]["data"]["game_id"], ends[0]
        self.players.rated += ends[0]["data"]["ratings"] is not None
        for conn in conns:
            service.disconnect(conn)

    async def say(self, conn: Connection, message: dict[str, Any]) -> None:
        with self.players.own():
            text = self.players.encode(message)
        await self.service.receive(conn, text, self.service.clock.now())

    async def frame(self, conn: Connection, marker: str) -> dict[str, Any]:
        """The next frame whose first 100 characters hold ``marker``, decoded (the others
        skipped unread, as bench/arena.py's players do; an error fails the bench)."""
        while True:
            # (a deadline on this task, not wait_for's: that made a task, a timer and a waiter
            # for every frame read, about 1 ms a race counted as the server's)
            async with asyncio.timeout(FRAME_TIMEOUT_S):
                text = await conn.queue.get()
            assert text is not None, "the connection was closed"
            with self.players.own():
                head = text[:100]
                if head.startswith('{"type":"error"'):
                    raise RuntimeError(text)
                if marker in head:
                    return self.players.decode(text)

    async def races(self, n: int, at_once: int) -> None:
        """``n`` races, ``at_once`` at a time, until every room is forgotten."""
        gate = asyncio.Semaphore(at_once)

        async def one() -> None:
            async with gate:
                await self.race()

        await asyncio.gather(*(one() for _ in range(n)))
        hub = self.service.gateway.rooms.hub
        while list(hub.codes()):
            await asyncio.sleep(0.02)


def _address(account: int) -> str:
    """Each player's own client address."""
    return f"10.{account >> 16 & 255}.{account >> 8 & 255}.{account & 255}"


@dataclass(frozen=True)
class Measured:
    """Per race: the server's CPU ms (the players' own taken off), wall ms; rated races."""

    cpu_ms: float
    wall_ms: float
    rated: int


#: called as the timed races start and once they are over (a profiler's switch)
Hook = Callable[[], None]


async def measure(
    folder: Path,
    mode: str,
    n: int,
    at_once: int,
    accounts: int,
    hooks: tuple[Hook, Hook] | None = None,
) -> Measured:
    """``n`` races of ``mode`` on a fresh service, after :data:`WARM_RACES` not timed."""
    bench = Bench(folder, mode, accounts, seed=1)
    await bench.start()
    try:
        await bench.races(WARM_RACES, at_once)
        await asyncio.sleep(2 * SAVE_DELAY)  # (the warm-up's last rows deleted, untimed)
        bench.players.cpu, bench.players.rated = 0.0, 0
        if hooks is not None:
            hooks[0]()
        cpu, wall = time.process_time(), time.perf_counter()
        await bench.races(n, at_once)
        await bench.service.saved.stop()  # what is left to save: the last rooms' deletions
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if hooks is not None:
            hooks[1]()
    finally:
        await bench.stop()
    server_cpu = cpu - bench.players.cpu
    return Measured(1000 * server_cpu / n, 1000 * wall / n, bench.players.rated)


# --- where the CPU goes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Share:
    """A row of the table: the functions whose time (with what they call) it counts, as
    ``(owner, attribute)`` to time them and as ``(path ending, name)`` to find them in a
    profile."""

    row: str
    targets: tuple[tuple[Any, str], ...]
    found_as: tuple[tuple[str, str], ...]


SHARES = (
    Share(
        "(i) outgoing messages: snapshots made, checked and encoded through the models",
        ((RoomFeed, "snapshot"), (service_module, "encode"), (connection_module, "encode")),
        (("rooms/feed.py", "snapshot"), ("protocol/outgoing.py", "encode")),
    ),
    Share(
        "(ii) open rooms saved: durable forms (loop) + SQL (thread)",
        (
            (SavedRoomsHub, "_pending"),
            (OpenRoomRepository, "save"),
            (OpenRoomRepository, "checkpoint"),
        ),
        (
            ("rooms/saved.py", "_pending"),
            ("store/open_rooms.py", "save"),
            ("store/open_rooms.py", "checkpoint"),
        ),
    ),
    Share(
        "(iii) the game stored and rated: record, fair-play checks, pair cap, rows",
        (
            (results_module, "_game_record"),
            (results_module._Checks, "__init__"),
            (GameResults, "_save_game"),
        ),
        (
            ("rooms/results.py", "_game_record"),
            ("rooms/results.py", "__init__"),
            ("rooms/results.py", "_save_game"),
        ),
    ),
    Share(
        "(iii') the arena's race rows (started, ended and scored)",
        ((ArenaRepository, "race_started"), (ArenaRepository, "race_ended")),
        (("store/arenas.py", "race_started"), ("store/arenas.py", "race_ended")),
    ),
    Share(
        "(iv) the rules: start, submissions checked, round and game ended (rules.apply)",
        ((rules, "apply"),),
        (("ubongo/rules/engine.py", "apply"),),
    ),
    Share(
        "(iv') incoming frames parsed and checked",
        ((incoming_module, "parse_client_message"),),
        (("protocol/incoming.py", "parse_client_message"),),
    ),
)


class Timers:
    """Each :data:`SHARES` row's CPU, from its functions wrapped in the calling thread's CPU
    clock (a handful of calls a race: no profiler's cost on every call). A timed function
    called inside another counts for the outer one only."""

    def __init__(self) -> None:
        self.spent = {s.row: 0.0 for s in SHARES}
        self.on = False
        self._lock = threading.Lock()
        self._inside = threading.local()

    def wrap(self, row: str, fn: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(fn)
        def timed(*args: P.args, **kwargs: P.kwargs) -> T:
            if not self.on or getattr(self._inside, "row", None) is not None:
                return fn(*args, **kwargs)
            self._inside.row = row
            start = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                self._inside.row = None
                with self._lock:
                    self.spent[row] += spent

        return timed

    @contextmanager
    def installed(self) -> Iterator[None]:
        with ExitStack() as stack:
            for share in SHARES:
                for owner, name in share.targets:
                    timed = self.wrap(share.row, getattr(owner, name))
                    stack.enter_context(mock.patch.object(owner, name, timed))
            yield


def table(rows: list[tuple[str, float]], total: float) -> None:
    print(f"{'spent on':<88}{'ms/race':>9}{'share':>7}")
    for row, ms in [*rows, ("(v) the rest", total - sum(ms for _r, ms in rows))]:
        print(f"{row:<88}{ms:>9.2f}{ms / total:>7.0%}")
    print(f"{'the server, all (process_time less the players own CPU)':<88}{total:>9.2f}")


async def timed_shares(folder: Path, n: int, at_once: int, accounts: int) -> None:
    """``n`` full races with :class:`Timers` installed; the table."""
    timers = Timers()

    def on() -> None:
        timers.on = True

    def off() -> None:
        timers.on = False

    with timers.installed():
        got = await measure(folder, "full", n, at_once, accounts, (on, off))
    print(f"{n} full races, each row's functions timed by their thread's CPU clock")
    table([(row, 1000 * s / n) for row, s in timers.spent.items()], got.cpu_ms)


# --- the profile ---------------------------------------------------------------------------------


class ProfiledThreads(ThreadPoolExecutor):
    """The loop's default executor (the database threads), each thread's work under a profiler
    of its own, timed by that thread's CPU clock."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="profiled")
        self.profiles: list[cProfile.Profile] = []
        self.on = False
        self._mine = threading.local()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        return super().submit(self._profiled, fn, *args, **kwargs)

    def _profiled(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if not self.on:
            return fn(*args, **kwargs)
        profile: cProfile.Profile | None = getattr(self._mine, "profile", None)
        if profile is None:
            profile = self._mine.profile = cProfile.Profile(time.thread_time)
            with self._lock:
                self.profiles.append(profile)
        profile.enable()
        try:
            return fn(*args, **kwargs)
        finally:
            profile.disable()


#: the players' own work (the bench's side, not the server's): taken off the profile's total
PLAYERS = (("race_cpu.py", "solution"), ("race_cpu.py", "decode"), ("race_cpu.py", "encode"))

Func = tuple[str, int, str]


def _matching(stats: dict[Func, Any], wanted: Sequence[tuple[str, str]]) -> list[Func]:
    return [f for f in stats if any(f[0].endswith(p) and f[2] == n for p, n in wanted)]


def _reaches(callees: dict[Func, dict[Func, Any]], start: Func) -> set[Func]:
    seen: set[Func] = set()
    todo = list(callees.get(start, {}))
    while todo:
        f = todo.pop()
        if f not in seen:
            seen.add(f)
            todo.extend(callees.get(f, {}))
    return seen


def profile_shares(stats: pstats.Stats, races: int) -> tuple[list[tuple[str, float]], float]:
    """CPU ms a race by row of :data:`SHARES` in a profile, and the total (players' off)."""
    found: dict[Func, Any] = stats.stats  # type: ignore[attr-defined]
    stats.calc_callees()
    callees: dict[Func, dict[Func, Any]] = stats.all_callees  # type: ignore[attr-defined]
    total = sum(v[2] for v in found.values())
    players = sum(found[f][3] for f in _matching(found, PLAYERS))
    roots = {f: s.row for s in SHARES for f in _matching(found, s.found_as)}
    for f in roots:
        inside = _reaches(callees, f) & roots.keys() - {f}
        if inside:
            print(f"warning: {f} calls {sorted(inside)}: counted twice")
    rows = [(s.row, sum(found[f][3] for f, r in roots.items() if r == s.row)) for s in SHARES]
    return [(row, 1000 * t / races) for row, t in rows], 1000 * (total - players) / races


async def profiled(folder: Path, n: int, at_once: int, accounts: int, out: Path) -> None:
    """``n`` full races under the profilers; their merged stats in ``out``; the table."""
    threads = ProfiledThreads()
    asyncio.get_running_loop().set_default_executor(threads)
    main = cProfile.Profile(time.thread_time)

    def on() -> None:
        threads.on = True
        main.enable()

    def off() -> None:
        main.disable()
        threads.on = False

    got = await measure(folder, "full", n, at_once, accounts, (on, off))
    stats = pstats.Stats(main)
    for p in threads.profiles:
        stats.add(p)
    stats.dump_stats(out)
    print(f"{n} full races under cProfile: {got.cpu_ms:.1f} CPU ms a race with the profilers on")
    table(*profile_shares(stats, n))


# --- main ----------------------------------------------------------------------------------------


async def compare(args: argparse.Namespace, folder: Path) -> dict[str, Measured]:
    """Each mode of ``args.modes`` ``args.repeat`` times, alternated; the best of each."""
    best: dict[str, Measured] = {}
    for r in range(args.repeat):
        for mode in args.modes:
            got = await measure(folder / f"{r}", mode, args.races, args.at_once, args.accounts)
            if mode not in best or got.cpu_ms < best[mode].cpu_ms:
                best[mode] = got
    return best


def report(args: argparse.Namespace, best: dict[str, Measured]) -> None:
    print(
        f"{args.races} races of {SEATS} people ({args.at_once} at once, {args.accounts} accounts), "
        f"{editions.names()[0]}, one process, SQLite; best of {args.repeat}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'mode':<9}{'CPU ms/race':>13}{'wall ms/race':>14}{'rated':>9}{'CPU: full / mode':>18}")
    full = best.get("full")
    for mode, m in best.items():
        ratio = f"{full.cpu_ms / m.cpu_ms:.2f}x" if full is not None else "-"
        rated = f"{m.rated}/{args.races}"
        print(f"{mode:<9}{m.cpu_ms:>13.2f}{m.wall_ms:>14.2f}{rated:>9}{ratio:>18}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--races", type=int, default=100, help="timed races a mode")
    ap.add_argument("--at-once", type=int, default=4, help="races played at the same time")
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs a mode")
    ap.add_argument("--accounts", type=int, default=400, help="the arena's players")
    ap.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    ap.add_argument("--shares", action="store_true", help="where a full race's CPU goes")
    ap.add_argument("--profile", type=Path, help="N full races under cProfile, into this file")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.profile is not None:
            asyncio.run(profiled(folder, args.races, args.at_once, args.accounts, args.profile))
        elif args.shares:
            asyncio.run(timed_shares(folder, args.races, args.at_once, args.accounts))
        else:
            for r in range(args.repeat):
                (folder / f"{r}").mkdir()
            report(args, asyncio.run(compare(args, folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
