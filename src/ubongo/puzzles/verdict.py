"""The puzzle editor's verdict on a drawn puzzle (docs/editor.md): does it work, how many
solutions it has, one of them, how hard it is, and when it does not work, why in a player's
words.

Every figure is the solver's or the difficulty model's (:mod:`.difficulty`):

* **solutions**: exact covers counted up to :data:`COUNTED` (``more``: there are more);
* **seconds**: the time a median player needs (``expected_seconds`` over the task's features,
  the fewest flips taken over the first :data:`COUNTED` solutions), as the replay analysis
  computes it;
* **grade**: of an edition puzzle, the side of the edition's standard deck whose median time
  is nearest (by ratio), and the share of that deck's tasks a median player solves faster;
* **reason** of a puzzle with no solution: the pieces' cells do not add up to the area's
  (``sizes``), or some cells are reached by no way of putting any piece down
  (``unreachable``, which cells), or the pieces fit every cell one by one but not all together
  (``no_fit``).

>>> from ubongo.board import Area
>>> from ubongo.pieces import edition
>>> classic = edition("classic")
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> found = verdict(area, [classic.piece(p) for p in "DIG"], "classic")
>>> found.solutions, found.more, found.reason, found.grade
(1, False, None, 'A')
>>> found = verdict(area, [classic.piece(p) for p in "DIA"], "classic")
>>> found.solutions, found.reason, found.area_cells, found.piece_cells
(0, 'sizes', 13, 11)
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from ubongo.board import Area
from ubongo.geometry import Cell
from ubongo.pieces import Piece
from ubongo.solver import count, solutions, solve

from .deck import standard_deck
from .difficulty import expected_seconds, fewest_flips, measure, placements

#: solutions counted at most (more: ``more``); the replay analysis counts as many
COUNTED = 200

Reason = Literal["sizes", "unreachable", "no_fit"]


@dataclass(frozen=True)
class Verdict:
    """What the editor shows of a puzzle (the module's docs say how each figure is made)."""

    solutions: int
    more: bool
    solution: dict[str, frozenset[Cell]]
    area_cells: int
    piece_cells: int
    seconds: float | None = None
    grade: str | None = None
    faster_than: float | None = None
    reason: Reason | None = None
    unreachable: tuple[Cell, ...] = field(default=())


def verdict(area: Area, pieces: Sequence[Piece], edition: str | None) -> Verdict:
    """The verdict on covering ``area`` with ``pieces`` (each once); ``edition`` names the
    standard deck the grade is read from (None: a custom puzzle, no grade)."""
    area_cells = area.size
    piece_cells = sum(len(p.cells) for p in pieces)
    if area_cells != piece_cells:
        # no search: a player sees this by counting
        missed = unreachable(area, pieces)
        return Verdict(0, False, {}, area_cells, piece_cells, reason="sizes", unreachable=missed)
    found = count(area, pieces, limit=COUNTED + 1)
    if not found:
        cells = unreachable(area, pieces)
        reason: Reason = "unreachable" if cells else "no_fit"
        return Verdict(0, False, {}, area_cells, piece_cells, reason=reason, unreachable=cells)
    one = solve(area, pieces) or {}
    seconds = round(median_seconds(area, pieces, found), 1)
    grade, faster = grade_of(edition, seconds) if edition else (None, None)
    return Verdict(
        min(found, COUNTED),
        found > COUNTED,
        dict(one),
        area_cells,
        piece_cells,
        seconds=seconds,
        grade=grade,
        faster_than=faster,
    )


def median_seconds(area: Area, pieces: Sequence[Piece], found: int) -> float:
    """The difficulty model's time of a median player for a task with ``found`` solutions."""
    flips = 0
    if any(p.reflections for p in pieces):
        flips = fewest_flips(pieces, itertools.islice(solutions(area, pieces), COUNTED))
    features = measure(area, pieces, solutions=found, flips=flips)
    return expected_seconds(features, area.piece_lattice.name)


def unreachable(area: Area, pieces: Sequence[Piece]) -> tuple[Cell, ...]:
    """The area's cells that no placement of any piece covers, in the area's own coordinates
    (3D: a board square either of whose cubes no piece reaches), sorted."""
    reached: set[Cell] = set()
    for p in pieces:
        for cells in placements(area, p):
            reached.update(cells)
    missed = area.solid - reached
    if area.layers > 1:
        return tuple(sorted({c[:2] for c in missed}))
    return tuple(sorted(missed))


@cache
def _deck_seconds(edition: str) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Each side of the standard deck (in the deck's order) with its tasks' model times,
    sorted; nothing for an edition without a shipped deck."""
    try:
        deck = standard_deck(edition)
    except FileNotFoundError:
        return ()
    by_side: dict[str, list[float]] = {}
    for card in deck.cards:
        for side in card.sides:
            by_side.setdefault(side.name, []).extend(t.difficulty for t in side.tasks)
    return tuple((name, tuple(sorted(times))) for name, times in by_side.items())


def grade_of(edition: str, seconds: float) -> tuple[str | None, float | None]:
    """The side of ``edition``'s standard deck whose median time is nearest ``seconds`` (by
    ratio), and the share of the deck's tasks whose time is below ``seconds``.

    >>> grade_of("classic", 21.0)[0], grade_of("classic", 40.0)[0]
    ('A', 'B')
    >>> grade_of("classic", 1.0)[1], grade_of("classic", 1000.0)[1]
    (0.0, 1.0)
    """
    sides = _deck_seconds(edition)
    if not sides or seconds <= 0:
        return None, None

    def distance(times: tuple[float, ...]) -> float:
        return abs(math.log(seconds / times[len(times) // 2]))

    grade = min((s for s in sides if s[1]), key=lambda s: distance(s[1]))[0]
    every = sorted(t for _, times in sides for t in times)
    return grade, round(bisect.bisect_left(every, seconds) / len(every), 3)
