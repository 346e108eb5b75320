"""The tasks in play of one process: noted until their time is up, and the ended ones
forgotten in batches (a busy server deals thousands of tasks); the dealt tasks' fingerprints,
each task's shapes worked out once."""

from __future__ import annotations

import asyncio
import copy
from unittest import mock

from ubongo import editions
from ubongo.pieces import edition as pieces_of
from ubongo.puzzles.ratings import shape_fingerprint
from ubongo.rules import Settings, StartRound, apply, entry_task, new_game
from ubongo.rules.state import Game
from ubongo.server.online import tasks_in_play
from ubongo.server.online.tasks_in_play import LocalTasksInPlay, dealt, task_shape
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


def _race(seed: str) -> Game:
    """A fresh game of four, its first round started (each player on a task of their own)."""
    players = tuple(f"p{i}" for i in range(4))
    settings = Settings(editions.names()[0], players, puzzles="fresh", rounds=1)
    return apply(new_game(settings, seed), StartRound(0.0))


def test_dealt_tasks_are_fingerprinted_by_their_shapes() -> None:
    game = _race("dealt")
    assert game.round is not None
    ed = pieces_of(game.settings.edition)
    expected = set()
    for entry in game.round.entries:
        side, task = entry_task(game, entry)
        expected.add(shape_fingerprint(side.area, [ed.piece(p) for p in task.pieces]))
    assert dealt(game) == expected and len(expected) == len(game.round.entries)


def test_a_task_dealt_again_is_not_fingerprinted_again() -> None:
    # every round start fingerprints its tasks on the server's loop, and an arena's races
    # keep drawing from one deck: a task seen before costs a look-up, not its shapes again
    task_shape.cache_clear()
    game = _race("again")
    with mock.patch.object(tasks_in_play, "shape_fingerprint", wraps=shape_fingerprint) as made:
        first = dealt(game)
        assert made.call_count == len(first)
        assert dealt(copy.deepcopy(game)) == first  # equal tasks, other objects
        assert made.call_count == len(first)
