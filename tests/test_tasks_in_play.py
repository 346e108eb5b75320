"""The tasks in play of one process: noted until their time is up, and the ended ones
forgotten in batches (a busy server deals thousands of tasks)."""

from __future__ import annotations

import asyncio

from ubongo.server.online.tasks_in_play import LocalTasksInPlay
from ubongo.server.ops.clock import Clock


class StoppedClock(Clock):
    """A clock that says what the test sets."""

    def __init__(self) -> None:
        super().__init__()
        self.at = 1000.0

    def now(self) -> float:
        return self.at


def test_a_note_lasts_its_seconds() -> None:
    clock = StoppedClock()
    tasks = LocalTasksInPlay(clock)
    tasks.add(["a"], seconds=60.0)
    clock.at += 59.0
    assert asyncio.run(tasks.has("a"))
    clock.at += 2.0
    assert not asyncio.run(tasks.has("a"))


def test_ended_notes_are_forgotten_once_there_are_many() -> None:
    clock = StoppedClock()
    tasks = LocalTasksInPlay(clock)
    tasks.add([f"old{i}" for i in range(10_001)], seconds=1.0)
    clock.at += 10.0
    tasks.add(["live"], seconds=3600.0)  # past the threshold: the ended ones go
    assert len(tasks._until) == 1
    assert asyncio.run(tasks.has("live")) and not asyncio.run(tasks.has("old7"))


def test_many_live_notes_are_not_walked_at_every_deal() -> None:
    clock = StoppedClock()
    tasks = LocalTasksInPlay(clock)
    tasks.add([f"live{i}" for i in range(10_001)], seconds=3600.0)
    tasks.add(["one more"], seconds=3600.0)  # walks once, keeps all of them
    assert tasks._prune_at == 2 * 10_001
    assert all(asyncio.run(tasks.has(fp)) for fp in ("live0", "live10000", "one more"))
