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

What makes this fast in Python is the representation.  A cell is one bit of an integer, so a
set of cells is an ``int`` and "overlaps", "covers", "is full" are single ``&``, ``|`` and
``==`` operations.  The bits are laid out on a grid: a cell's bit number is its coordinates
read as the digits of a mixed-radix number, the shortest side of the area varying fastest
(so the first empty cell moves along the short side, which keeps the front of the search
short; in 3D that is usually the two layers).  Each digit has a margin almost as wide as the
widest piece, so that a piece pushed over an edge lands in the margin instead of wrapping round to
the other side.  On such a grid, moving a piece is a shift, ``shape << k``, and the
neighbours of a whole set of cells are a few shifts of it: walled-in cells are found for the
whole area at once.

Where a piece fits is found for every position at once: the anchors where a shape fits are
the ``k`` for which every cell ``k + offset`` of the shape is in the area, i.e. the AND of the
area shifted right by each offset.  The placements starting at a cell are listed when the
search first gets there (a search that fails early looks at few cells), and what is found
about an area is kept, as one area is usually tried with many sets of pieces.

Checking every sealed-off region against the sizes the remaining pieces can add up to
(subset sums) was tried and measured: it saves 5-10% of the nodes and costs more than that
in time, on Ubongo tasks and on the pentomino rectangle alike (see docs/performance.md).

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

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import mul

from ubongo.board import Area
from ubongo.geometry import CUBE, TRIANGLE, Cell, Lattice
from ubongo.pieces import Piece

Solution = dict[str, frozenset[Cell]]


@dataclass(frozen=True)
class SearchStats:
    """How a full search went: the number of solutions and of placements tried (nodes)."""

    solutions: int
    nodes: int


# --- where each cell's bit is ------------------------------------------------------------


def _digits(lattice: Lattice, cell: Cell) -> tuple[int, ...]:
    """A cell's position as grid coordinates: a triangle's kind folds into its first coordinate
    (``2a + s``), so up and down triangles alternate along it; other cells are their own."""
    if lattice is TRIANGLE:
        return (2 * cell[0] + cell[2], cell[1])
    return cell


def _kind(lattice: Lattice, digits: Sequence[int]) -> int:
    """Cells a translation can carry onto each other have the same kind (a triangle's s)."""
    return digits[0] & 1 if lattice is TRIANGLE else 0


def _spread(lattice: Lattice, cell_sets: Iterable[Iterable[Cell]]) -> int:
    """The largest extent of any of the cell sets along any grid coordinate."""
    widest = 1
    for cells in cell_sets:
        digits = [_digits(lattice, c) for c in cells]
        for axis in range(len(digits[0]) if digits else 0):
            values = [d[axis] for d in digits]
            widest = max(widest, max(values) - min(values) + 1)
    return widest


