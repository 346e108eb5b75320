"""Exact cover: fill an area with a set of pieces, each used exactly once.

The search is the one a person does with real pieces, made systematic:

1. Look at the first empty cell, reading the area in a fixed order.  Every cell before it is
   full, so whatever piece covers it has its own first cell there: only placements that
   *start* at that cell need to be tried.
2. Try each unused piece in each of its placements that start there and overlap nothing, and
   go on from the next empty cell.  When no cell is empty, that is a solution.
3. Give up early where it is cheap to see that nothing can follow: the pieces' sizes must
   add up to the area; on flat boards, a placement that walls in a single empty cell is
   hopeless (no piece is that small); when one piece is left, the hole must be exactly one
   of its placements, which is a single dictionary lookup (the hole's shape, moved to bit 0).
4. Remember what has been worked out.  The same state (cells covered, pieces left) is
   reached by different placements of the same pieces, so the number of ways to finish from
   it is computed once (when counting) or its being a dead end is (when listing solutions).
   Counting all solutions goes forward instead, one piece at a time for every state at once,
   each state carrying the number of ways it was reached: the same states and placements, no
   recursive call per state, and the states with the same cells covered (but different
   pieces left) find what fits at their first empty cell together.  On the 6x10 pentomino
   rectangle that made the count five times faster (7.9 s to 1.4-1.6 s; 3.45 million nodes,
   2.3 million states, only 50,000 different sets of covered cells).

What makes this fast in Python is the representation: a cell is one bit of an integer, so a
set of cells is an ``int`` and "overlaps", "covers", "is full" are single ``&``, ``|`` and
``==`` operations, and a piece is moved by a shift.  How the bits are laid out, and how the
placements of a piece are found for every position at once, is :mod:`ubongo.bitboard`.

Checking every sealed-off region against the sizes the remaining pieces can add up to
(subset sums) was tried and measured: it saves 5-10% of the nodes and costs more than that
in time, on Ubongo tasks and on the pentomino rectangle alike (see docs/performance.md).

The same searches are compiled (``ubongo._exact``, in C): built by ``pip install -e .``, it
is the core used, and this module's Python is the reference it is tested against and the
fallback, used where the compiled core is not built (with one warning), for an area over
256 bits on its grid or more than 32 pieces, or when chosen: :func:`set_core`, or the
environment variable ``UBONGO_SOLVER_CORE=python``.  Both cores try the same placements in
the same order, so counts, nodes and the order of the solutions are the same.

>>> from ubongo.pieces import edition
>>> from ubongo.board import Area
>>> classic = edition("classic")
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> task = [classic.piece(p) for p in "DIG"]
>>> count(area, task)
1
>>> sorted(solve(area, task))
['D', 'G', 'I']
>>> search_stats(area, task)
SearchStats(solutions=1, nodes=21)
>>> search_stats(area, task, limit=5)  # depth first, stopping at 5: here the same search
SearchStats(solutions=1, nodes=21)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass

from ubongo import bitboard
from ubongo.bitboard import COMPILED as COMPILED  # (the core's choice, made in bitboard)
from ubongo.bitboard import Core as Core
from ubongo.bitboard import Fits, Grid, fits_of, grid_of, spread, widest
from ubongo.bitboard import current_core as current_core
from ubongo.bitboard import set_core as set_core
from ubongo.board import Area
from ubongo.geometry import CUBE, Cell, Lattice
from ubongo.pieces import Piece

try:
    from ubongo import _exact
    from ubongo._exact import MAX_BITS as MAX_BITS  # (the widest area it takes, in bits)
    from ubongo._exact import MAX_PIECES as MAX_PIECES
except ImportError:  # (not built: bitboard says so, once)
    pass

Solution = dict[str, frozenset[Cell]]


@dataclass(frozen=True)
class SearchStats:
    """How a full search went: the number of solutions and of placements tried (nodes)."""

    solutions: int
    nodes: int


# --- the problem and its search -------------------------------------------------------------


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
        """The problem of covering ``cells`` of ``lattice``, each piece (by id) with one of its
        ``candidates``: the cell sets it may cover, all of one size.

        ValueError if a candidate covers a cell outside ``cells``.

        >>> from ubongo.geometry import SQUARE
        >>> domino = [frozenset({(0, 0), (1, 0)}), frozenset({(1, 0), (2, 0)})]
        >>> square = [frozenset({(2, 0)})]
        >>> problem = ExactCover([(0, 0), (1, 0), (2, 0)], {"D": domino, "o": square}, SQUARE)
        >>> problem.stats()
        SearchStats(solutions=1, nodes=2)
        """
        margin = max(1, spread(lattice, (c for cands in candidates.values() for c in cands)) - 1)
        grid = grid_of(lattice, frozenset(cells), margin) if cells else None
        fits: list[Fits] = []
        sizes = []
        for cands in candidates.values():
            sizes.append(len(next(iter(cands), ())))
            anchors: dict[int, int] = {}
            for cand in cands:
                if grid is None or not cand <= grid.bit.keys():
                    raise ValueError("a candidate covers a cell outside the cells to fill")
                mask = sum(1 << grid.bit[c] for c in cand)
                low = mask & -mask
                anchors[mask // low] = anchors.get(mask // low, 0) | low
            fits.append(Fits(anchors))
        self._setup(lattice, list(candidates), sizes, grid, fits)

    @classmethod
    def for_area(cls, area: Area, pieces: Sequence[Piece]) -> ExactCover:
        """All placements of each piece inside the area."""
        lat = area.piece_lattice
        ids: list[str] = []
        for piece in pieces:
            if piece.lattice is not lat:
                raise ValueError(
                    f"piece {piece.id} is on the {piece.lattice.name} lattice, "
                    f"the area needs {lat.name}"
                )
            if piece.id in ids:
                raise ValueError(f"piece {piece.id} is listed twice")
            ids.append(piece.id)
        solid = area.solid
        # (at least 3, so that one area gets one grid, whatever pieces are tried on it)
        margin = max(3, max(map(widest, pieces), default=1) - 1)
        grid = grid_of(lat, solid, margin) if solid else None
        fits = [fits_of(p, grid) if grid else Fits({}) for p in pieces]
        self = cls.__new__(cls)
        self._setup(lat, ids, [p.size for p in pieces], grid, fits)
        return self

    def _setup(
        self,
        lattice: Lattice,
        piece_ids: list[str],
        sizes: list[int],
        grid: Grid | None,
        fits: list[Fits],
    ) -> None:
        self.lattice = lattice
        self.piece_ids = piece_ids
        self.sizes = sizes
        self.nodes = 0
        self._grid = grid
        self._fits = fits
        self._cells = cells = grid.area.bit_count() if grid else 0
        #: the pieces that fit somewhere, a bit each (a set with another has no solution)
        fitting = 0
        for p, f in enumerate(fits):  # (every count on a new area starts here: kept lean)
            if f.anchors:
                fitting |= 1 << p
        self.fitting = fitting
        self.feasible = sum(sizes) == cells and fitting == (1 << len(fits)) - 1
        # _starting_at[k]: [(piece number, its bit, its placements starting at k), ...], or None
        # until the search first asks
        self._starting_at: list[list[tuple[int, int, list[int]]] | None] = [None] * (
            grid.area.bit_length() if grid else 0
        )
        # The pieces that can fill a hole of one cell: those of one cell (custom pieces may be
        # that small).  In 3D, all of them, which turns the test off: a cube has six
        # neighbours and is rarely walled in, so there the test costs more time than it saves
        # (measured: docs/performance.md).
        monominoes = sum(1 << p for p, size in enumerate(sizes) if size == 1)
        self._hole_fillers = -1 if lattice is CUBE else monominoes
        self._problem: _exact.Problem | None = None
        self._placements: list[int] | None = None  # each piece's (placement_count)

    def _compiled(self, whole: bool = True) -> _exact.Problem | None:
        """The problem for the compiled core, or None when the Python core searches: it is
        chosen, the compiled one is not built, or the problem is too wide for it (or has
        nothing to search: no cells, or, for a search with ``whole`` the set of pieces, not
        feasible)."""
        grid = self._grid
        if not bitboard.compiled() or grid is None or (whole and not self.feasible):
            return None
        if self._problem is None:
            if grid.area.bit_length() > _exact.MAX_BITS or len(self._fits) > _exact.MAX_PIECES:
                return None
            anchors = [fits.anchors for fits in self._fits]
            self._problem = _exact.Problem(grid.area, anchors, self._hole_fillers, grid.steps)
        return self._problem

    def _groups_at(self, k: int) -> list[tuple[int, int, list[int]]]:
        """The placements starting at bit ``k``, by piece: listed when first needed, as a
        search that fails early looks at few cells."""
        groups = []
        for p, fits in enumerate(self._fits):
            masks = fits.starting_at(k)
            if masks:
                groups.append((p, 1 << p, masks))
        self._starting_at[k] = groups
        return groups

    # The three searches below (_count, _place_one_more, _search) keep their loops in one
    # function each, over local variables, on purpose: a call per state or per placement costs
    # more than the work done there.  Hence their complexity (C901) is accepted, not split.

    def _count(self, limit: int) -> int:  # noqa: C901 - its inner search, inlined for speed
        """The number of solutions, or some number >= ``limit`` when there are that many.

        Counting needs no list of solutions, and the number of ways to finish from a state
        (cells covered, pieces left) is the same however the state was reached, so each is
        worked out once and remembered.  (Only exact numbers are remembered: a count cut
        short by the limit is not.)"""
        self.nodes = 0
        grid = self._grid
        if not self.feasible:
            return 0
        if grid is None:  # nothing to fill, and no pieces to fill it with
            return 1
        starting_at = self._starting_at
        area = grid.area
        next_to = grid.next_to
        hole_fillers = self._hole_fillers
        fits = self._fits
        groups_at = self._groups_at
        pieces = len(self.piece_ids)
        above = area.bit_length()
        known: dict[int, int] = {}  # (cells covered | pieces left << above) -> ways to finish
        nodes = 0

        def ways(covered: int, left: int, need: int) -> int:  # noqa: C901 - the hot path
            nonlocal nodes
            empty = area & ~covered
            first = (empty & -empty).bit_length() - 1
            total = 0
            groups = starting_at[first]
            if groups is None:
                groups = groups_at(first)
            for _, bit, masks in groups:
                if not left & bit:
                    continue
                rest = left ^ bit
                if not rest:  # the only piece: it must be the whole area
                    total += empty in masks
                    nodes += len(masks)
                    continue
                if not rest & (rest - 1):  # one piece after this: it must fit the hole exactly
                    last = fits[rest.bit_length() - 1].anchors
                    for mask in masks:
                        if not covered & mask:
                            nodes += 1
                            hole = empty ^ mask
                            low = hole & -hole
                            # the hole's shape, moved to bit 0, is the piece's at anchor low?
                            if last.get(hole // low, 0) & low:
                                nodes += 1  # the last piece, placed
                                total += 1
                    if total >= need:
                        return total
                    continue
                holes_fatal = not rest & hole_fillers
                tag = rest << above  # the pieces left, as bits above the cells
                for mask in masks:
                    if covered & mask:
                        continue
                    nodes += 1
                    after = covered | mask
                    n = known.get(after | tag)
                    if n is None:
                        # an empty cell next to the new piece, with no empty neighbour: no
                        # piece fits there (all neighbours of all empty cells in one go)
                        hole = empty ^ mask
                        if holes_fatal and next_to(mask) & hole & ~next_to(hole):
                            n = 0
                        else:
                            n = ways(after, rest, need - total)
                            if total + n >= need:
                                return total + n
                        known[after | tag] = n
                    total += n
                    if total >= need:
                        return total
            return total

        try:
            return ways(0, (1 << pieces) - 1, limit)
        finally:
            self.nodes = nodes

    def _count_all(self) -> int:
        """The number of solutions: the same search as :meth:`_count` without a limit, run
        forward one piece at a time instead of depth first.

        After placing ``k`` pieces, each state (cells covered, pieces left) is kept with the
        number of ways it was reached; placing one more piece in every state gives those after
        ``k + 1``, and the placements that complete the area add up to the count.  That is
        what remembering the ways to finish from each state does, with no recursive call per
        state, and it allows more sharing: the states are grouped by the cells covered, and
        the placements at their first empty cell that overlap nothing (and whether each walls
        in a cell) are found once for the group, whichever pieces each state has left.  On
        the 6x10 rectangle 2.3 million states share 50,000 sets of covered cells.  The states
        tried and the placements counted as nodes are the same as in :meth:`_count`."""
        self.nodes = 0
        grid = self._grid
        if not self.feasible:
            return 0
        if grid is None:  # nothing to fill, and no pieces to fill it with
            return 1
        return self._count_forward(grid, (1 << len(self.piece_ids)) - 1)

    def _count_forward(self, grid: Grid, left: int) -> int:
        """:meth:`_count_all` of a feasible problem on ``grid`` with the pieces ``left`` (a bit
        each) to place."""
        area = grid.area
        pieces = left.bit_count()
        if pieces == 1:  # the only piece: it must be the whole area
            only = self._fits[left.bit_length() - 1]
            masks = only.starting_at((area & -area).bit_length() - 1)
            self.nodes = len(masks)
            return int(area in masks)
        # cells covered -> {pieces left: ways to get there}
        states: dict[int, dict[int, int]] = {0: {left: 1}}
        nodes = 0
        for _ in range(pieces - 2):
            states, tried = self._place_one_more(grid, states)
            nodes += tried
        found, tried = self._place_last_two(grid, states)
        self.nodes = nodes + tried
        return found

    def _place_one_more(  # noqa: C901 - the counting's inner loop, inlined for speed
        self, grid: Grid, states: dict[int, dict[int, int]]
    ) -> tuple[dict[int, dict[int, int]], int]:
        """One step of :meth:`_count_all`: the states after placing one more piece in each of
        ``states``, and the number of placements tried (nodes)."""
        area = grid.area
        next_to = grid.next_to
        starting_at = self._starting_at
        groups_at = self._groups_at
        hole_fillers = self._hole_fillers
        test_holes = hole_fillers != -1
        nodes = 0
        following: dict[int, dict[int, int]] = {}
        get = following.get
        for covered, lefts in states.items():
            empty = area ^ covered
            first = (empty & -empty).bit_length() - 1
            groups = starting_at[first]
            if groups is None:
                groups = groups_at(first)
            alone = len(lefts) == 1
            any_left = 0
            for left in lefts:
                any_left |= left
            for _, bit, masks in groups:
                if not any_left & bit:
                    continue
                if alone:  # (most groups on Ubongo tasks): no list of what fits first
                    rest = any_left ^ bit
                    fatal = test_holes and not rest & hole_fillers
                    ways = lefts[any_left]
                    for mask in masks:
                        if covered & mask:
                            continue
                        nodes += 1
                        if fatal:
                            hole = empty ^ mask
                            if next_to(mask) & hole & ~next_to(hole):
                                continue
                        after = covered | mask
                        reached = get(after)
                        if reached is None:
                            following[after] = {rest: ways}
                        else:
                            reached[rest] = reached.get(rest, 0) + ways
                    continue
                fitting = []  # [(cells covered after, walls in a cell?)]
                for mask in masks:
                    if not covered & mask:
                        hole = empty ^ mask
                        walls_in = test_holes and next_to(mask) & hole & ~next_to(hole)
                        fitting.append((covered | mask, bool(walls_in)))
                if not fitting:
                    continue
                for left, ways in lefts.items():
                    if not left & bit:
                        continue
                    nodes += len(fitting)
                    rest = left ^ bit
                    fatal = not rest & hole_fillers
                    for after, walls_in in fitting:
                        if walls_in and fatal:
                            continue
                        reached = get(after)
                        if reached is None:
                            following[after] = {rest: ways}
                        else:
                            reached[rest] = reached.get(rest, 0) + ways
        return following, nodes

    def _place_last_two(self, grid: Grid, states: dict[int, dict[int, int]]) -> tuple[int, int]:
        """The last step of :meth:`_count_all`, with two pieces left in each state: the ways
        to complete the area, and the number of placements tried (nodes)."""
        area = grid.area
        starting_at = self._starting_at
        groups_at = self._groups_at
        anchors = {1 << p: fits.anchors for p, fits in enumerate(self._fits)}
        nodes = found = 0
        # two pieces left: the second must fit the hole the first leaves exactly
        for covered, lefts in states.items():
            empty = area ^ covered
            first = (empty & -empty).bit_length() - 1
            groups = starting_at[first]
            if groups is None:
                groups = groups_at(first)
            any_left = 0
            for left in lefts:
                any_left |= left
            for _, bit, masks in groups:
                if not any_left & bit:
                    continue
                holes = [empty ^ mask for mask in masks if not covered & mask]
                if not holes:
                    continue
                for left, ways in lefts.items():
                    if not left & bit:
                        continue
                    nodes += len(holes)
                    last = anchors[left ^ bit]
                    for hole in holes:
                        low = hole & -hole
                        # the hole's shape, moved to bit 0, is the piece's at anchor low?
                        if last.get(hole // low, 0) & low:
                            nodes += 1  # the last piece, placed
                            found += ways
        return found, nodes

    def _search(self, only: int | None = None) -> Iterator[list[int]]:  # noqa: C901 - inlined
        """Yield each solution as the list of placement masks, by piece number.

        The same search as :meth:`_count`, remembering only the dead ends.  ``only``: the
        pieces to place (a bit each) of a feasible problem of some of them (:meth:`masks_of`);
        the others' masks stay 0."""
        grid = self._grid
        if only is None and not self.feasible:
            return
        if grid is None:
            yield []
            return
        starting_at = self._starting_at
        groups_at = self._groups_at
        area = grid.area
        next_to = grid.next_to
        hole_fillers = self._hole_fillers
        pieces = len(self.piece_ids)
        chosen = [0] * pieces
        dead: set[int] = set()  # states (cells covered, pieces left) with no way to finish
        found = 0

        def fill(covered: int, left: int) -> Iterator[list[int]]:
            nonlocal found
            if covered == area:
                found += 1
                yield chosen
                return
            empty = area & ~covered
            first = (empty & -empty).bit_length() - 1
            groups = starting_at[first]
            if groups is None:
                groups = groups_at(first)
            for p, bit, masks in groups:
                if not left & bit:
                    continue
                rest = left ^ bit
                holes_fatal = rest and not rest & hole_fillers
                for mask in masks:
                    if covered & mask:
                        continue
                    state = (covered | mask) << pieces | rest
                    if state in dead:
                        continue
                    hole = empty ^ mask
                    if holes_fatal and next_to(mask) & hole & ~next_to(hole):
                        dead.add(state)
                        continue
                    chosen[p] = mask
                    before = found
                    yield from fill(covered | mask, rest)
                    if found == before:
                        dead.add(state)

        yield from fill(0, (1 << pieces) - 1 if only is None else only)

    @property
    def grid(self) -> Grid | None:
        """The bit layout of the cells to fill (None when there are none)."""
        return self._grid

    def masks(self) -> Iterator[tuple[int, ...]]:
        """Every solution as the cells of each piece, a mask on :attr:`grid` by piece number:
        what :meth:`solutions` says without making the cells (the features of a task that
        only need the pieces' shapes read them from here)."""
        compiled = self._compiled()
        if compiled is not None:
            return compiled.solutions()
        return (tuple(masks) for masks in self._search())  # (_search reuses its list)

    def solutions(self) -> Iterator[Solution]:
        """Every solution, each a map piece id -> the cells it covers."""
        grid = self._grid
        for masks in self.masks():
            assert grid is not None
            yield {pid: grid.cells_of(m) for pid, m in zip(self.piece_ids, masks, strict=True)}

    def stats(self, limit: int | None = None) -> SearchStats:
        """Count the solutions (stopping at ``limit``) and the placements tried on the way."""
        compiled = self._compiled()
        if compiled is not None:
            try:
                found, self.nodes = compiled.count_all() if limit is None else compiled.count(limit)
            except OverflowError:  # a count past 2**64: Python's ints have no such limit
                pass
            else:
                return SearchStats(found if limit is None else min(found, limit), self.nodes)
        if limit is None:
            return SearchStats(self._count_all(), self.nodes)
        return SearchStats(min(self._count(limit), limit), self.nodes)

    def masks_of(self, chosen: Sequence[int]) -> Iterator[tuple[int, ...]]:
        """What :meth:`masks` says of the problem made with only the pieces numbered
        ``chosen`` (as :meth:`count_of`): each solution's masks of those pieces, in the order
        of their numbers, the solutions in the order that problem lists them when its pieces
        are numbered in the same order."""
        left = self._chosen(chosen)
        if left is None:
            return iter(())
        compiled = self._compiled(whole=False)
        if compiled is not None:
            return compiled.solutions(left)
        numbers = sorted(chosen)
        return (tuple(masks[p] for p in numbers) for masks in self._search(left))

    def _chosen(self, chosen: Sequence[int]) -> int | None:
        """The pieces numbered ``chosen`` as a bit each, or None when the problem made with
        them alone is not feasible (their sizes are not the area's, or one fits nowhere)."""
        left = size = 0
        sizes = self.sizes
        for p in chosen:  # (once per set the card maker tries: kept lean)
            bit = 1 << p
            if left & bit:
                raise ValueError(f"piece number {p} is chosen twice")
            left |= bit
            size += sizes[p]
        if size != self._cells or left & ~self.fitting:
            return None
        return left

    def count_of(self, chosen: Sequence[int]) -> SearchStats:
        """What :meth:`stats` says of the problem made with only the pieces numbered
        ``chosen``, counted as a search in which the others are never placed.

        One problem made for every piece an area may get then serves every set of them tried
        on it (the card maker tries dozens per area): the placements are found, and the
        compiled core's tables made, once.  The counts and node counts are the smaller
        problem's: the search places the same pieces at the same cells (the grid's cells are
        in the same order whatever its margin), and the count forward adds up the same
        placements whatever the pieces' numbers (tests/test_exact_core.py).

        >>> from ubongo.pieces import edition
        >>> from ubongo.board import Area
        >>> classic = edition("classic")
        >>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
        >>> every = ExactCover.for_area(area, classic.pieces)
        >>> every.count_of([classic.pieces.index(classic.piece(p)) for p in "DIG"])
        SearchStats(solutions=1, nodes=21)
        """
        left = self._chosen(chosen)
        if left is None:
            return SearchStats(0, 0)  # (not feasible: no search, as in the smaller problem)
        grid = self._grid
        if grid is None:  # nothing to fill, and no pieces to fill it with
            return SearchStats(1, 0)
        compiled = self._compiled(whole=False)
        if compiled is not None:
            with suppress(OverflowError):  # (a count past 2**64: Python's ints have no limit)
                return SearchStats(*compiled.count_all(left))
        self.nodes = 0
        found = self._count_forward(grid, left)
        return SearchStats(found, self.nodes)

    def placement_count(self, piece: int) -> int:
        """How many placements the piece numbered ``piece`` has: each of its orientations at
        each position where it fits (a difficulty feature, and the card maker's first check)."""
        if self._placements is None:  # (all of them, once: the card maker asks again and again)
            self._placements = [
                sum(at.bit_count() for at in fits.anchors.values()) for fits in self._fits
            ]
        return self._placements[piece]


def clear_caches() -> None:
    """Forget the grids and placements kept for the areas seen so far (to time a search on a
    new area, or to free memory after a long run).  What is kept per piece stays."""
    for cached in (grid_of, fits_of):
        cached.cache_clear()


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
