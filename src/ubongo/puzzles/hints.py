"""Hints: the next piece of a solution that the player's board can still reach.

A hint is what a friend looking over your shoulder would say. Leave every piece you have put
down where it is, and fill what is still empty with the pieces still in your hand: if that can
be done, the friend points at one of those pieces and shows where it goes. If it cannot, the
friend says which of your pieces has to move — as few as possible, so that the rest of your
work stays.

Which piece a hint shows: the largest one left (ties: the one whose cells come first in
coordinate order). Large pieces are the hard ones to fit late, and people place them first; a
hint that shows a one-cell corner filler helps nobody.

>>> from ubongo.board import Area
>>> from ubongo.pieces import edition
>>> classic = edition("classic")
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> pieces = [classic.piece(p) for p in "DIG"]
>>> first = hint(area, pieces, {})
>>> first.piece, sorted(first.cells)
('I', [(0, 1), (1, 0), (1, 1), (1, 2), (1, 3)])
>>> hint(area, pieces, {"I": first.cells})  # then the larger of the two left (both 4: D by place)
Hint(piece='D', cells=frozenset({(3, 1), (2, 0), (2, 1), (2, 2)}))
>>> hint(area, pieces, {"D": {(1, 1), (2, 0), (2, 1), (2, 2)}})  # I no longer fits beside it
Stuck(move=('D',))
>>> hint(area, pieces, {"I": {(1, 0), (2, 0), (3, 1), (4, 2), (4, 3)}})
Traceback (most recent call last):
...
ubongo.puzzles.hints.HintError: piece I cannot be turned to cover those cells
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ubongo.board import Area, Placement
from ubongo.geometry import CUBE, Cell
from ubongo.pieces import Piece
from ubongo.solver import solve

#: the most pieces a hint asks to move before it says to start again
MOST_MOVED = 3


class HintError(ValueError):
    """Placements a hint cannot start from: an unknown piece, a shape the piece does not have,
    a cell outside the area, two pieces on one cell. The message says which."""


@dataclass(frozen=True)
class Hint:
    """Put ``piece`` on ``cells``: it lies there in a solution that keeps every placed piece."""

    piece: str
    cells: frozenset[Cell]


@dataclass(frozen=True)
class Stuck:
    """The placed pieces cannot all stay: take away ``move`` (as few pieces as can be, or all
    of them when more than :data:`MOST_MOVED` would have to go) and the task can be finished
    again from the rest."""

    move: tuple[str, ...]


@dataclass(frozen=True)
class Solved:
    """Every piece is down and the area is covered: there is nothing to hint."""


def hint(
    area: Area, pieces: Sequence[Piece], placed: Mapping[str, Iterable[Cell]]
) -> Hint | Stuck | Solved:
    """The next piece to put down, or which pieces to move, given the pieces ``placed`` so far
    (piece id -> the cells it covers; 3D: cubes ``(x, y, z)``)."""
    by_id = {p.id: p for p in pieces}
    down = _checked(area, by_id, placed)
    found = _finish(area, pieces, down)
    if found is not None:
        if len(down) == len(pieces):
            return Solved()
        left = [p for p in pieces if p.id not in down]
        best = min(left, key=lambda p: (-p.size, min(found[p.id])))
        return Hint(best.id, found[best.id])
    if not down:
        raise HintError("this puzzle has no solution")
    # the fewest pieces to take away, in the order they were given; past MOST_MOVED, all of
    # them (a board that wrong is better started again, and the search grows as 2^pieces)
    ids = list(down)
    for k in range(1, min(MOST_MOVED, len(ids) - 1) + 1):
        for move in itertools.combinations(ids, k):
            kept = {pid: cells for pid, cells in down.items() if pid not in move}
            if _finish(area, pieces, kept) is not None:
                return Stuck(move)
    return Stuck(tuple(ids))


def _checked(
    area: Area, by_id: Mapping[str, Piece], placed: Mapping[str, Iterable[Cell]]
) -> dict[str, frozenset[Cell]]:
    """``placed`` as sets of cells, each one a real placement of its piece inside the area."""
    down: dict[str, frozenset[Cell]] = {}
    taken: dict[Cell, str] = {}
    for pid, raw in placed.items():
        piece = by_id.get(pid)
        if piece is None:
            raise HintError(f"piece {pid} is not one of this task's pieces")
        cells = frozenset(raw)
        try:
            Placement.covering(piece, cells)
        except ValueError as e:
            raise HintError(str(e)) from None
        outside = sorted(cells - area.solid)
        if outside:
            raise HintError(f"piece {pid} lies outside the area at {outside[0]}")
        for cell in sorted(cells):
            if cell in taken:
                raise HintError(f"pieces {taken[cell]} and {pid} both cover {cell}")
            taken[cell] = pid
        down[pid] = cells
    return down


def _finish(
    area: Area, pieces: Sequence[Piece], down: Mapping[str, frozenset[Cell]]
) -> dict[str, frozenset[Cell]] | None:
    """A solution that keeps ``down`` as it is, or None when there is none."""
    left = [p for p in pieces if p.id not in down]
    empty = area.solid.difference(*down.values())
    if not left:
        return dict(down) if not empty else None
    # what is still empty, as an area of its own (3D: a solid of cubes, no longer a prism)
    rest = Area(CUBE, empty) if area.layers > 1 else Area(area.lattice, empty)
    found = solve(rest, left)
    return None if found is None else {**down, **found}
