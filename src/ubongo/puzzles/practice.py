"""Practice tasks for playing without a server: a few tasks per edition and side, each with one
solution, chosen from the edition's shipped deck (made by the generator, so every task is
proven solvable and has its difficulty measured).

The web client keeps them in the browser (its service worker caches ``GET
/api/practice-bundle``) and checks a covered area with its own geometry; the solution is
there for "show me" and for the tutorial's last step. Of each side's tasks, sorted by
difficulty, :data:`PER_SIDE` are taken evenly spread (easiest first): one a label says is
easy, one medium, one hard.

>>> tasks = practice_tasks("classic")
>>> [(t.side, t.level) for t in tasks[:3]]
[('A', 'easy'), ('A', 'medium'), ('A', 'hard')]
>>> tasks[0].difficulty <= tasks[1].difficulty <= tasks[2].difficulty
True
>>> sorted(p.piece for p in tasks[0].solution) == sorted(tasks[0].pieces)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ubongo import editions
from ubongo.board import Placement, placements_of
from ubongo.puzzles.deck import Deck, Side, Task, standard_deck
from ubongo.solver import solve

#: tasks taken from each side (of a deck's side, sorted by difficulty): easy, medium, hard
PER_SIDE = 3
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class PracticeTask:
    """One task to practise on: where it is in the shipped deck, what to cover and one way to."""

    edition: str
    card: int
    side: str
    key: str
    level: str
    pieces: tuple[str, ...]
    area: tuple[tuple[int, ...], ...]
    layers: int
    difficulty: float
    solution: tuple[Placement, ...]

    def to_json(self) -> dict[str, Any]:
        """The task as ``GET /api/practice-bundle`` carries it (``bodies.PracticeTask``)."""
        return {
            "id": f"{self.edition}-{self.card}-{self.side}-{self.key}",
            "card": self.card,
            "side": self.side,
            "key": self.key,
            "level": self.level,
            "pieces": list(self.pieces),
            "area": [list(c) for c in self.area],
            "layers": self.layers,
            "difficulty": round(self.difficulty, 1),
            "solution": [
                {"piece": p.piece, "transform": p.transform, "offset": list(p.offset)}
                for p in self.solution
            ],
        }


@cache
def practice_tasks(edition_name: str) -> tuple[PracticeTask, ...]:
    """The practice tasks of an edition: per side (in the record's order) :data:`PER_SIDE`
    tasks, easiest first. Solving them takes up to a second or two (3D): cached."""
    if edition_name not in editions.names():
        raise ValueError(f"no edition {edition_name!r}")
    deck = standard_deck(edition_name)
    out: list[PracticeTask] = []
    for side_name in editions.record(edition_name).deck.side_names:
        every = sorted(
            (
                (task.difficulty, card.number, task.keys[0], side, task)
                for card, side in deck.sides(side_name)
                for task in side.tasks
            ),
            key=lambda t: (t[0], t[1], t[2]),
        )
        if not every:
            continue
        for i, level in enumerate(LEVELS[:PER_SIDE]):
            difficulty, number, key, side, task = every[int((i + 0.5) * len(every) / PER_SIDE)]
            out.append(
                PracticeTask(
                    edition=edition_name,
                    card=number,
                    side=side_name,
                    key=key,
                    level=level,
                    pieces=task.pieces,
                    area=tuple(sorted(side.area.cells)),
                    layers=side.area.layers,
                    difficulty=difficulty,
                    solution=_solution(deck, side, task),
                )
            )
    return tuple(out)


def _solution(deck: Deck, side: Side, task: Task) -> tuple[Placement, ...]:
    """One arrangement that covers the task, in the order of its pieces (the deck's tasks are
    all solvable: the generator proved it)."""
    pieces = deck.task_pieces(task)
    found = solve(side.area, pieces)
    if found is None:
        raise ValueError(f"a {deck.edition} deck task has no solution: {task.pieces}")
    by_id = {p.piece: p for p in placements_of({p.id: p for p in pieces}, found)}
    return tuple(by_id[pid] for pid in task.pieces)


@cache
def versus_cards(edition_name: str) -> dict[str, list[dict[str, Any]]]:
    """Every card side of an edition's standard deck by side name (the record's order), as
    ``GET /api/practice-bundle`` carries them for local versus (``bodies.VersusCard``): the
    area and each task's keys and pieces, no solutions (a versus board checks its own cover).

    >>> cards = versus_cards("classic")
    >>> sorted(cards), len(cards["A"]), [t["keys"] for t in cards["A"][0]["tasks"]][:2]
    (['A', 'B'], 36, [['1'], ['2']])
    """
    if edition_name not in editions.names():
        raise ValueError(f"no edition {edition_name!r}")
    deck = standard_deck(edition_name)
    return {
        side_name: [
            {
                "card": card.number,
                "area": [list(c) for c in sorted(side.area.cells)],
                "layers": side.area.layers,
                "tasks": [{"keys": list(t.keys), "pieces": list(t.pieces)} for t in side.tasks],
            }
            for card, side in deck.sides(side_name)
        ]
        for side_name in editions.record(edition_name).deck.side_names
    }
