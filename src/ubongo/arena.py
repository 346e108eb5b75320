"""An arena's rules: races on a clock, scored by finishing place, and who races whom next.

An arena is a tournament of one edition that runs for some minutes. While its clock runs, a
free player is seated in the next race with free players close to them in the standings; a
race is one round of the edition on a fresh task, and its places are the round's finishing
order. Points (``docs/arenas.md``; the streak is lichess's arena rule):

* the race's first finisher wins: :data:`WIN` points; any other finisher :data:`FINISH`;
  a player who did not finish (or whose result fair play did not count) none;
* after two wins in a row a player is *on fire*: every race counts double until one is not
  won;
* a player may take the edition's harder side for a race: a win on it is worth
  :data:`HARDER_BONUS` more (not doubled).

The standings order players by points, then races won, then who reached their points first,
then who joined first. Everything here is pure: times are passed in.

>>> sheet = Sheet(account=1, name="Ada", joined_at=0.0)
>>> for race, place in enumerate([1, 1, 1, 2, None], start=1):
...     sheet = sheet.scored(race, place, harder=False, at=float(race))
>>> [r.points for r in sheet.results], sheet.points, sheet.wins, sheet.on_fire
([2, 2, 4, 2, 0], 10, 3, False)
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal

from ubongo import editions

#: points for winning a race (finishing first), and for finishing it otherwise
WIN = 2
FINISH = 1
#: the extra point for a win on the harder side
HARDER_BONUS = 1
#: wins in a row after which races count double
FIRE_AFTER = 2


def race_points(place: int | None, harder: bool, on_fire: bool) -> int:
    """A race's points for a player who finished at ``place`` (1 is first; ``None``: did not
    finish), on the harder side or not, on fire or not.

    >>> race_points(1, harder=False, on_fire=False), race_points(2, False, False)
    (2, 1)
    >>> race_points(1, harder=True, on_fire=True), race_points(3, True, True)
    (5, 2)
    >>> race_points(None, harder=True, on_fire=True)
    0
    """
    base = 0 if place is None else WIN if place == 1 else FINISH
    if on_fire:
        base *= 2
    return base + (HARDER_BONUS if harder and place == 1 else 0)


@dataclass(frozen=True)
class RaceResult:
    """One player's result in one race of an arena: the race's number, the place (``None``:
    not finished or not counted), whether on the harder side, the points it gave, whether it
    counted double, when the race ended, and its stored game."""

    race: int
    place: int | None
    harder: bool
    points: int
    fire: bool
    at: float
    #: the race's stored game (its replay), if it was stored
    game: int | None = None


@dataclass(frozen=True)
class Sheet:
    """A player's arena: their races' results in order, whether they pause (not seated again
    until they come back) and whether they take the harder side."""

    account: int
    name: str
    joined_at: float
    results: tuple[RaceResult, ...] = ()
    paused: bool = False
    #: takes the harder side in their next races
    harder: bool = False
    #: removed from the standings (a player marked a cheater: ``docs/arenas.md``)
    removed: bool = False

    # (a sheet never changes, `scored` makes a new one: what is read from its results is read
    # once; the standings of a thousand players sort on them at every change)

    @cached_property
    def points(self) -> int:
        """The sum of their races' points."""
        return sum(r.points for r in self.results)

    @cached_property
    def wins(self) -> int:
        """Races they won."""
        return sum(1 for r in self.results if r.place == 1)

    @cached_property
    def streak(self) -> int:
        """Races won in a row, the last one included."""
        n = 0
        for r in reversed(self.results):
            if r.place != 1:
                break
            n += 1
        return n

    @cached_property
    def on_fire(self) -> bool:
        """Whether the next race counts double."""
        return self.streak >= FIRE_AFTER

    @cached_property
    def reached_at(self) -> float:
        """When the player reached their points: the end of their last race that scored (their
        joining, without points). The earlier ranks higher among equals."""
        scored = [r.at for r in self.results if r.points > 0]
        return scored[-1] if scored else self.joined_at

    def scored(
        self, race: int, place: int | None, harder: bool, at: float, game: int | None = None
    ) -> Sheet:
        """This sheet with a race's result added.

        >>> s = Sheet(1, "Ada", 0.0).scored(1, 1, harder=True, at=9.0)
        >>> s.points, s.results[0].fire
        (3, False)
        """
        fire = self.on_fire
        points = race_points(place, harder, fire)
        result = RaceResult(race, place, harder, points, fire and place is not None, at, game)
        return replace(self, results=(*self.results, result))