class _Grid:
    """The bit layout of one area: ``bit[cell]`` is the cell's bit number.

    ``margin`` is the width of the empty border after each row (and layer); it must be at
    least the widest piece's extent less one (a piece's cells lie at most that far on either
    side of its first cell), and at least one, so that neighbours do not wrap round either.
    """

    def __init__(self, lattice: Lattice, cells: Iterable[Cell], margin: int) -> None:
        self.lattice = lattice
        self.cells = cells = sorted(cells)
        # (a triangle's kind folds into its first coordinate: see _digits)
        digits = [(2 * a + s, b) for a, b, s in cells] if lattice is TRIANGLE else cells
        columns = list(zip(*digits, strict=True))  # each grid coordinate of all cells
        low = [min(column) for column in columns]
        extent = [max(column) - lo + 1 for column, lo in zip(columns, low, strict=True)]
        strides = [0] * len(extent)
        stride = 1
        order = sorted(range(len(extent)), key=lambda a: (extent[a], a))  # shortest side fastest
        for a in order:
            strides[a] = stride
            stride *= extent[a] + margin
        # Start from the narrower end of the other axes (fewer cells in the first slice): the
        # search tree is smaller when its first choices are constrained.  Reading an axis
        # backwards is a negative stride, counted from the axis's far end.
        start = list(low)
        for a in order[1:]:
            high = low[a] + extent[a] - 1
            if columns[a].count(high) < columns[a].count(low[a]):
                strides[a] = -strides[a]
                start[a] = high
        self.strides = tuple(strides)
        self.start = start
        if len(strides) == 2:
            (x0, y0), (sx, sy) = start, strides
            numbers = [(x - x0) * sx + (y - y0) * sy for x, y in digits]
        else:
            (x0, y0, z0), (sx, sy, sz) = start, strides
            numbers = [(x - x0) * sx + (y - y0) * sy + (z - z0) * sz for x, y, z in digits]
        self.bit = dict(zip(cells, numbers, strict=True))
        self.cell_at = dict(zip(numbers, cells, strict=True))
        self.area = sum(1 << b for b in numbers)
        # the cells of each kind (only the kinds there are)
        if lattice is TRIANGLE:
            ups = sum(1 << b for (x, _), b in zip(digits, numbers, strict=True) if not x & 1)
            self.kinds = {k: m for k, m in ((0, ups), (1, self.area ^ ups)) if m}
        else:
            self.kinds = {0: self.area}
        self.next_to = self._neighbourhood()

    def _neighbourhood(self) -> Callable[[int], int]:
        """A function giving the cells next to a set of cells, margin bits included.

        Each direction to a neighbour is one shift of the whole set.  On the square, hexagon
        and cube grids every cell has the same directions; a triangle's depend on its kind
        (up or down), so those shifts apply to that kind's cells only."""
        deltas = {
            k: d
            for k, d in _neighbour_shifts(self.lattice, self.strides).items()
            if k in self.kinds
        }
        common = set.intersection(*deltas.values())
        ways = sorted(d for d in common if d > 0)
        if len(deltas) == 1 and len(ways) == 2 and common == {*ways, *(-d for d in ways)}:
            a, b = ways  # squares
            return lambda m: m << a | m >> a | m << b | m >> b
        if len(deltas) == 1 and len(ways) == 3 and common == {*ways, *(-d for d in ways)}:
            a, b, c = ways  # hexagons, cubes
            return lambda m: m << a | m >> a | m << b | m >> b | m << c | m >> c
        if len(deltas) == 2 and len(common) == 2 and all(len(d) == 3 for d in deltas.values()):
            # triangles: two neighbours along a row, then one across a horizontal edge
            (side,) = (d for d in common if d > 0)
            (up_across,) = deltas[0] - common
            ups, downs = self.kinds[0], self.kinds[1]
            if up_across < 0:
                across = -up_across
                return lambda m: m << side | m >> side | (m & downs) << across | (m & ups) >> across
            across = up_across
            return lambda m: m << side | m >> side | (m & ups) << across | (m & downs) >> across
        steps = [(self.kinds[k], d) for k, ds in deltas.items() for d in ds]

        def next_to(cells: int) -> int:
            out = 0
            for kind_cells, d in steps:
                some = cells & kind_cells
                out |= some << d if d > 0 else some >> -d
            return out

        return next_to

    def cells_of(self, mask: int) -> frozenset[Cell]:
        cells = []
        while mask:
            low = mask & -mask
            cells.append(self.cell_at[low.bit_length() - 1])
            mask ^= low
        return frozenset(cells)


@cache
def _neighbour_steps(lattice: Lattice) -> dict[int, list[tuple[int, ...]]]:
    """For each kind of cell, the differences of grid coordinates to its neighbours."""
    steps = {}
    for ref in [(0, 0, 0), (0, 0, 1)] if lattice is TRIANGLE else [(0,) * lattice.translation_dims]:
        here = _digits(lattice, ref)
        steps[_kind(lattice, here)] = [
            tuple(n - h for n, h in zip(_digits(lattice, nb), here, strict=True))
            for nb in lattice.neighbours(ref)
        ]
    return steps


def _neighbour_shifts(lattice: Lattice, strides: tuple[int, ...]) -> dict[int, set[int]]:
    """For each kind of cell, how far its neighbours' bits are from its own."""
    return {
        kind: {sum(map(mul, step, strides)) for step in steps}
        for kind, steps in _neighbour_steps(lattice).items()
    }


@lru_cache(maxsize=1024)
def _grid(lattice: Lattice, cells: frozenset[Cell], margin: int) -> _Grid:
    """The grid of an area; cached, as one area is usually searched with many piece sets."""
    return _Grid(lattice, cells, margin)


# --- the pieces' shapes on a grid ---------------------------------------------------------


