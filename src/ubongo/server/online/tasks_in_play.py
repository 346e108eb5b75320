"""The tasks being played now where help is not the player's to ask for: the hint route
refuses them (docs/fair-play.md, "Hints").

Every task dealt in a room (a race, rated or not; a solo run, the daily, endless: all but
practice, whose hints are free anyway) is noted here by its shape
(:func:`ubongo.puzzles.ratings.shape_fingerprint`) until its round can no longer be running.
The in-game ``hint`` follows the room's own rules; ``POST /api/hint`` answers only for tasks
that are not noted, nor today's or yesterday's daily (a run started before midnight, UTC, may
still be going). With several processes the notes live in Redis
(:class:`~..cluster.tasks.RedisTasksInPlay`), so that a task dealt on one process is known on
every other.

>>> from ..ops.clock import Clock
>>> clock = Clock()
>>> tasks = LocalTasksInPlay(clock)
>>> tasks.add(["ab12"], seconds=60.0)
>>> import asyncio
>>> asyncio.run(tasks.has("ab12")), asyncio.run(tasks.has("cd34"))
(True, False)
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from typing import Protocol

from ubongo import editions, rules
from ubongo.board import Area
from ubongo.pieces import edition as pieces_of
from ubongo.puzzles.daily import daily
from ubongo.puzzles.ratings import shape_fingerprint

from ..ops.clock import Clock
from .daily import FIRST_DAY


class TasksInPlay(Protocol):
    """Where the tasks in play are noted: in this process, or in Redis for a cluster."""

    def add(self, fingerprints: Iterable[str], seconds: float) -> None:
        """Note ``fingerprints`` as in play for the next ``seconds``."""

    async def has(self, fingerprint: str) -> bool:
        """Whether a task with this fingerprint is in play now."""


class LocalTasksInPlay:
    """The tasks in play on this process (one process serves every room)."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._until: dict[str, float] = {}
        #: the size at which the ended notes are next forgotten: twice what was kept the last
        #: time, so that a busy server does not walk every note at every deal
        self._prune_at = 10_000

    def add(self, fingerprints: Iterable[str], seconds: float) -> None:
        now = self.clock.now()
        if len(self._until) > self._prune_at:
            self._until = {fp: t for fp, t in self._until.items() if t > now}
            self._prune_at = max(10_000, 2 * len(self._until))
        for fp in fingerprints:
            self._until[fp] = max(self._until.get(fp, 0.0), now + seconds)

    async def has(self, fingerprint: str) -> bool:
        return self._until.get(fingerprint, 0.0) > self.clock.now()


def dealt(game: rules.Game) -> set[str]:
    """The shape fingerprints of the tasks the players of ``game`` hold now."""
    if game.round is None:
        return set()
    found: set[str] = set()
    for entry in game.round.entries:
        side, task = rules.entry_task(game, entry)
        found.add(task_shape(game.settings.edition, side.area, task.pieces))
    return found


@functools.lru_cache(maxsize=4096)
def task_shape(edition: str, area: Area, pieces: tuple[str, ...]) -> str:
    """The shape fingerprint of a task dealt in ``edition``, kept: each player's task is
    fingerprinted on the server's loop as its round starts (some 70 us each), and the same
    tasks come back again and again (an arena's races all draw from one deck made for the
    whole arena: three in four of a 200-race run's tasks were seen before). An edition's
    pieces do not change once loaded (:func:`ubongo.pieces.edition` is cached), so the key
    says it all."""
    ed = pieces_of(edition)
    return shape_fingerprint(area, [ed.piece(p) for p in pieces])


@functools.lru_cache(maxsize=16)
def daily_fingerprints(day: datetime.date) -> frozenset[str]:
    """The shape fingerprints of every edition's daily tasks of ``day``."""
    if day < FIRST_DAY:
        return frozenset()
    return frozenset(
        shape_fingerprint(task.area, task.pieces)
        for name in editions.names()
        for task in daily(name, day).tasks
    )


def dailies_in_play(day: datetime.date) -> frozenset[str]:
    """The daily tasks that may be in play on ``day``: its own, and the day before's (a run
    started before midnight, UTC, may still be going)."""
    return daily_fingerprints(day) | daily_fingerprints(day - datetime.timedelta(days=1))