def rank_key(s: Sheet) -> tuple[int, int, float, float, int]:
    """The standings' order: points, races won, who reached their points first, who joined
    first, then the account (so that the order is total)."""
    return (-s.points, -s.wins, s.reached_at, s.joined_at, s.account)


def standings(sheets: Iterable[Sheet]) -> list[Sheet]:
    """The players in the standings' order (a removed player is not in them).

    >>> a = Sheet(1, "A", 0.0).scored(1, 1, False, 5.0)
    >>> b = Sheet(2, "B", 0.0).scored(1, 1, False, 4.0)
    >>> c = Sheet(3, "C", 1.0).scored(2, 2, False, 3.0).scored(3, 2, False, 6.0)
    >>> [s.name for s in standings([a, b, c])]
    ['B', 'A', 'C']
    """
    return sorted((s for s in sheets if not s.removed), key=rank_key)


class Standings(MutableMapping[int, Sheet]):
    """The sheets of an arena's players by account, kept in the standings' order as they
    change: a changed sheet is moved to its place, found by bisection, where sorting them all
    again took an arena of 1,000 players half a millisecond at every race scored (16 a
    second), and every open page is sent its player's place.

    >>> a, b = Sheet(1, "Ada", 0.0), Sheet(2, "Bo", 1.0)
    >>> s = Standings([a, b])
    >>> [x.name for x in s.order], s.place(2)
    (['Ada', 'Bo'], 2)
    >>> s[2] = b.scored(1, 1, harder=False, at=5.0)
    >>> [x.name for x in s.order], s.place(1)
    (['Bo', 'Ada'], 2)
    >>> s[1] = replace(a, removed=True)
    >>> [x.name for x in s.order], s.place(1), len(s)
    (['Bo'], None, 2)
    """

    def __init__(self, sheets: Iterable[Sheet] = ()) -> None:
        """The standings of ``sheets`` (one for each account), sorted once."""
        self._sheets = {s.account: s for s in sheets}
        #: the sheets in the standings (the removed left out) and their keys, in order
        self._order = standings(self._sheets.values())
        self._keys = [rank_key(s) for s in self._order]

    @property
    def order(self) -> Sequence[Sheet]:
        """The players in the standings' order (not to be changed: it is the one kept)."""
        return self._order

    def place(self, account: int) -> int | None:
        """The account's place in the standings (1 is the top; ``None``: not in them)."""
        sheet = self._sheets.get(account)
        if sheet is None or sheet.removed:
            return None
        return bisect_left(self._keys, rank_key(sheet)) + 1

    def __getitem__(self, account: int) -> Sheet:
        """The account's sheet (a removed player's too)."""
        return self._sheets[account]

    def __setitem__(self, account: int, sheet: Sheet) -> None:
        """The account's new sheet, moved to its place (out of the standings if removed)."""
        if sheet.account != account:
            raise ValueError(f"the sheet of account {sheet.account} put as {account}'s")
        self._take(account)
        self._sheets[account] = sheet
        if not sheet.removed:
            key = rank_key(sheet)
            at = bisect_left(self._keys, key)
            self._keys.insert(at, key)
            self._order.insert(at, sheet)

    def __delitem__(self, account: int) -> None:
        """The account gone from the arena (it withdrew before its first race)."""
        self._take(account)
        del self._sheets[account]

    def _take(self, account: int) -> None:
        """The account's sheet out of the order (its key is unique: the account is in it)."""
        place = self.place(account)
        if place is not None:
            del self._keys[place - 1]
            del self._order[place - 1]

    def __iter__(self) -> Iterator[int]:
        """The accounts, in no particular order (:attr:`order` is the standings')."""
        return iter(self._sheets)

    def __len__(self) -> int:
        """How many players joined (the removed among them)."""
        return len(self._sheets)


# --- who races whom ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Free:
    """A player waiting for their next race: their place in the standings (1 is the top), skill
    (the rating's ``mu``), since when they are free, the hashes of their account's recent
    addresses (two accounts seen at one address never race each other: ``docs/fair-play.md``),
    and the accounts of their last race."""

    account: int
    rank: int
    mu: float
    since: float
    addresses: tuple[str, ...] = ()
    last: frozenset[int] = field(default_factory=frozenset)


def _apart(a: Free, b: Free) -> bool:
    return not set(a.addresses).intersection(b.addresses)


