"""The daily challenge: per edition, one set of fresh tasks a day, the same for everyone.

The tasks come from the deck generator (so each one is proven solvable and has its difficulty
measured) with a seed made from the edition and the date: every server, and every replay,
makes the same set for the same day without storing it. Of a few generated cards the set takes
:data:`TASKS` tasks spread over the difficulty range, easiest first — a warm-up, then harder.

>>> import datetime
>>> day = daily("classic", datetime.date(2026, 11, 23))
>>> len(day.tasks), day.tasks[0].edition
(5, 'classic')
>>> [round(s) for s in day.seconds] == sorted(round(s) for s in day.seconds)
True
>>> daily("classic", datetime.date(2026, 11, 23)) == day
True
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ubongo import editions
from ubongo.puzzlefile import Puzzle, to_json
from ubongo.puzzles.deck import Card, Deck, Side, Task
from ubongo.puzzles.generator import generate_deck

#: tasks in a day's set
TASKS = 5
#: cards generated to choose them from (enough tasks to spread over the difficulty range)
CARDS = 3
#: part of the seed: a new generator or choice gets a new version, so old days stay as they were
VERSION = "ubongo-daily/1"


@dataclass(frozen=True)
class Daily:
    """One edition's set for one day: the tasks and the seconds a median player needs for each."""

    edition: str
    date: datetime.date
    seed: int
    tasks: tuple[Puzzle, ...]
    seconds: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"date", "edition", "tasks", "seconds"}``: each task a puzzle file's JSON."""
        return {
            "date": self.date.isoformat(),
            "edition": self.edition,
            "tasks": [to_json(task) for task in self.tasks],
            "seconds": [round(s, 1) for s in self.seconds],
        }


def day_seed(edition_name: str, date: datetime.date) -> int:
    """The generator seed of an edition's day: the same on every machine.

    >>> new_year = datetime.date(2026, 1, 1)
    >>> day_seed("classic", new_year) == day_seed("classic", new_year)
    True
    >>> day_seed("classic", new_year) != day_seed("extreme", new_year)
    True
    """
    digest = hashlib.sha256(f"{VERSION}:{edition_name}:{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@lru_cache(maxsize=64)
def _chosen(
    edition_name: str, date: datetime.date
) -> tuple[int, Deck, tuple[tuple[Task, Side], ...]]:
    """The generated deck of the day and the tasks chosen from it (with their sides)."""
    if edition_name not in editions.names():
        raise ValueError(f"no edition {edition_name!r}")
    seed = day_seed(edition_name, date)
    deck = generate_deck(edition_name, seed, cards=CARDS)
    every = sorted(
        ((task, side) for card in deck.cards for side in card.sides for task in side.tasks),
        key=lambda ts: (ts[0].difficulty, ts[0].pieces),
    )
    # evenly spread over the range: the 10th, 30th, ... 90th percentile of difficulty
    chosen = tuple(every[int((i + 0.5) * len(every) / TASKS)] for i in range(TASKS))
    return seed, deck, chosen


@lru_cache(maxsize=64)
def daily(edition_name: str, date: datetime.date) -> Daily:
    """The set of ``edition_name`` for ``date`` (``ValueError`` for an unknown edition)."""
    seed, deck, chosen = _chosen(edition_name, date)
    title = editions.record(edition_name).title
    tasks = tuple(
        _puzzle(deck, side, task, f"{title} daily {date.isoformat()} #{n}")
        for n, (task, side) in enumerate(chosen, 1)
    )
    return Daily(edition_name, date, seed, tasks, tuple(t.difficulty for t, _ in chosen))


@lru_cache(maxsize=64)
def daily_deck(edition_name: str, date: datetime.date) -> Deck:
    """The day's tasks as a deck a solo game plays (``puzzles="daily"`` in the rules): card
    ``n`` is the ``n``-th task, easiest first, with the same area on every side the edition
    names and the task under every key, so whatever side and key the rules pick, card ``n``
    shows task ``n`` — the same for everyone.

    >>> day = datetime.date(2026, 11, 23)
    >>> deck = daily_deck("extreme", day)
    >>> first = deck.card(1)
    >>> deck.size, first.side("B").task("lower-left") == first.side("A").task("upper-left")
    (5, True)
    >>> [deck.card(n).side("A").area.size for n in range(1, 6)] == [
    ...     t.area.size for t in daily("extreme", day).tasks]
    True
    """
    seed, _, chosen = _chosen(edition_name, date)
    rec = editions.record(edition_name)
    keys = tuple(rec.deck.keys)
    cards = []
    for n, (task, side) in enumerate(chosen, 1):
        one = Task(keys, task.pieces, task.solutions, task.nodes, task.difficulty, task.features)
        sides = tuple(Side(name, side.area, (one,)) for name in rec.deck.side_names)
        cards.append(Card(n, sides))
    return Deck(edition_name, seed, tuple(cards), generator=f"{VERSION}:{date.isoformat()}")


def _puzzle(deck: Deck, side: Side, task: Task, name: str) -> Puzzle:
    return Puzzle(side.area, tuple(deck.task_pieces(task)), deck.edition, name)