@lru_cache(maxsize=4096)
def _orientations(piece: Piece) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Each orientation of ``piece`` as the grid coordinates of its cells."""
    lat = piece.lattice
    return tuple(tuple(_digits(lat, c) for c in shape) for shape in piece.orientations)


@lru_cache(maxsize=16384)
def _shapes(piece: Piece, strides: tuple[int, ...]) -> list[tuple[int, int, list[int]]]:
    """Each orientation of ``piece`` on a grid with these strides: (kind of its first cell,
    its mask with the first cell at bit 0, the offsets of the other cells).

    Kept per piece and grid spacing, which many areas of similar size share."""
    shapes = []
    for cells in _orientations(piece):
        if len(strides) == 2:
            sx, sy = strides
            numbers = [x * sx + y * sy for x, y in cells]
        else:
            sx, sy, sz = strides
            numbers = [x * sx + y * sy + z * sz for x, y, z in cells]
        first = min(numbers)
        offsets = sorted(n - first for n in numbers)
        kind = _kind(piece.lattice, cells[numbers.index(first)])
        shapes.append((kind, sum(1 << o for o in offsets), offsets[1:]))
    return shapes


class _Fits:
    """Where one piece fits in one area: ``anchors[shape]`` is the set of bits ``k`` where the
    piece, in an orientation whose mask is ``shape`` when its first cell is bit 0, fits as
    ``shape << k``.

    The anchors of an orientation are found for all positions at once: those ``k`` where every
    cell ``k + offset`` of it is in the area, i.e. the AND of the area shifted right by each
    offset.  The placements starting at a cell are listed when the search first asks.
    """

    def __init__(self, anchors: dict[int, int]) -> None:
        self.anchors = anchors
        self._at: dict[int, list[int]] = {}

    @classmethod
    def on(cls, piece: Piece, grid: _Grid) -> _Fits:
        anchors: dict[int, int] = {}
        area = grid.area
        for kind, shape, offsets in _shapes(piece, grid.strides):
            # a translation keeps a cell's kind: anchor the first cell on cells of its kind
            fits = grid.kinds.get(kind, 0)
            for o in offsets:
                fits &= area >> o
            if fits:
                # (a turned triangle piece may have the same mask from a cell of each kind)
                anchors[shape] = anchors.get(shape, 0) | fits
        return cls(anchors)

    def __bool__(self) -> bool:
        return bool(self.anchors)

    def starting_at(self, k: int) -> list[int]:
        """The placements whose first (lowest) bit is ``k``."""
        masks = self._at.get(k)
        if masks is None:
            masks = [shape << k for shape, at in self.anchors.items() if at >> k & 1]
            self._at[k] = masks
        return masks


@lru_cache(maxsize=16384)
def _where_fits(piece: Piece, grid: _Grid) -> _Fits:
    """Cached: one area is tried with many piece sets."""
    return _Fits.on(piece, grid)


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
        margin = max(1, _spread(lattice, (c for cands in candidates.values() for c in cands)) - 1)
        grid = _grid(lattice, frozenset(cells), margin) if cells else None
        fits: list[_Fits] = []
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
            fits.append(_Fits(anchors))
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
        margin = max(3, max((_widest(p) for p in pieces), default=1) - 1)
        grid = _grid(lat, solid, margin) if solid else None
        fits = [_where_fits(p, grid) if grid else _Fits({}) for p in pieces]
        self = cls.__new__(cls)
        self._setup(lat, ids, [p.size for p in pieces], grid, fits)
        return self

    def _setup(
        self,
        lattice: Lattice,
        piece_ids: list[str],
        sizes: list[int],
        grid: _Grid | None,
        fits: list[_Fits],
    ) -> None:
        self.lattice = lattice
        self.piece_ids = piece_ids
        self.sizes = sizes
        self.nodes = 0
        self._grid = grid
        self.cells = list(grid.cells) if grid else []
        self.feasible = sum(sizes) == len(self.cells) and all(fits)
        self._fits = fits
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

    def _count(self, limit: int) -> int:
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

        def ways(covered: int, left: int, need: int) -> int:
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
        area = grid.area
        pieces = len(self.piece_ids)
        if pieces == 1:  # the only piece: it must be the whole area
            masks = self._fits[0].starting_at((area & -area).bit_length() - 1)
            self.nodes = len(masks)
            return int(area in masks)
        starting_at = self._starting_at
        groups_at = self._groups_at
        next_to = grid.next_to
        hole_fillers = self._hole_fillers
        test_holes = hole_fillers != -1
        anchors = {1 << p: fits.anchors for p, fits in enumerate(self._fits)}
        nodes = found = 0
        # cells covered -> {pieces left: ways to get there}
        states: dict[int, dict[int, int]] = {0: {(1 << pieces) - 1: 1}}
        for _ in range(pieces - 2):
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
            states = following
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
                holes = []
                for mask in masks:
                    if not covered & mask:
                        holes.append(empty ^ mask)
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
        self.nodes = nodes
        return found

    def _search(self) -> Iterator[list[int]]:
        """Yield each solution as the list of placement masks, by piece number.

        The same search as :meth:`_count`, remembering only the dead ends."""
        grid = self._grid
        if not self.feasible:
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

        yield from fill(0, (1 << pieces) - 1)

    def solutions(self) -> Iterator[Solution]:
        """Every solution, each a map piece id -> the cells it covers."""
        grid = self._grid
        for masks in self._search():
            assert grid is not None
            yield {pid: grid.cells_of(m) for pid, m in zip(self.piece_ids, masks, strict=True)}

    def stats(self, limit: int | None = None) -> SearchStats:
        """Count the solutions (stopping at ``limit``) and the placements tried on the way."""
        if limit is None:
            return SearchStats(self._count_all(), self.nodes)
        return SearchStats(min(self._count(limit), limit), self.nodes)


@lru_cache(maxsize=4096)
def _widest(piece: Piece) -> int:
    return _spread(piece.lattice, piece.orientations)


def clear_caches() -> None:
    """Forget the grids and placements kept for the areas seen so far (to time a search on a
    new area, or to free memory after a long run).  What is kept per piece stays."""
    for cached in (_grid, _where_fits):
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