def pairings(
    free: Sequence[Free], now: float, seats: int, gather: float, alone: float
) -> list[tuple[list[Free], int]]:
    """The races to start now: each group of free players and its seats left for bots.

    From the top of the standings down, each player not yet seated is put with the free
    players closest to them in the standings (then in skill), each apart from everyone taken
    before; someone from their last race only once they have waited ``gather`` seconds. A
    full group races at once; a group of two or more once its first player has waited
    ``gather`` seconds, and a lone player after ``alone`` seconds (and not before ``gather``),
    with bots in the free seats.

    >>> free = [Free(i, rank=i, mu=25.0, since=0.0) for i in range(1, 6)]
    >>> [([f.account for f in g], bots) for g, bots in pairings(free, 0.0, 2, 2.0, 10.0)]
    [([1, 2], 0), ([3, 4], 0)]
    >>> [([f.account for f in g], bots) for g, bots in pairings(free[4:], 10.0, 2, 2.0, 10.0)]
    [([5], 1)]

    Two players fresh from the same race wait for others a little:

    >>> again = [Free(i, i, 25.0, 0.0, last=frozenset({1, 2})) for i in (1, 2)]
    >>> pairings(again, 1.0, 2, 2.0, 10.0), len(pairings(again, 2.0, 2, 2.0, 10.0))
    ([], 1)
    """
    out: list[tuple[list[Free], int]] = []
    seated: set[int] = set()
    line = sorted(free, key=lambda f: (f.rank, f.since, f.account))
    for anchor in line:
        if anchor.account in seated:
            continue
        waited = now - anchor.since
        others = [
            f
            for f in line
            if f.account not in seated
            and f is not anchor
            and (f.account not in anchor.last or waited >= gather)
        ]
        others.sort(key=lambda f: (abs(f.rank - anchor.rank), abs(f.mu - anchor.mu), f.since))
        group = [anchor]
        for f in others:
            if len(group) == seats:
                break
            if all(_apart(f, g) for g in group):
                group.append(f)
        full = len(group) == seats
        # a lone player waits for bots at least as long as for someone from their last race
        if full or (len(group) > 1 and waited >= gather) or waited >= max(alone, gather):
            seated.update(f.account for f in group)
            out.append((group, seats - len(group)))
    return out


# --- an arena's format --------------------------------------------------------------------------


@dataclass(frozen=True)
class Format:
    """What an arena plays: an edition, for how many minutes, races of how many seats, on
    which side (3D: level), with tasks made from its seed.

    >>> f = Format("classic", minutes=30, seats=4, side="A", seed="a1")
    >>> f.harder_side, Format("classic", 30, 4, "B", "a1").harder_side
    ('B', None)
    >>> f.race_seed(1) == f.race_seed(1) != f.race_seed(2)
    True
    """

    edition: str
    minutes: int
    seats: int
    side: str
    seed: str

    @property
    def record(self) -> editions.EditionRecord:
        """The edition's record."""
        return editions.record(self.edition)

    @property
    def harder_side(self) -> str | None:
        """The side a player may take for a win's extra point: the next harder one of the
        edition (its sides are listed easiest first); ``None`` on the hardest."""
        names = self.record.deck.side_names
        at = names.index(self.side)
        return names[at + 1] if at + 1 < len(names) else None

    def race_seed(self, race: int) -> int:
        """The seed of race number ``race`` (which cards it draws): from the arena's seed, so
        that an arena's races can be made again. ``race_seed(0)`` is the seed of the fresh
        deck every race of the arena draws from."""
        digest = hashlib.sha256(f"arena:{self.seed}:{race}".encode()).digest()
        return int.from_bytes(digest[:6], "big")

    def check(self) -> None:
        """Raise ValueError naming what does not suit the edition."""
        rec = self.record
        lo, hi = rec.players
        if not max(2, lo) <= self.seats <= hi:
            raise ValueError(f"a race of {rec.name} has {max(2, lo)}-{hi} seats")
        if self.side not in rec.deck.side_names:
            raise ValueError(f"{rec.name} has no side {self.side!r}")


# --- an arena ------------------------------------------------------------------------------------

#: an arena's phases: before its start, while its clock runs, after it while races in play
#: finish, and frozen (its standings are final)
Phase = Literal["soon", "running", "ending", "over"]


@dataclass(frozen=True)
class Arena:
    """An arena: its id (in its link), title, format, start and end (epoch seconds), the
    account that made it (``None``: the schedule), whether only its link finds it, and when
    its standings froze.

    >>> a = Arena("x", "Hourly", Format("classic", 30, 4, "A", "s"), 100.0, 1900.0)
    >>> a.phase(99.0), a.phase(100.0), a.phase(1900.0), a.frozen(1950.0).phase(1900.0)
    ('soon', 'running', 'ending', 'over')
    """

    id: str
    title: str
    format: Format
    starts_at: float
    ends_at: float
    made_by: int | None = None
    private: bool = False
    frozen_at: float | None = None

    def phase(self, now: float) -> Phase:
        """Where the arena is at ``now``."""
        if self.frozen_at is not None:
            return "over"
        if now < self.starts_at:
            return "soon"
        return "running" if now < self.ends_at else "ending"

    def frozen(self, at: float) -> Arena:
        """This arena, its standings final since ``at``."""
        return replace(self, frozen_at=at)


