"""Arenas on the server (docs/arenas.md): the one place that pairs an arena's players, scores
its races and tells its watchers the standings.

:class:`ArenaDirector` keeps every arena not yet frozen in memory (:class:`Live`), writing
through to the store (:class:`~..store.ArenaRepository`). It makes the schedule's arenas
ahead of time, and a few times a second, for each arena:

* while its clock runs, seats its free players (joined, not paused, with the arena's page
  open, not in a race) with :func:`ubongo.arena.pairings`, in rooms the room service makes
  (:data:`MakeRace`), bots of the level closest to the group's skill in the seats left;
* once its clock has ended and no race is in play, freezes its standings;
* at most once a second, sends each watcher (an open arena page: :class:`Watcher`) the view of
  the standings it shows (:func:`arena_view`), only if it changed: a show's pages go in
  slices over half a second (:meth:`Live.show_begins`), so that no verdict waits for them all.

A race's room reports its end (:meth:`ArenaDirector.race_over`, after the game is stored):
the finishing order of its one round gives the places; a seat whose person left, or whose
result fair play did not count, scores nothing. Points follow :mod:`ubongo.arena`.

The routes reach the arenas through :class:`~.arena_live.Arenas`: this director on one
process; with several processes (:mod:`..cluster.arenas`) the director of the one process that
leads the arenas, its answers carried through Redis as JSON (:meth:`ArenaDirector.answer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ubongo.arena import (
    Arena,
    Format,
    Free,
    Scheduled,
    Sheet,
    Standings,
    pairings,
    standings,
)

from ..config import ServerConfig
from ..ops import strong_random
from ..ops.clock import Clock
from ..ops.ratelimit import AddressLimit
from ..protocol.arenas import ArenaUpdates
from ..protocol.incoming import BOT_LEVELS, ProtocolError
from ..protocol.social import encode_notice
from ..store import Store
from .arena_live import (
    ARENA_ASKS,
    SHOW_SLICE_SECONDS,
    Live,
    MakeRace,
    RaceInPlay,
    RaceOutcome,
    Seated,
    Watcher,
    arena_summary,
    arena_view,
    own_view,
    standing_row,
    updates,
)
from .notices import Notices
from .quickmatch import closest_level
from .ratings import MU, Subject

log = logging.getLogger("ubongo.server")

#: how often the director looks at its arenas
TICK_SECONDS = 0.25
#: standings reach a watcher at most this often
VIEW_EVERY_SECONDS = 1.0
#: how far ahead the schedule's arenas are made (they are listed with a countdown)
SCHEDULE_AHEAD_SECONDS = 6 * 3600.0
#: and at most this many of each line of the schedule
SCHEDULE_AHEAD_ARENAS = 12
#: a race in play this long has been lost (its room's process died before it started, say): no
#: race lasts longer (its one round is cut at 5 minutes, after a start's grace of 5 seconds)
RACE_LOST_SECONDS = 420.0
#: an account's arena commands a second, and in a burst (429 rate_limited past them)
COMMANDS_PER_SECOND, COMMANDS_BURST = 1.0, 10
#: a frozen arena stays in memory this long (its page's last views), then is read from the store
KEEP_FROZEN_SECONDS = 120.0


class ArenaDirector:
    """Every arena of this process: made, joined, paired, scored and shown."""

    def __init__(
        self,
        store: Store | None,
        clock: Clock,
        config: ServerConfig,
        make_race: MakeRace,
        schedule: Sequence[Scheduled] = (),
        notices: Notices | None = None,
        leads: Callable[[], bool] = lambda: True,
    ) -> None:
        self.store = store
        self.clock = clock
        self.config = config
        self.make_race = make_race
        self.schedule = tuple(schedule)
        #: where an arena's start is told to its players' pages
        self.notices = notices
        #: whether this director may pair and score now (several processes: while its lease is
        #: surely held, so that two directors never seat the same players)
        self.leads = leads
        self.live: dict[str, Live] = {}
        self._task: asyncio.Task[None] | None = None
        self._shows: asyncio.Task[None] | None = None
        self._making: set[asyncio.Task[None]] = set()
        self._scheduled_until = 0.0
        #: an account's commands (join, pause, the harder side, withdraw): each is a write
        self.commands = AddressLimit("arena commands", COMMANDS_PER_SECOND, COMMANDS_BURST)

    # --- start and stop ------------------------------------------------------------------

    async def start(self) -> None:
        if self.store is not None:
            for arena in await asyncio.to_thread(self.store.arenas.unfrozen):
                await self._load(arena)
        self._task = asyncio.create_task(self._run())
        self._shows = asyncio.create_task(self._run_shows())

    async def stop(self) -> None:
        tasks = [t for t in (self._task, self._shows, *self._making) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        for live in self.live.values():
            for w in live.watchers:
                w.queue.put_nowait(None)

    async def _load(self, arena: Arena) -> Live:
        sheets: list[Sheet] = []
        if self.store is not None:
            sheets = await asyncio.to_thread(self.store.arenas.sheets, arena.id)
        live = Live(arena, Standings(sheets))
        # an arena running already when it is loaded (a restart) was told of at its start
        live.start_told = arena.phase(self.clock.now()) != "soon"
        if self.store is not None:
            races = await asyncio.to_thread(self.store.arenas.races, arena.id)
            live.next_race = max((r.number for r in races), default=0) + 1
            for r in races:
                if r.ended_at is None:  # its room reports its end when it is over
                    people = tuple(a for a in r.accounts if a is not None)
                    names = tuple(live.sheets[a].name for a in people if a in live.sheets)
                    live.races[r.number] = RaceInPlay(r.number, r.room, people, names, r.started_at)
                    for a in people:
                        live.entrant(a).race = r.number
        self.live[arena.id] = live
        return live

    # --- making arenas ---------------------------------------------------------------------

    async def make(
        self,
        title: str,
        fmt: Format,
        starts_at: float,
        made_by: int | None,
        private: bool = False,
    ) -> str:
        """A new arena's id (``bad_setting`` for a format its edition refuses)."""
        try:
            fmt.check()
        except ValueError as e:
            raise ProtocolError("bad_setting", str(e)) from None
        arena = Arena(
            id=strong_random.token_hex(5),
            title=title,
            format=fmt,
            starts_at=starts_at,
            ends_at=starts_at + fmt.minutes * 60,
            made_by=made_by,
            private=private,
        )
        if self.store is not None:
            await asyncio.to_thread(self.store.arenas.make, arena, self.clock.now())
        live = await self._load(arena)
        if live.start_told:  # it starts at once: its maker's friends hear of it now
            await self._tell_start(live, joined=False)
        return arena.id

    async def _make_scheduled(self, now: float) -> None:
        """The schedule's arenas up to :data:`SCHEDULE_AHEAD_SECONDS` ahead, at most
        :data:`SCHEDULE_AHEAD_ARENAS` of a line (every process may try: the store keeps one
        per slot)."""
        if now < self._scheduled_until:
            return
        self._scheduled_until = now + 60.0
        for line in self.schedule:
            for slot, arena in line.slots(now, SCHEDULE_AHEAD_SECONDS)[:SCHEDULE_AHEAD_ARENAS]:
                if arena.id in self.live:
                    continue
                made = True
                if self.store is not None:
                    made = await asyncio.to_thread(self.store.arenas.make, arena, now, slot)
                    if not made:
                        found = await asyncio.to_thread(self.store.arenas.get, arena.id)
                        if found is None or found.frozen_at is not None:
                            continue
                        arena = found
                await self._load(arena)

    # --- looking arenas up -------------------------------------------------------------------

    async def find(self, arena_id: str) -> tuple[Arena, list[Sheet]]:
        """An arena and its sheets, running or stored (``404 no_arena``)."""
        live = self.live.get(arena_id)
        if live is not None:
            return live.arena, list(live.sheets.values())
        if self.store is not None and len(arena_id) <= 16:
            arena = await asyncio.to_thread(self.store.arenas.get, arena_id)
            if arena is not None:
                return arena, await asyncio.to_thread(self.store.arenas.sheets, arena_id)
        raise ProtocolError("no_arena", "no such arena")

    async def _command(self, arena_id: str, account: int) -> Live:
        """The running (or coming) arena an account's command is for: ``404 no_arena`` for
        none, ``429 rate_limited`` past its commands a second, ``409 arena_over``."""
        await self.find(arena_id)
        self.commands.spend(f"account:{account}", self.clock.now())
        return self._running(arena_id)

    def _running(self, arena_id: str) -> Live:
        live = self.live.get(arena_id)
        if live is None or live.arena.phase(self.clock.now()) not in ("soon", "running"):
            raise ProtocolError("arena_over", "this arena is over or not found")
        return live

    async def listing(self) -> list[dict[str, Any]]:
        """The public arenas coming, running and lately over (an hour), soonest first."""
        now = self.clock.now()
        shown: dict[str, dict[str, Any]] = {}
        if self.store is not None:
            for a in await asyncio.to_thread(self.store.arenas.listing, now - 3600.0):
                live = self.live.get(a.id)
                count = len(live.sheets) if live is not None else 0
                shown[a.id] = arena_summary(live.arena if live else a, now, count)
        for live in self.live.values():
            if not live.arena.private and live.arena.id not in shown:
                shown[live.arena.id] = arena_summary(live.arena, now, len(live.sheets))
        return sorted(shown.values(), key=lambda s: (s["starts_at"], s["id"]))

    async def page(self, arena_id: str, account: int | None) -> dict[str, Any]:
        arena, sheets = await self.find(arena_id)
        live = self.live.get(arena.id) or Live(arena, Standings(sheets))
        return arena_view(live, account, self.clock.now())

    async def results(self, arena_id: str) -> dict[str, Any]:
        arena, sheets = await self.find(arena_id)
        order = standings(sheets)
        return {
            "id": arena.id,
            "phase": arena.phase(self.clock.now()),
            "standings": [standing_row(i, s) for i, s in enumerate(order, start=1)],
        }

    # --- a player's commands -------------------------------------------------------------------

    async def join(self, arena_id: str, account: int, name: str, addresses: list[str]) -> None:
        """The account joins (or comes back: no longer paused), paired by its rating in the
        arena's edition."""
        live = await self._command(arena_id, account)
        mu = MU
        if self.store is not None:
            subject = Subject.of_account(account).key
            edition = live.arena.format.edition
            rating = await asyncio.to_thread(self.store.ratings.of, edition, subject)
            mu = MU if rating is None else rating.mu
        now = self.clock.now()
        sheet = live.sheets.get(account)
        if sheet is None:
            sheet = Sheet(account, name, now)
        else:
            sheet = replace(sheet, paused=False, name=name)
        if sheet.removed:
            raise ProtocolError("arena_over", "this account may not play this arena")
        entrant = live.entrant(account)
        entrant.mu, entrant.addresses = mu, tuple(addresses)
        await self._save(live, sheet)
        self._free(live, account, now)

    async def pause(self, arena_id: str, account: int, paused: bool) -> None:
        """The account pauses (not seated again until it comes back) or comes back."""
        live = await self._command(arena_id, account)
        sheet = self._sheet(live, account)
        sheet = replace(sheet, paused=paused)
        await self._save(live, sheet)
        self._free(live, account, self.clock.now())

    async def take_harder(self, arena_id: str, account: int, harder: bool) -> None:
        """The account's next races are on the harder side (or not)."""
        live = await self._command(arena_id, account)
        if harder and live.arena.format.harder_side is None:
            raise ProtocolError("bad_setting", "this arena plays its edition's hardest side")
        await self._save(live, replace(self._sheet(live, account), harder=harder))

    async def withdraw(self, arena_id: str, account: int) -> None:
        """The account leaves: gone from the standings if it has raced no race, else paused
        (its points stay)."""
        live = await self._command(arena_id, account)
        sheet = self._sheet(live, account)
        if sheet.results or live.entrant(account).race is not None:
            await self._save(live, replace(sheet, paused=True))
        else:
            # its entrant stays: its pages are still open, and it may join again from them
            del live.sheets[account]
            self._free(live, account, self.clock.now())
            if self.store is not None:
                await asyncio.to_thread(self.store.arenas.forget, arena_id, account)
        live.changed()

    def _sheet(self, live: Live, account: int) -> Sheet:
        sheet = live.sheets.get(account)
        if sheet is None:
            raise ProtocolError("not_joined", "this account has not joined this arena")
        return sheet

    async def _save(self, live: Live, sheet: Sheet) -> None:
        if self.store is not None:
            await asyncio.to_thread(self.store.arenas.save_sheet, live.arena.id, sheet)
        live.sheets[sheet.account] = sheet
        live.changed()

    def _free(self, live: Live, account: int, now: float) -> None:
        """Note whether the account may be seated now, and since when."""
        sheet = live.sheets.get(account)
        entrant = live.entrant(account)
        can = (
            sheet is not None
            and not sheet.paused
            and not sheet.removed
            and bool(live.watchers.of(account))
            and entrant.race is None
        )
        if not can:
            entrant.free_since = None
        elif entrant.free_since is None:
            entrant.free_since = now

    # --- watchers ------------------------------------------------------------------------------

    async def watch(self, arena_id: str, account: int | None) -> Watcher:
        return self.add_watcher(Watcher(arena_id, account))

    def add_watcher(self, w: Watcher) -> Watcher:
        """An arena page opens (``404 no_arena`` if the arena is not in memory: over, or
        never made): ``w`` is sent the arena's views from now on."""
        live = self.live.get(w.arena)
        if live is None:
            raise ProtocolError("no_arena", "no such arena, or it is over")
        account = w.account
        live.watchers.add(w)
        if account is not None:
            self._free(live, account, self.clock.now())
        self._send(live, w, self.clock.now())
        return w

    def unwatch(self, w: Watcher) -> None:
        live = self.live.get(w.arena)
        if live is None or w not in live.watchers:
            return
        live.watchers.discard(w)
        if w.account is not None:
            self._free(live, w.account, self.clock.now())

    def _send(self, live: Live, w: Watcher, now: float) -> None:
        """Send ``w`` its view if it changed, the clock aside; its player's results only when
        they changed since the last view sent to it (``null`` otherwise)."""
        near, me, results = own_view(live, w.account)
        told = live.results_of(w)
        shown = updates(live, now)
        page = shown.page(near, me, "null")
        if told is not w.results_told:
            w.results_told = told
            w.last = page
            w.deliver(ArenaUpdates.timed(shown.page(near, me, results), round(now * 1000)))
        elif page != w.last:
            w.last = page
            w.deliver(ArenaUpdates.timed(page, round(now * 1000)))

    # --- the clock -----------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("arenas: a tick failed; going on")
            await asyncio.sleep(TICK_SECONDS)

    async def tick(self) -> None:
        """Make the schedule's arenas, seat free players, freeze ended arenas, send views."""
        if not self.leads():
            return
        now = self.clock.now()
        await self._make_scheduled(now)
        for live in list(self.live.values()):
            phase = live.arena.phase(now)
            if phase in ("running", "ending"):
                await self._give_up_lost_races(live, now)
            if phase == "running":
                if not live.start_told:
                    live.start_told = True
                    await self._tell_start(live)
                self._pair(live, now)
            elif phase == "ending" and not live.races:
                await self._freeze(live, now)
            frozen = live.arena.frozen_at
            if frozen is not None and now - frozen > KEEP_FROZEN_SECONDS and not live.watchers:
                del self.live[live.arena.id]
                continue
            news = live.version != live.shown or phase != live.shown_phase
            if news and now - live.shown_at >= VIEW_EVERY_SECONDS:
                live.shown_phase = phase
                live.show_begins(now)

    async def _give_up_lost_races(self, live: Live, now: float) -> None:
        """A race that has not told its end :data:`RACE_LOST_SECONDS` after it began was lost:
        it scores nothing (an end told later is not counted), its players are free again, and
        it holds up no freeze."""
        for race in [r for r in live.races.values() if now - r.started_at > RACE_LOST_SECONDS]:
            log.warning("arena %s: race %d was lost", live.arena.id, race.number)
            del live.races[race.number]
            for a in race.accounts:
                e = live.entrant(a)
                e.race, e.seat = None, None
                self._free(live, a, now)
            live.changed()
            if self.store is not None:
                end = self.store.arenas.race_ended
                await asyncio.to_thread(end, live.arena.id, race.number, now, None, [])

    async def _tell_start(self, live: Live, joined: bool = True) -> None:
        """Tell, on whatever page they are (their notice sockets), every player who joined (and
        does not pause) that the arena has started (unless not ``joined``: it starts as it is
        made), and the maker's friends who have not joined that their friend's arena has
        (a public one only: a private arena's link goes to whom its maker chooses)."""
        if self.notices is None:
            return
        a = live.arena
        told: list[tuple[int, dict[str, Any]]] = []
        notice: dict[str, Any] = {
            "type": "arena",
            "arena": a.id,
            "title": a.title,
            "starts_at": round(a.starts_at * 1000),
            "friend": None,
        }
        if joined:
            sheets = list(live.sheets.values())
            told += [(s.account, notice) for s in sheets if not s.paused and not s.removed]
        if a.made_by is not None and not a.private and self.store is not None:
            maker, friends = await asyncio.to_thread(self._friends_of, a.made_by)
            told += [(f, {**notice, "friend": maker}) for f in friends if f not in live.sheets]
        for account, said in told:
            try:
                await self.notices.send(account, encode_notice(said))
            except Exception:
                log.exception("arena %s: its start was not told", a.id)
                return

    def _friends_of(self, account: int) -> tuple[str, list[int]]:
        """An account's name and its friends (who follow it back)."""
        assert self.store is not None
        name = self.store.accounts.name_of(account) or ""
        return name, [f.id for f in self.store.follows.following(account) if f.mutual]

    async def _run_shows(self) -> None:
        """Send the shows under way a slice at a time (:meth:`Live.show_begins`)."""
        while True:
            await asyncio.sleep(SHOW_SLICE_SECONDS)
            now = self.clock.now()
            for live in list(self.live.values()):
                try:
                    self._send_slice(live, now)
                except Exception:
                    log.exception("arena %s: a show failed; going on", live.arena.id)

    def _send_slice(self, live: Live, now: float) -> None:
        for w in live.next_slice():
            self._send(live, w, now)

    async def _freeze(self, live: Live, now: float) -> None:
        """The standings are final: stored with each place, and read back (a player marked a
        cheater while the arena ran leaves them now)."""
        if self.store is not None:
            arena_id = live.arena.id
            await asyncio.to_thread(self.store.arenas.freeze, arena_id, now)
            sheets = await asyncio.to_thread(self.store.arenas.sheets, arena_id)
            live.sheets = Standings(sheets)
        live.arena = live.arena.frozen(now)
        live.changed()

    def _pair(self, live: Live, now: float) -> None:
        last = len(live.sheets.order) + 1
        free = [
            Free(a, live.sheets.place(a) or last, e.mu, e.free_since, e.addresses, e.last)
            for a, e in live.entrants.items()
            if e.free_since is not None
        ]
        if not free:
            return
        f = live.arena.format
        gather = self.config.arena_gather_seconds
        for group, bots in pairings(free, now, f.seats, gather, self.config.quickmatch_wait):
            number = live.next_race
            live.next_race += 1
            accounts = [g.account for g in group]
            for a in accounts:
                e = live.entrants[a]
                e.free_since, e.race, e.seat = None, number, None
            task = asyncio.create_task(self._start_race(live, number, accounts, bots))
            self._making.add(task)
            task.add_done_callback(self._making.discard)

    async def _bot_levels(self, edition: str, mus: Sequence[float], free: int) -> list[str]:
        if free == 0:
            return []
        levels = {level: MU for level in BOT_LEVELS}
        if self.store is not None:
            for level in BOT_LEVELS:
                found = await asyncio.to_thread(
                    self.store.ratings.of, edition, Subject.of_bot(level).key
                )
                if found is not None:
                    levels[level] = found.mu
        return [closest_level(sum(mus) / len(mus), levels)] * free

    async def _start_race(self, live: Live, number: int, accounts: list[int], bots: int) -> None:
        """Make a race's room and hand each person their seat; if it cannot be made, they are
        free again."""
        f = live.arena.format
        harder = f.harder_side
        people = [
            Seated(
                a,
                live.sheets[a].name,
                harder if harder is not None and live.sheets[a].harder else f.side,
            )
            for a in accounts
        ]
        now = self.clock.now()
        try:
            levels = await self._bot_levels(
                f.edition, [live.entrants[a].mu for a in accounts], bots
            )
            seats = await self.make_race(live.arena, number, people, levels)
        except Exception:
            log.exception("arena %s: race %d could not be made", live.arena.id, number)
            for a in accounts:
                live.entrants[a].race = None
                self._free(live, a, self.clock.now())
            return
        code = str(seats[0]["code"])
        names = tuple(p.name for p in people)
        live.races[number] = RaceInPlay(number, code, tuple(accounts), names, now)
        for a, seat in zip(accounts, seats, strict=True):
            e = live.entrants[a]
            e.seat = seat
            e.last = frozenset(accounts)
        live.changed()
        for a in accounts:  # a seated player's page hears it at once
            for w in list(live.watchers.of(a)):
                self._send(live, w, self.clock.now())
        if self.store is not None:
            people_and_bots: list[int | None] = [*accounts, *([None] * bots)]
            try:
                await asyncio.to_thread(
                    self.store.arenas.race_started,
                    live.arena.id,
                    number,
                    code,
                    people_and_bots,
                    now,
                )
            except Exception:
                log.exception("arena %s: race %d was not stored", live.arena.id, number)

    # --- asks of other processes ----------------------------------------------------------------

    async def answer(self, what: str, body: dict[str, Any]) -> Any:
        """Another process's ask (:mod:`..cluster.arenas`): the method ``what`` of
        :class:`Arenas` with its arguments as JSON, the answer as JSON (``bad_message`` for an
        ask it does not know)."""
        ask = ARENA_ASKS.get(what)
        if ask is None:
            raise ProtocolError("bad_message", f"no arena ask {what!r}")
        return await ask(self, body)

    # --- a race's end ----------------------------------------------------------------------------

    async def race_over(self, outcome: RaceOutcome) -> None:
        """A race's room has stored its game: score it."""
        live = self.live.get(outcome.arena)
        race = live.races.pop(outcome.race, None) if live is not None else None
        if live is None or race is None:
            return  # scored already, or not this process's arena
        now = self.clock.now()
        f = live.arena.format
        scored: list[Sheet] = []
        for a in race.accounts:
            sheet = live.sheets.get(a)
            if sheet is None:
                continue
            place = outcome.places.get(a)
            harder = outcome.sides.get(a, f.side) != f.side
            sheet = sheet.scored(race.number, place, harder, outcome.at, outcome.game_id)
            if outcome.left and a in outcome.left:
                sheet = replace(sheet, paused=True)  # gone: not seated again until back
            live.sheets[a] = sheet
            scored.append(sheet)
            e = live.entrant(a)
            e.race, e.seat = None, None
            self._free(live, a, now)
        live.changed()
        if self.store is not None:
            try:
                await asyncio.to_thread(
                    self.store.arenas.race_ended,
                    live.arena.id,
                    race.number,
                    outcome.at,
                    outcome.game_id,
                    scored,
                )
            except Exception:
                log.exception("arena %s: race %d's end was not stored", live.arena.id, race.number)
