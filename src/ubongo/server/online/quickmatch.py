"""Quick match: players waiting for a rated game of an edition and size, put together.

A player asks with ``POST /api/quickmatch`` (``{"edition", "players"}``, an account's token
required) and the request waits (a long poll) until it is seated; the answer is a seat, as
joining a room is. Every process runs :class:`QuickMatch`'s matcher a few times a second over
one shared queue (:class:`Queue`): in this process (:class:`LocalQueue`), or in Redis
(:class:`~..cluster.queue.RedisQueue`) when several processes share rooms, where claiming a
group is atomic, so that two processes never seat one player twice.

Matching, per edition and player count, oldest waiting player first (``docs/protocol.md``,
"Quick match"):

* players whose skill (the rating's ``mu``, in shown points: x 40) is within the oldest
  player's reach are put together, closest first; the reach starts at :data:`REACH_POINTS`
  and widens by :data:`WIDEN_POINTS` each second waited (a player is in reach of another if
  either one's reach covers the gap);
* two accounts seen at one client address lately are never put together (:func:`apart`:
  each waiting player carries the hashes of its account's recent addresses,
  :mod:`.conduct`), so a second account cannot be queued to lose to the first;
* after ``quickmatch_wait`` seconds the oldest player gets a room anyway, with whoever is in
  reach, and the free seats go to bots of the level whose rating's ``mu`` is closest to the
  players' mean (medium when equal: bots not yet rated).

The room is rated and locked (spectators may come), everyone is ready, and the game starts by
itself as soon as every person has connected, or :data:`START_GRACE_SECONDS` after the room
was made.

A request that ends (the client closed the connection) or ``DELETE /api/quickmatch`` leaves
the queue. An account waits at most once (``already_waiting``, 409).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ubongo import editions

from ..protocol.incoming import BOT_LEVELS, ProtocolError
from ..store import Store
from .ratings import MU, SCALE, Subject

log = logging.getLogger("ubongo.server")

#: shown-rating points two players may be apart when they start waiting
REACH_POINTS = 150.0
#: and how much farther each second of waiting
WIDEN_POINTS = 60.0
#: how often the matcher looks at the queue
MATCH_EVERY_SECONDS = 0.2
#: how often a waiting request looks for its seat
POLL_SECONDS = 0.05
#: out of the queue with no seat for this long: the account left it
LEFT_GRACE_SECONDS = 2.0
#: the longest a quick-match room waits for its people to connect before its game starts
START_GRACE_SECONDS = 5.0
#: a seat given but not collected is dropped after this long
SEAT_KEPT_SECONDS = 120


@dataclass(frozen=True)
class Waiting:
    """A player in the queue: the account, its name, what it waits for, its skill (``mu``)
    in that edition, since when (epoch seconds: the same on every process), and the hashes
    of the addresses its account was seen at lately (:mod:`.conduct`; carried here so that
    every process's matcher knows them without asking the database).

    >>> w = Waiting(1, "Ada", "classic", 2, 25.0, 0.0, addresses=("ab12",))
    >>> Waiting.from_json(w.to_json()) == w
    True
    """

    account: int
    name: str
    edition: str
    players: int
    mu: float
    since: float
    addresses: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_json(text: str) -> Waiting:
        data = json.loads(text)
        # a player queued by a process that knew no addresses has none
        data["addresses"] = tuple(data.get("addresses", ()))
        return Waiting(**data)


class Queue(ABC):
    """Where waiting players are kept, and where their seats are left for them."""

    @abstractmethod
    async def add(self, w: Waiting) -> bool:
        """Put ``w`` in the queue; ``False`` if its account is waiting already."""

    @abstractmethod
    async def remove(self, account: int) -> bool:
        """Take the account out; whether it was waiting."""

    @abstractmethod
    async def waiting(self) -> list[Waiting]:
        """Everybody waiting."""

    @abstractmethod
    async def is_waiting(self, account: int) -> bool:
        """Whether the account is in the queue."""

    @abstractmethod
    async def claim(self, accounts: Sequence[int]) -> bool:
        """Take all of ``accounts`` out at once, or none (``False``: one of them is gone)."""

    @abstractmethod
    async def put_back(self, group: Sequence[Waiting]) -> None:
        """Return a claimed group to the queue (its room could not be made)."""

    @abstractmethod
    async def deliver(self, account: int, seat: dict[str, Any]) -> None:
        """Leave ``seat`` for the account's waiting request."""

    @abstractmethod
    async def collect(self, account: int) -> dict[str, Any] | None:
        """The seat left for the account, taken (``None``: none yet)."""


class LocalQueue(Queue):
    """The queue of one process."""

    def __init__(self) -> None:
        self._waiting: dict[int, Waiting] = {}
        self._seats: dict[int, dict[str, Any]] = {}

    async def add(self, w: Waiting) -> bool:
        if w.account in self._waiting:
            return False
        self._seats.pop(w.account, None)
        self._waiting[w.account] = w
        return True

    async def remove(self, account: int) -> bool:
        return self._waiting.pop(account, None) is not None

    async def waiting(self) -> list[Waiting]:
        return list(self._waiting.values())

    async def is_waiting(self, account: int) -> bool:
        return account in self._waiting

    async def claim(self, accounts: Sequence[int]) -> bool:
        if not all(a in self._waiting for a in accounts):
            return False
        for a in accounts:
            del self._waiting[a]
        return True

    async def put_back(self, group: Sequence[Waiting]) -> None:
        for w in group:
            self._waiting.setdefault(w.account, w)

    async def deliver(self, account: int, seat: dict[str, Any]) -> None:
        self._seats[account] = seat

    async def collect(self, account: int) -> dict[str, Any] | None:
        return self._seats.pop(account, None)


#: makes a rated room for a group (people, oldest first) and bots of these levels, and
#: answers each person's seat (same order)
MakeRoom = Callable[[Sequence[Waiting], Sequence[str]], Awaitable[list[dict[str, Any]]]]


def in_reach(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether two waiting players may play together now.

    >>> a = Waiting(1, "A", "e", 2, mu=25.0, since=0.0)
    >>> b = Waiting(2, "B", "e", 2, mu=35.0, since=0.0)
    >>> in_reach(a, b, now=0.0), in_reach(a, b, now=5.0)
    (False, True)
    """
    gap = abs(a.mu - b.mu) * SCALE
    reach = max(now - a.since, now - b.since, 0.0) * WIDEN_POINTS + REACH_POINTS
    return gap <= reach


def apart(a: Waiting, b: Waiting) -> bool:
    """Whether two waiting players' accounts were seen at no common address lately: only such
    may be seated together (a second account is not a rated opponent).

    >>> a = Waiting(1, "A", "e", 2, mu=25.0, since=0.0, addresses=("x", "y"))
    >>> apart(a, Waiting(2, "B", "e", 2, mu=25.0, since=0.0, addresses=("z",)))
    True
    >>> apart(a, Waiting(3, "C", "e", 2, mu=25.0, since=0.0, addresses=("y",)))
    False
    """
    return not set(a.addresses).intersection(b.addresses)


def _table(anchor: Waiting, others: Sequence[Waiting], now: float, seats: int) -> list[Waiting]:
    """Who of ``others`` sit down with ``anchor`` (at most ``seats``): in its reach, closest
    first, each apart from the anchor and from everyone taken before."""
    close = sorted(
        (w for w in others if w is not anchor and in_reach(anchor, w, now)),
        key=lambda w: (abs(w.mu - anchor.mu), w.since),
    )
    taken: list[Waiting] = []
    for w in close:
        if len(taken) == seats:
            break
        if all(apart(w, t) for t in (anchor, *taken)):
            taken.append(w)
    return taken


def groups(queue: Sequence[Waiting], now: float, wait: float) -> list[tuple[list[Waiting], int]]:
    """The tables to make now: each group of people (oldest first) and its free seats (to
    fill with bots).

    >>> q = [Waiting(i, str(i), "e", 2, mu=25.0 + 20 * i, since=float(i)) for i in range(3)]
    >>> [([w.account for w in g], bots) for g, bots in groups(q, now=3.0, wait=10.0)]
    []
    >>> [([w.account for w in g], bots) for g, bots in groups(q, now=10.0, wait=10.0)]
    [([0], 1)]

    Two accounts of one address are not put together, however close:

    >>> q = [Waiting(i, str(i), "e", 2, 25.0, 0.0, addresses=("x",)) for i in range(2)]
    >>> [([w.account for w in g], bots) for g, bots in groups(q, now=1.0, wait=10.0)]
    []
    """
    out: list[tuple[list[Waiting], int]] = []
    used: set[int] = set()
    kinds = sorted({(w.edition, w.players) for w in queue})
    for edition, players in kinds:
        line = sorted(
            (w for w in queue if (w.edition, w.players) == (edition, players)),
            key=lambda w: (w.since, w.account),
        )
        for anchor in line:
            if anchor.account in used:
                continue
            free = [w for w in line if w.account not in used]
            close = _table(anchor, free, now, players - 1)
            if len(close) == players - 1 or now - anchor.since >= wait:
                group = [anchor, *sorted(close, key=lambda w: (w.since, w.account))]
                used.update(w.account for w in group)
                out.append((group, players - len(group)))
    return out


def closest_level(mu: float, bots: dict[str, float]) -> str:
    """The bot level whose ``mu`` is closest to ``mu`` (medium first when equal).

    >>> closest_level(25.0, {"easy": 0.0, "medium": 23.0, "hard": 58.0})
    'medium'
    >>> closest_level(50.0, {"easy": 25.0, "medium": 25.0, "hard": 25.0})
    'medium'
    """
    order = sorted(BOT_LEVELS, key=lambda level: level != "medium")
    return min(order, key=lambda level: abs(bots[level] - mu))


class QuickMatch:
    """The queue's front (join, wait, leave) and the matcher that seats waiting players."""

    def __init__(self, queue: Queue, store: Store | None, wait: float, make_room: MakeRoom) -> None:
        self.queue = queue
        self.store = store
        self.wait = wait
        self.make_room = make_room
        self._task: asyncio.Task[None] | None = None
        #: players waiting, by edition, at the matcher's last look at the queue (all the
        #: processes' players when the queue is shared)
        self.waiting: dict[str, int] = {}

    def start(self) -> None:
        self._task = asyncio.create_task(self._match_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _mu(self, edition: str, subject: str) -> float:
        if self.store is None:
            return MU
        found = await asyncio.to_thread(self.store.ratings.of, edition, subject)
        return MU if found is None else found.mu

    async def join(
        self,
        account: int,
        name: str,
        edition: str,
        players: int,
        addresses: Sequence[str] = (),
    ) -> dict[str, Any]:
        """Wait in the queue until seated; the seat. Cancelled (the client went): out of
        the queue. ``addresses``: the hashes of the account's recent addresses (nobody who
        shares one is seated with it)."""
        if edition not in editions.names():
            raise ProtocolError("no_edition", "no such edition")
        lo, hi = editions.record(edition).players
        if not max(2, lo) <= players <= hi:
            raise ProtocolError(
                "bad_seats", f"a quick match of this edition is for {max(2, lo)}-{hi} players"
            )
        mu = await self._mu(edition, Subject.of_account(account).key)
        w = Waiting(account, name, edition, players, mu, time.time(), tuple(addresses))
        if not await self.queue.add(w):
            raise ProtocolError("already_waiting", "this account is waiting for a match already")
        try:
            out_since: float | None = None
            while True:
                seat = await self.queue.collect(account)
                if seat is not None:
                    return seat
                # out of the queue without a seat: left (DELETE), unless a matcher has just
                # claimed it and is making its room
                if await self.queue.is_waiting(account):
                    out_since = None
                elif out_since is None:
                    out_since = time.time()
                elif time.time() - out_since > LEFT_GRACE_SECONDS:
                    raise ProtocolError("left_queue", "this account left the queue")
                await asyncio.sleep(POLL_SECONDS)
        except asyncio.CancelledError:
            await asyncio.shield(self._leave_after(account))
            raise

    async def _leave_after(self, account: int) -> None:
        await self.queue.remove(account)

    async def leave(self, account: int) -> bool:
        """Take the account out of the queue; whether it was waiting."""
        return await self.queue.remove(account)

    async def _match_forever(self) -> None:
        while True:
            await asyncio.sleep(MATCH_EVERY_SECONDS)
            try:
                await self.match_once()
            except Exception:
                log.exception("quick match: the matcher failed; trying again")

    async def match_once(self) -> None:
        """Seat every group that may be seated now."""
        queue = await self.queue.waiting()
        self.waiting = dict(Counter(w.edition for w in queue))
        if not queue:
            return
        for group, free in groups(queue, time.time(), self.wait):
            if not await self.queue.claim([w.account for w in group]):
                continue  # one of them left, or another process seated them
            try:
                levels = await self._bot_levels(group, free)
                seats = await self.make_room(group, levels)
            except Exception:
                log.exception("quick match: a room could not be made; they wait on")
                await self.queue.put_back(group)
                continue
            for w, seat in zip(group, seats, strict=True):
                await self.queue.deliver(w.account, seat)

    async def _bot_levels(self, group: Sequence[Waiting], free: int) -> list[str]:
        if free == 0:
            return []
        edition = group[0].edition
        mus = {level: await self._mu(edition, Subject.of_bot(level).key) for level in BOT_LEVELS}
        mean = sum(w.mu for w in group) / len(group)
        return [closest_level(mean, mus)] * free
