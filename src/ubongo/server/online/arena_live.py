"""An arena in memory (:class:`Live`): its entrants, races in play and open pages, and what
each page is shown (:func:`arena_view`), as :class:`~.arenas.ArenaDirector` keeps them; and
what a race's room reports at its end (:class:`RaceOutcome`)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableSet, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, Protocol

from ubongo.arena import Arena, Format, RaceResult, Sheet, Standings

from ..protocol.arenas import ArenaUpdates, encode_results
from .ratings import MU

#: rows of the standings' top, and of a player's neighbourhood either side of them
TOP_ROWS = 10
NEAR_ROWS = 3
#: races going on listed for watching
RACES_LISTED = 6
#: a show's pages are sent in this many slices, this far apart: a thousand pages made and sent
#: at once held the event loop for 120 ms and more, every verdict of the arena's races waiting
#: behind them (docs/arenas.md, "Where a held verdict waits, hop by hop")
SHOW_SLICES, SHOW_SLICE_SECONDS = 20, 0.025


@dataclass
class Seated:
    """One person of a race to be made: their account, name and side."""

    account: int
    name: str
    side: str


#: makes race number ``n`` of an arena (its people and the bot levels of the free seats):
#: each person's seat, in order (``docs/protocol.md``, a seat ticket)
MakeRace = Callable[[Arena, int, Sequence[Seated], Sequence[str]], Awaitable[list[dict[str, Any]]]]


@dataclass
class Entrant:
    """What the director knows of a joined player beyond their sheet: skill, recent
    addresses, since when they are free, their race, their last race's people, and the seat
    of their race for their page (their open pages are :attr:`Live.watchers`' own)."""

    mu: float = MU
    addresses: tuple[str, ...] = ()
    free_since: float | None = None
    race: int | None = None
    last: frozenset[int] = frozenset()
    seat: dict[str, Any] | None = None


@dataclass
class RaceInPlay:
    number: int
    room: str
    accounts: tuple[int, ...]
    names: tuple[str, ...]
    started_at: float


@dataclass(eq=False)
class Watcher:
    """An open arena page: its account (``None``: a visitor), what it is to be sent, and the
    last view sent (a view is sent only when it changed)."""

    arena: str
    account: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    last: str = ""
    #: the results of the page's player last sent to it (then sent as ``null`` until they
    #: change: an hour's arena gives a player 20 KiB of them, and a page is sent a view a second)
    results_told: tuple[RaceResult, ...] | None = None

    def deliver(self, text: str) -> None:
        if self.queue.qsize() >= 20:  # a page that does not read is closed
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


class Pages(MutableSet[Watcher]):
    """An arena's open pages, each found by its player too: a race begun tells its players'
    pages at once, and walking a thousand pages for four took 3% of the server's event loop at
    1,000 players (docs/arenas.md, "Less CPU a race, again").

    >>> pages = Pages()
    >>> pages.update([Watcher("a", 7), Watcher("a", 7), Watcher("a", None)])
    >>> len(pages), len(pages.of(7)), len(pages.of(8))
    (3, 2, 0)
    >>> pages.discard(next(iter(pages.of(7))))
    >>> len(pages), len(pages.of(7))
    (2, 1)
    """

    def __init__(self, pages: Iterable[Watcher] = ()) -> None:
        """The pages ``pages``."""
        self._all: set[Watcher] = set()
        self._of: dict[int, set[Watcher]] = {}
        self.update(pages)

    def __contains__(self, page: object) -> bool:
        """Whether ``page`` is open."""
        return page in self._all

    def __iter__(self) -> Iterator[Watcher]:
        """The open pages, in no order."""
        return iter(self._all)

    def __len__(self) -> int:
        """How many pages are open."""
        return len(self._all)

    def add(self, page: Watcher) -> None:
        """``page`` opens."""
        self._all.add(page)
        if page.account is not None:
            self._of.setdefault(page.account, set()).add(page)

    def discard(self, page: Watcher) -> None:
        """``page`` closes (nothing if it is not open)."""
        self._all.discard(page)
        if page.account is None:
            return
        mine = self._of.get(page.account)
        if mine is not None:
            mine.discard(page)
            if not mine:
                del self._of[page.account]

    def update(self, pages: Iterable[Watcher]) -> None:
        """Each of ``pages`` opens."""
        for page in pages:
            self.add(page)

    def of(self, account: int) -> Set[Watcher]:
        """The open pages of ``account``'s player."""
        return self._of.get(account, frozenset())


@dataclass
class Live:
    """An arena in memory: its sheets (in the standings' order), its entrants, its races in
    play, its watchers."""

    arena: Arena
    sheets: Standings
    entrants: dict[int, Entrant] = field(default_factory=dict)
    races: dict[int, RaceInPlay] = field(default_factory=dict)
    next_race: int = 1
    watchers: Pages = field(default_factory=Pages)
    #: bumped at every change a view shows; views are made when it moved
    version: int = 0
    shown: int = -1
    shown_at: float = 0.0
    shown_phase: str = ""
    #: its players were told it started (their notice sockets)
    start_told: bool = False
    _shared: tuple[int, str, dict[str, Any]] | None = None
    _updates: tuple[int, str, ArenaUpdates] | None = None
    #: each player's results encoded, with the sheet they are of (see :func:`own_view`)
    _results: dict[int, tuple[Sheet, str]] = field(default_factory=dict)
    #: the pages of the show under way not yet sent, and how many go in a slice
    showing: deque[Watcher] = field(default_factory=deque)
    show_slice: int = 0

    def show_begins(self, now: float) -> None:
        """A show: every open page is sent its view over the next :data:`SHOW_SLICES` slices
        (one begun before this one has ended is overtaken: its pages left are in this one).
        The pages whose player's results changed since their last view go first: a race's
        result reaches its players within a tick and one slice, not up to the show's end."""
        self.shown, self.shown_at = self.version, now
        fresh, rest = deque[Watcher](), deque[Watcher]()
        for w in self.watchers:
            (fresh if self.results_of(w) is not w.results_told else rest).append(w)
        fresh.extend(rest)
        self.showing = fresh
        self.show_slice = -(-len(self.showing) // SHOW_SLICES)

    def results_of(self, w: Watcher) -> tuple[RaceResult, ...] | None:
        """The results of page ``w``'s player now (``None``: a visitor, or not joined); the
        page is sent them when they are not those it was last told."""
        sheet = self.sheets.get(w.account) if w.account is not None else None
        return None if sheet is None else sheet.results

    def next_slice(self) -> list[Watcher]:
        """The pages the show sends next (those closed since it began left out)."""
        slice_ = [self.showing.popleft() for _ in range(min(self.show_slice, len(self.showing)))]
        return [w for w in slice_ if w in self.watchers]

    def changed(self) -> None:
        """Something a view shows has changed."""
        self.version += 1

    def entrant(self, account: int) -> Entrant:
        return self.entrants.setdefault(account, Entrant())


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def standing_row(rank: int, s: Sheet) -> dict[str, Any]:
    return {
        "rank": rank,
        "account": s.account,
        "name": s.name,
        "points": s.points,
        "wins": s.wins,
        "races": len(s.results),
        "on_fire": s.on_fire,
        "paused": s.paused,
    }


def arena_view(live: Live, account: int | None, now: float) -> dict[str, Any]:
    """What an arena's page shows ``account`` (``None``: a visitor) now: the arena, the top of
    the standings, the account's neighbourhood and sheet, the races going on."""
    near, me, _ = own_view(live, account)
    if me is not None and account is not None:
        me["results"] = results_json(live.sheets[account])
    return {**shared_view(live, now), "near": near, "me": me, "server_time": _ms(now)}


def shared_view(live: Live, now: float) -> dict[str, Any]:
    """What every page of the arena shows alike (the arena, the top of the standings, the
    races going on), made once per change and phase: a thousand pages are sent their views
    in the same second."""
    a, f = live.arena, live.arena.format
    phase = a.phase(now)
    if live._shared is not None and live._shared[:2] == (live.version, phase):
        return live._shared[2]
    order = live.sheets.order
    races = sorted(live.races.values(), key=lambda r: -r.started_at)[:RACES_LISTED]
    shared = {
        "id": a.id,
        "title": a.title,
        "edition": f.edition,
        "side": f.side,
        "harder_side": f.harder_side,
        "seats": f.seats,
        "minutes": f.minutes,
        "starts_at": _ms(a.starts_at),
        "ends_at": _ms(a.ends_at),
        "phase": phase,
        "private": a.private,
        "players": len(order),
        "races_in_play": len(live.races),
        "top": [standing_row(i, s) for i, s in enumerate(order[:TOP_ROWS], start=1)],
        "races": [{"number": r.number, "room": r.room, "names": list(r.names)} for r in races],
    }
    live._shared = (live.version, phase, shared)
    return shared


def updates(live: Live, now: float) -> ArenaUpdates:
    """The arena's pages' updates now (:class:`ArenaUpdates`: the shared part encoded once),
    made once per change and phase."""
    phase = live.arena.phase(now)
    if live._updates is None or live._updates[:2] != (live.version, phase):
        live._updates = (live.version, phase, ArenaUpdates(shared_view(live, now)))
    return live._updates[2]


def own_view(
    live: Live, account: int | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, str]:
    """What only ``account``'s page shows: the standings around them (when not in the top),
    their own sheet (``None``: a visitor, or not joined) without its results, and the results
    encoded (:func:`~..protocol.arenas.encode_results`). Those are encoded once a sheet (a race
    scored makes a new one): an hour's arena gives a player 200 results and more, and each of
    their pages is sent them every second (docs/arenas.md, "Measured")."""
    sheet = live.sheets.get(account) if account is not None else None
    if sheet is None or account is None:
        return [], None, "[]"
    encoded = live._results.get(account)
    if encoded is None or encoded[0] is not sheet:
        encoded = live._results[account] = (sheet, encode_results(results_json(sheet)))
    order = live.sheets.order
    entrant = live.entrant(account)
    mine = live.sheets.place(account)
    near: list[dict[str, Any]] = []
    if mine is not None and mine > TOP_ROWS:
        lo, hi = max(TOP_ROWS, mine - NEAR_ROWS - 1), min(len(order), mine + NEAR_ROWS)
        near = [standing_row(i + 1, order[i]) for i in range(lo, hi)]
    me = {
        "rank": mine,
        "points": sheet.points,
        "streak": sheet.streak,
        "on_fire": sheet.on_fire,
        "paused": sheet.paused,
        "harder": sheet.harder,
        "present": bool(live.watchers.of(account)),
        "seat": entrant.seat,
    }
    return near, me, encoded[1]


def results_json(sheet: Sheet) -> list[dict[str, Any]]:
    """A player's race results as a page shows them."""
    return [
        {
            "race": r.race,
            "place": r.place,
            "points": r.points,
            "fire": r.fire,
            "harder": r.harder,
            "game_id": r.game,
        }
        for r in sheet.results
    ]


def arena_summary(a: Arena, now: float, players: int) -> dict[str, Any]:
    """An arena in a list: what it plays, when, how many have joined."""
    f = a.format
    return {
        "id": a.id,
        "title": a.title,
        "edition": f.edition,
        "side": f.side,
        "seats": f.seats,
        "minutes": f.minutes,
        "starts_at": _ms(a.starts_at),
        "ends_at": _ms(a.ends_at),
        "phase": a.phase(now),
        "players": players,
        "scheduled": a.made_by is None,
    }


@dataclass(frozen=True)
class RaceOutcome:
    """A finished race as its room saw it: the arena and race, each person's place (``None``:
    did not finish, or not counted), side, who left, the stored game and when."""

    arena: str
    race: int
    places: dict[int, int | None]
    sides: dict[int, str]
    left: frozenset[int]
    game_id: int | None
    at: float

    def to_json(self) -> dict[str, Any]:
        """As JSON (its accounts' keys as pairs), for another process.

        >>> import json
        >>> o = RaceOutcome("a1", 3, {7: 1, 8: None}, {7: "A", 8: "B"}, frozenset({8}), 12, 5.0)
        >>> RaceOutcome.from_json(json.loads(json.dumps(o.to_json()))) == o
        True
        """
        return {
            "arena": self.arena,
            "race": self.race,
            "places": list(self.places.items()),
            "sides": list(self.sides.items()),
            "left": sorted(self.left),
            "game_id": self.game_id,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RaceOutcome:
        return cls(
            str(data["arena"]),
            int(data["race"]),
            {int(a): None if p is None else int(p) for a, p in data["places"]},
            {int(a): str(side) for a, side in data["sides"]},
            frozenset(int(a) for a in data["left"]),
            None if data["game_id"] is None else int(data["game_id"]),
            float(data["at"]),
        )


class Arenas(Protocol):
    """What the routes and the rooms ask of the arenas, wherever they are run: each method
    raises a :class:`~..protocol.incoming.ProtocolError` for what it refuses (``no_arena``,
    ``arena_over``, ``not_joined``, ``bad_setting``, ``rate_limited``, ``unavailable``)."""

    async def listing(self) -> list[dict[str, Any]]:
        """The public arenas coming, running and lately over, soonest first."""
        ...

    async def make(
        self, title: str, fmt: Format, starts_at: float, made_by: int | None, private: bool
    ) -> str:
        """A new arena's id."""
        ...

    async def page(self, arena_id: str, account: int | None) -> dict[str, Any]:
        """An arena as its page shows ``account`` (``None``: a visitor)."""
        ...

    async def results(self, arena_id: str) -> dict[str, Any]:
        """Every player's line in the standings' order."""
        ...

    async def join(self, arena_id: str, account: int, name: str, addresses: list[str]) -> None:
        """The account joins, or comes back from a pause."""
        ...

    async def pause(self, arena_id: str, account: int, paused: bool) -> None:
        """The account pauses or comes back."""
        ...

    async def take_harder(self, arena_id: str, account: int, harder: bool) -> None:
        """The account's next races are on the harder side, or not."""
        ...

    async def withdraw(self, arena_id: str, account: int) -> None:
        """The account leaves the arena."""
        ...

    async def watch(self, arena_id: str, account: int | None) -> Watcher:
        """An arena page opens: its views arrive in the watcher's queue."""
        ...

    def unwatch(self, w: Watcher) -> None:
        """The page has closed."""
        ...

    async def race_over(self, outcome: RaceOutcome) -> None:
        """A race's room has stored its game."""
        ...


#: what another process may ask of the arenas' director (``ArenaDirector.answer``): each
#: :class:`Arenas` method, its arguments by name in JSON
ARENA_ASKS: dict[str, Callable[[Arenas, dict[str, Any]], Awaitable[Any]]] = {
    "listing": lambda d, b: d.listing(),
    "make": lambda d, b: d.make(
        b["title"], Format(**b["format"]), b["starts_at"], b["made_by"], b["private"]
    ),
    "page": lambda d, b: d.page(b["arena"], b["account"]),
    "results": lambda d, b: d.results(b["arena"]),
    "join": lambda d, b: d.join(b["arena"], b["account"], b["name"], b["addresses"]),
    "pause": lambda d, b: d.pause(b["arena"], b["account"], b["paused"]),
    "take_harder": lambda d, b: d.take_harder(b["arena"], b["account"], b["harder"]),
    "withdraw": lambda d, b: d.withdraw(b["arena"], b["account"]),
    "race_over": lambda d, b: d.race_over(RaceOutcome.from_json(b)),
}
