"""Exact cover: fill an area with a set of pieces, each used exactly once.

The search is the one a person does with real pieces, made systematic:

1. Number the cells of the area. A placement of a piece is then a bitmask of cells.
2. Take the first cell that is still empty.  Whatever covers it, that cell is the
   placement's first cell (all earlier cells are already full), so only placements that
   *start* there need to be tried.
3. Try each unused piece in each of its placements starting there that does not overlap,
   and go on from the next empty cell.  When every cell is full, that is a solution.

Placements are computed once per problem.  Before searching, the total size must match;
during the search a placement that leaves an empty pocket too small for every remaining
piece is skipped.

>>> from ubongo.pieces import edition
>>> from ubongo.board import Area
>>> classic = edition("classic")
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> task = [classic.piece(p) for p in "DIG"]
>>> count(area, task)
2
>>> sorted(solve(area, task))
['D', 'G', 'I']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ubongo.board import Area
from ubongo.geometry import Cell, Lattice
from ubongo.pieces import Piece

Solution = dict[str, frozenset[Cell]]


@dataclass(frozen=True)
class SearchStats:
    """How a full search went: the number of solutions and of placements tried (nodes)."""

    solutions: int
    nodes: int


class ExactCover:
    """An exact-cover problem: ``cells`` to fill; for each piece, the cell sets it may cover.

    Usually built with :meth:`for_area`; building it by hand allows restricting a piece's
    placements (e.g. to break the symmetry of a rectangle).
    """

    def __init__(
        self,
        cells: Sequence[Cell],
        candidates: Mapping[str, Sequence[frozenset[Cell]]],
        lattice: Lattice,
    ) -> None:
        self.cells = sorted(cells)
        self.lattice = lattice
        self.piece_ids = list(candidates)
        index = {c: i for i, c in enumerate(self.cells)}
        self.full = (1 << len(self.cells)) - 1
        sizes = [len(next(iter(cands), ())) for cands in candidates.values()]
        self.sizes = sizes
        self.feasible = sum(sizes) == len(self.cells) and all(candidates.values())
        # by_first[cell] = [(piece number, (mask, ...)), ...] for placements starting at cell
        first: list[dict[int, list[int]]] = [{} for _ in self.cells]
        for p, pid in enumerate(self.piece_ids):
            for cand in candidates[pid]:
                mask = 0
                for c in cand:
                    mask |= 1 << index[c]
                low = (mask & -mask).bit_length() - 1
                first[low].setdefault(p, []).append(mask)
        self.by_first: list[tuple[tuple[int, tuple[int, ...]], ...]] = [
            tuple((p, tuple(ms)) for p, ms in sorted(d.items())) for d in first
        ]
        # neighbour masks for the pocket check
        self.neighbours = [
            sum(1 << index[n] for n in lattice.neighbours(c) if n in index) for c in self.cells
        ]

    @classmethod
    def for_area(cls, area: Area, pieces: Sequence[Piece]) -> ExactCover:
        """All placements of each piece inside the area."""
        solid = area.solid
        lat = area.piece_lattice
        cands: dict[str, list[frozenset[Cell]]] = {}
        for piece in pieces:
            if piece.lattice is not lat:
                raise ValueError(f"piece {piece.id} is on the {piece.lattice.name} lattice, the area needs {lat.name}")
            if piece.id in cands:
                raise ValueError(f"piece {piece.id} is listed twice")
            found: list[frozenset[Cell]] = []
            d = lat.translation_dims
            for shape in piece.orientations:
                # put the shape's first cell on each cell of the same kind (a triangle's s)
                first = min(shape)
                for target in solid:
                    if target[d:] != first[d:]:
                        continue
                    offset = tuple(t - f for t, f in zip(target[:d], first[:d], strict=True))
                    placed = frozenset(lat.translate(c, offset) for c in shape)
                    if placed <= solid:
                        found.append(placed)
            cands[piece.id] = found
        return cls(sorted(solid), cands, lat)

    def _pocket_ok(self, covered: int, placed: int, smallest: int) -> bool:
        """False if placing ``placed`` sealed off an empty pocket smaller than ``smallest``."""
        nbrs = self.neighbours
        empty = self.full & ~covered
        # empty cells bordering the new piece
        border = 0
        m = placed
        while m:
            low = m & -m
            border |= nbrs[low.bit_length() - 1]
            m ^= low
        border &= empty
        seen = 0
        while border:
            seed = border & -border
            region = seed
            frontier = seed
            size = 1
            while frontier and size < smallest:
                grow = 0
                while frontier:
                    low = frontier & -frontier
                    grow |= nbrs[low.bit_length() - 1]
                    frontier ^= low
                grow &= empty & ~region
                region |= grow
                size = region.bit_count()
                frontier = grow
            if size < smallest:
                return False
            seen |= region
            border &= ~seen
        return True

    def _search(self, limit: int | None, collect: bool) -> Iterator[tuple[int, ...]]:
        """Yield solutions as tuples of masks (one per piece, in piece order)."""
        by_first = self.by_first
        sizes = self.sizes
        n = len(self.piece_ids)
        chosen = [0] * n
        self.nodes = 0
        if not self.feasible:
            return
        full = self.full
        pocket_ok = self._pocket_ok

        def smallest_left(used: int) -> int:
            return min((sizes[p] for p in range(n) if not used >> p & 1), default=0)

        def rec(covered: int, used: int) -> Iterator[tuple[int, ...]]:
            if covered == full:
                yield tuple(chosen)
                return
            cell = ((covered + 1) & ~covered).bit_length() - 1
            for p, masks in by_first[cell]:
                if used >> p & 1:
                    continue
                used2 = used | 1 << p
                smallest = smallest_left(used2)
                for mask in masks:
                    if covered & mask:
                        continue
                    self.nodes += 1
                    now = covered | mask
                    if smallest > 1 and not pocket_ok(now, mask, smallest):
                        continue
                    chosen[p] = mask
                    yield from rec(now, used2)

        yield from rec(0, 0)

    def _decode(self, masks: tuple[int, ...]) -> Solution:
        return {
            pid: frozenset(c for i, c in enumerate(self.cells) if mask >> i & 1)
            for pid, mask in zip(self.piece_ids, masks, strict=True)
        }

    def solutions(self) -> Iterator[Solution]:
        for masks in self._search(None, True):
            yield self._decode(masks)

    def stats(self, limit: int | None = None) -> SearchStats:
        found = 0
        for _ in self._search(limit, False):
            found += 1
            if limit is not None and found >= limit:
                break
        return SearchStats(found, self.nodes)


def solutions(area: Area, pieces: Sequence[Piece]) -> Iterator[Solution]:
    """Every way to cover ``area`` with ``pieces``, each a map piece id -> covered cells."""
    return ExactCover.for_area(area, pieces).solutions()


def solve(area: Area, pieces: Sequence[Piece]) -> Solution | None:
    """One solution, or None when there is none."""
    return next(solutions(area, pieces), None)


def count(area: Area, pieces: Sequence[Piece], limit: int | None = None) -> int:
    """The number of solutions (stopping at ``limit`` if given)."""
    return ExactCover.for_area(area, pieces).stats(limit).solutions


def search_stats(area: Area, pieces: Sequence[Piece], limit: int | None = None) -> SearchStats:
    """Solutions and search nodes of a complete search: the raw material of difficulty."""
    return ExactCover.for_area(area, pieces).stats(limit)
