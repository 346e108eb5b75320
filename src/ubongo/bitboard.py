"""The solver's representation: a set of cells is the bits of an ``int``.

A cell is one bit of an integer, so a
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

This module is the solver's own (:mod:`ubongo.solver` is the public interface): the grid of an
area (:class:`Grid`, made by :func:`grid_of`) and where each piece fits in it (:class:`Fits`,
made by :func:`fits_of`); both are cached per area, the pieces' shapes per grid spacing.
It also chooses the core (:func:`set_core`): the loops of :class:`Fits` and of the solver's
searches run compiled (``ubongo._exact``) where it is built, this Python being the reference.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from functools import cache, cached_property, lru_cache
from operator import mul
from typing import Literal

from ubongo.geometry import TRIANGLE, Cell, Lattice
from ubongo.pieces import Piece

# --- which core: the compiled one (ubongo._exact, C) or this Python ---------------------------

Core = Literal["compiled", "python"]

try:
    from ubongo import _exact

    COMPILED = True
except ImportError:  # not built here (no C compiler when installed): the Python core
    COMPILED = False
    warnings.warn(
        "ubongo._exact, the solver's compiled core, is not built: the pure-Python core is "
        "used, several times slower (`pip install -e .` with a C compiler builds it)",
        RuntimeWarning,
        stacklevel=1,
    )

_core: Core = (
    "compiled" if COMPILED and os.environ.get("UBONGO_SOLVER_CORE") != "python" else "python"
)


def set_core(core: Core) -> Core:
    """Use the compiled core (where it is built) or the Python one from now on, for the
    solver's searches and for where pieces fit (:class:`Fits`), and return the core used
    before: for tests and benchmarks.  The default is the compiled core, or the Python one
    when the environment variable ``UBONGO_SOLVER_CORE`` is ``python``.  Both give the same
    answers, so what either has kept (the caches of grids and placements) serves the other.

    >>> before = set_core("python")
    >>> current_core()
    'python'
    >>> _ = set_core(before)
    """
    global _core
    before = _core
    _core = core if COMPILED else "python"
    return before


def current_core() -> Core:
    """The core in use: ``compiled`` or ``python``."""
    return _core


def compiled() -> bool:
    """Whether the compiled core is in use."""
    return _core == "compiled"


def _digits(lattice: Lattice, cell: Cell) -> tuple[int, ...]:
    """A cell's position as grid coordinates: a triangle's kind folds into its first coordinate
    (``2a + s``), so up and down triangles alternate along it; other cells are their own."""
    if lattice is TRIANGLE:
        return (2 * cell[0] + cell[2], cell[1])
    return cell


def _kind(lattice: Lattice, digits: Sequence[int]) -> int:
    """Cells a translation can carry onto each other have the same kind (a triangle's s)."""
    return digits[0] & 1 if lattice is TRIANGLE else 0


def spread(lattice: Lattice, cell_sets: Iterable[Iterable[Cell]]) -> int:
    """The largest extent of any of the cell sets along any grid coordinate."""
    largest = 1
    for cells in cell_sets:
        digits = [_digits(lattice, c) for c in cells]
        for axis in range(len(digits[0]) if digits else 0):
            values = [d[axis] for d in digits]
            largest = max(largest, max(values) - min(values) + 1)
    return largest


def _layout(
    lattice: Lattice, cells: Sequence[Cell], margin: int
) -> tuple[tuple[int, ...], list[int], list[int], int, int]:
    """The layout of a grid (:class:`Grid`): its strides, the coordinates it starts from,
    each cell's bit number, the area's mask and the mask of the upward triangles (else 0)."""
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
    if len(strides) == 2:
        (x0, y0), (sx, sy) = start, strides
        numbers = [(x - x0) * sx + (y - y0) * sy for x, y in digits]
    else:
        (x0, y0, z0), (sx, sy, sz) = start, strides
        numbers = [(x - x0) * sx + (y - y0) * sy + (z - z0) * sz for x, y, z in digits]
    area = sum(1 << b for b in numbers)
    ups = 0
    if lattice is TRIANGLE:
        ups = sum(1 << b for (x, _), b in zip(digits, numbers, strict=True) if not x & 1)
    return tuple(strides), start, numbers, area, ups


class Grid:
    """The bit layout of one area: ``bit[cell]`` is the cell's bit number.

    ``margin`` is the width of the empty border after each row (and layer); it must be at
    least the widest piece's extent less one (a piece's cells lie at most that far on either
    side of its first cell), and at least one, so that neighbours do not wrap round either.

    ``next_to(cells)`` gives the cells next to a set of cells; ``steps`` says the same as
    data: (cells of a kind, shift) pairs, the neighbours being the OR of each kind's cells
    shifted (left by a positive shift, right by a negative one).
    """

    def __init__(self, lattice: Lattice, cells: Iterable[Cell], margin: int) -> None:
        """Lay out ``cells`` (of ``lattice``), each grid coordinate ``margin`` wider than its
        extent."""
        self.lattice = lattice
        self.margin = margin
        self._cells = cells = tuple(cells)
        laid = None
        if _core == "compiled":  # the same layout, in C (unless wider than its masks)
            with suppress(OverflowError):
                laid = _exact.layout(cells, lattice is TRIANGLE, margin)
        strides, self.start, self._numbers, self.area, ups = laid or _layout(lattice, cells, margin)
        self.strides = strides
        # the cells of each kind (only the kinds there are)
        if lattice is TRIANGLE:
            self.kinds = {k: m for k, m in ((0, ups), (1, self.area ^ ups)) if m}
        else:
            self.kinds = {0: self.area}
        self._steps: tuple[tuple[int, int], ...] | None = None

    # (made when first asked: a count needs none of them, only the solutions and problems
    # built from cell sets do)
    @cached_property
    def cells(self) -> list[Cell]:
        """The area's cells, sorted."""
        return sorted(self._cells)

    @cached_property
    def bit(self) -> dict[Cell, int]:
        """Each cell's bit number."""
        return dict(zip(self._cells, self._numbers, strict=True))

    @cached_property
    def cell_at(self) -> dict[int, Cell]:
        """The cell of each bit number."""
        return dict(zip(self._numbers, self._cells, strict=True))

    # (made when first asked: the Python core's searches use next_to, the compiled core's
    # steps, and neither is needed until a search starts)
    @cached_property
    def _deltas(self) -> dict[int, set[int]]:
        """For each kind of cell there is, how far its neighbours' bits are from its own."""
        shifts = _neighbour_shifts(self.lattice, self.strides)
        return {k: d for k, d in shifts.items() if k in self.kinds}

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """:attr:`next_to` as data: (cells of a kind, shift) pairs (see the class)."""
        # (kept by hand, not a cached_property, whose first reading takes a lock: every
        # compiled count of a new area reads it once, and that cost a sixth of a small count)
        steps = self._steps
        if steps is None:
            kinds = self.kinds
            shifts = _sorted_shifts(self.lattice, self.strides)
            steps = tuple((kinds[k], d) for k, ds in shifts if k in kinds for d in ds)
            self._steps = steps
        return steps

    @cached_property
    def next_to(self) -> Callable[[int], int]:
        """A function giving the cells next to a set of cells (see :meth:`_neighbourhood`)."""
        return self._neighbourhood()

    def _neighbourhood(self) -> Callable[[int], int]:
        """A function giving the cells next to a set of cells, margin bits included.

        Each direction to a neighbour is one shift of the whole set.  On the square, hexagon
        and cube grids every cell has the same directions; a triangle's depend on its kind
        (up or down), so those shifts apply to that kind's cells only."""
        deltas = self._deltas
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

    def shape_of(self, mask: int) -> tuple[int, int]:
        """A placement's shape as :func:`shapes` gives it: (kind of its first cell, its mask
        moved to bit 0)."""
        low = mask & -mask
        if self.lattice is not TRIANGLE:
            return 0, mask // low
        return (0 if self.kinds.get(0, 0) & low else 1), mask // low

    def cells_of(self, mask: int) -> frozenset[Cell]:
        """The cells whose bits are set in ``mask`` (a placement or a solution's piece)."""
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


@lru_cache(maxsize=1024)
def _neighbour_shifts(lattice: Lattice, strides: tuple[int, ...]) -> dict[int, set[int]]:
    """For each kind of cell, how far its neighbours' bits are from its own (kept per grid
    spacing, which many areas share; not to be changed by the caller)."""
    return {
        kind: {sum(map(mul, step, strides)) for step in steps}
        for kind, steps in _neighbour_steps(lattice).items()
    }


@lru_cache(maxsize=1024)
def _sorted_shifts(
    lattice: Lattice, strides: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:func:`_neighbour_shifts` as (kind, its shifts in ascending order) pairs."""
    return tuple((k, tuple(sorted(ds))) for k, ds in _neighbour_shifts(lattice, strides).items())


@lru_cache(maxsize=1024)
def grid_of(lattice: Lattice, cells: frozenset[Cell], margin: int) -> Grid:
    """The grid of an area; cached, as one area is usually searched with many piece sets.

    >>> from ubongo.geometry import SQUARE
    >>> grid = grid_of(SQUARE, frozenset({(0, 0), (1, 0), (2, 0), (0, 1)}), 1)

    The short side (y, 2 cells) varies fastest; x has one bit of margin after each column, and
    is read from its narrower end (x = 2, one cell) backwards:

    >>> grid.strides
    (-3, 1)
    >>> sorted(grid.bit.items())
    [((0, 0), 6), ((0, 1), 7), ((1, 0), 3), ((2, 0), 0)]
    >>> sorted(grid.cells_of(grid.next_to(1 << grid.bit[0, 0]) & grid.area))  # in the area
    [(0, 1), (1, 0)]
    """
    return Grid(lattice, cells, margin)


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


def shapes(piece: Piece, strides: tuple[int, ...]) -> list[tuple[int, int]]:
    """Each orientation of ``piece`` (in the order of ``piece.orientations``) on a grid with
    these strides (:attr:`Grid.strides`): the kind of its first cell and its mask with the
    first cell at bit 0, as :meth:`Grid.shape_of` reads them from a placement."""
    return [(kind, shape) for kind, shape, _ in _shapes(piece, strides)]


class Fits:
    """Where one piece fits in one area: ``anchors[shape]`` is the set of bits ``k`` where the
    piece, in an orientation whose mask is ``shape`` when its first cell is bit 0, fits as
    ``shape << k``.

    The anchors of an orientation are found for all positions at once: those ``k`` where every
    cell ``k + offset`` of it is in the area, i.e. the AND of the area shifted right by each
    offset.  The placements starting at a cell are listed when the search first asks.
    """

    def __init__(self, anchors: dict[int, int]) -> None:
        """Fits from their anchors: shape (first cell at bit 0) -> the bits it may start at."""
        self.anchors = anchors
        self._at: dict[int, list[int]] = {}

    @classmethod
    def on(cls, piece: Piece, grid: Grid) -> Fits:
        """Every placement of ``piece`` (each of its orientations) inside ``grid``'s area."""
        area = grid.area
        if _core == "compiled" and area.bit_length() <= _exact.MAX_BITS:  # (the same loop)
            return cls(_exact.anchors(area, grid.kinds, _shapes(piece, grid.strides)))
        anchors: dict[int, int] = {}
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
        """Whether the piece fits anywhere at all (a task is hopeless if one does not)."""
        return bool(self.anchors)

    def starting_at(self, k: int) -> list[int]:
        """The placements whose first (lowest) bit is ``k``."""
        masks = self._at.get(k)
        if masks is None:
            masks = [shape << k for shape, at in self.anchors.items() if at >> k & 1]
            self._at[k] = masks
        return masks


@lru_cache(maxsize=16384)
def fits_of(piece: Piece, grid: Grid) -> Fits:
    """Where ``piece`` fits in ``grid``'s area; cached, as one area is tried with many piece
    sets."""
    return Fits.on(piece, grid)


@lru_cache(maxsize=4096)
def widest(piece: Piece) -> int:
    """The piece's largest extent along a grid coordinate, in any orientation: the margin a
    grid needs so that the piece pushed over an edge does not wrap round."""
    return spread(piece.lattice, piece.orientations)