# --- the schedule ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scheduled:
    """One line of the schedule: an arena of ``edition`` every ``every_minutes`` minutes,
    starting ``offset_minutes`` into each period (periods counted from midnight UTC), lasting
    ``minutes``. ``side``: empty for the edition's default.

    >>> hourly = Scheduled("hourly", "Hourly {title}", "classic", 60, 0, 30, 4)
    >>> [key for key, a in hourly.slots(now=3500.0, ahead=3700.0)]
    ['hourly:classic:3600', 'hourly:classic:7200']
    >>> [key for key, a in hourly.slots(now=3700.0, ahead=60.0)]  # still running
    ['hourly:classic:3600']
    >>> hourly.slots(now=3500.0, ahead=3600.0)[0][1].title
    'Hourly Classic'
    """

    name: str
    title: str
    edition: str
    every_minutes: int
    offset_minutes: int
    minutes: int
    seats: int
    side: str = ""

    def slots(self, now: float, ahead: float) -> list[tuple[str, Arena]]:
        """The arenas of this line not over at ``now`` that start by ``now + ahead``, each with
        its slot key (the same on every process) and an id made from it."""
        period, offset, length = (
            self.every_minutes * 60,
            self.offset_minutes * 60,
            self.minutes * 60,
        )
        # the first start whose arena ends after now
        first = ((now - length - offset) // period + 1) * period + offset
        rec = editions.record(self.edition)
        out = []
        start = first
        while start <= now + ahead:
            key = f"{self.name}:{self.edition}:{int(start)}"
            fmt = Format(self.edition, self.minutes, self.seats, self.side or rec.default_side, key)
            arena_id = hashlib.sha256(key.encode()).hexdigest()[:10]
            title = self.title.format(title=rec.title)
            out.append((key, Arena(arena_id, title, fmt, start, start + length)))
            start += period
        return out


def schedule_from_json(data: object) -> list[Scheduled]:
    """The schedule's lines from its JSON (``{"arenas": [...]}``); ValueError naming the first
    thing wrong.

    >>> schedule_from_json({"arenas": [{"name": "h", "title": "H", "edition": "trigo",
    ...     "every_minutes": 60, "offset_minutes": 0, "minutes": 20, "seats": 3}]})[0].seats
    3
    >>> schedule_from_json({"arenas": [{"name": "h"}]})
    Traceback (most recent call last):
    ...
    ValueError: arenas[0]: needs title, edition, every_minutes, offset_minutes, minutes, seats
    """
    if not isinstance(data, dict) or not isinstance(data.get("arenas"), list):
        raise ValueError('a schedule is {"arenas": [...]}')
    out = []
    texts, numbers = ("name", "title", "edition"), ("every_minutes", "offset_minutes", "minutes")
    for i, line in enumerate(data["arenas"]):
        where = f"arenas[{i}]"
        if not isinstance(line, dict):
            raise ValueError(f"{where}: not an object")
        missing = [k for k in (*texts, *numbers, "seats") if k not in line]
        if missing:
            raise ValueError(f"{where}: needs {', '.join(missing)}")
        unknown = set(line) - {*texts, *numbers, "seats", "side"}
        if unknown:
            raise ValueError(f"{where}: unknown {', '.join(sorted(unknown))}")
        if not all(isinstance(line[k], str) and line[k] for k in texts):
            raise ValueError(f"{where}: name, title and edition are texts")
        if not all(isinstance(line[k], int) and line[k] >= 0 for k in (*numbers, "seats")):
            raise ValueError(f"{where}: every_minutes, offset_minutes, minutes, seats: numbers")
        if line["edition"] not in editions.names():
            raise ValueError(f"{where}: no edition {line['edition']!r}")
        if not 0 < line["minutes"] <= min(line["every_minutes"], 24 * 60):
            raise ValueError(f"{where}: minutes is 1 to every_minutes")
        side = line.get("side", "")
        rec = editions.record(line["edition"])
        try:
            Format(
                line["edition"], line["minutes"], line["seats"], side or rec.default_side, ""
            ).check()
        except ValueError as e:
            raise ValueError(f"{where}: {e}") from None
        out.append(Scheduled(**{**line, "side": side}))
    return out
