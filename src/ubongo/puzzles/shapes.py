"""Shapes of cells on a flat lattice, fast: the card maker's questions about the areas it draws.

The card maker asks these of every area it draws (is its shape new? has it a hole?) and of
every step of growing one (where does the next piece touch the others most?).
:mod:`ubongo.geometry` answers the same questions on any lattice, one cell at a time, through
the transforms of cell centres; here the answers are the same, made faster two ways:

* Each turn or flip of a flat lattice is written once as a map of cells (:func:`cell_maps`):
  linear on the two translation coordinates, plus an offset and a new kind per kind of cell (a
  triangle's up or down).  That is exact because a translation by lattice steps turns into a
  translation by lattice steps.
* A box of cells is laid out as the bits of an integer (:class:`Box`): a set of cells is one
  ``int``, its neighbours a few shifts, a flood fill a few dozen operations, and where a
  piece fits an AND per cell of it, for every position at once, as on the solver's grid
  (:mod:`ubongo.bitboard`).

``tests/test_card_maker_shapes.py`` checks each answer against geometry's.

>>> from ubongo.geometry import HEXAGON
>>> canonical(HEXAGON, [(0, 0), (1, 0), (0, 1)]) == HEXAGON.canonical([(0, 0), (1, 0), (0, 1)])
True
>>> hole_free(SQUARE, frozenset({(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2)}))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache, lru_cache

from ubongo.bitboard import compiled
from ubongo.board import Area
from ubongo.geometry import SQUARE, TRIANGLE, Cell, Lattice

with suppress(ImportError):  # (not built: bitboard says so, once, and compiled() is False)
    from ubongo import _exact

Kind = tuple[int, ...]
#: a transform as a map of cells: (x, y, *kind) -> (a x + b y + ox, c x + d y + oy, *new kind),
#: with ``offsets[kind] = (ox, oy, new kind)``
CellMap = tuple[int, int, int, int, dict[Kind, tuple[int, int, Kind]]]


@cache
def kinds(lat: Lattice) -> list[Kind]:
    """The kinds of cells of a lattice beyond their translation (triangles: up and down), in
    order (not to be changed by the caller: kept per lattice).

    >>> from ubongo.geometry import TRIANGLE
    >>> kinds(SQUARE), kinds(TRIANGLE)
    ([()], [(0,), (1,)])
    """
    d = lat.translation_dims
    origin: Cell = (0,) * d + ((0,) if lat is TRIANGLE else ())
    return sorted({origin[d:]} | {n[d:] for n in lat.neighbours(origin)})


@cache
def _kind_numbers(lat: Lattice) -> dict[Kind, int]:
    """Each kind of cell of a lattice by its place in :func:`kinds`."""
    return {kind: n for n, kind in enumerate(kinds(lat))}


@cache
def cell_maps(lat: Lattice) -> tuple[CellMap, ...]:
    """Each transform of a flat lattice (by its index) as a map of cells (:data:`CellMap`),
    worked out from :meth:`Lattice.apply` on a cell of each kind and its two neighbours by
    one translation step."""
    assert lat.translation_dims == 2, "a flat lattice"
    maps = []
    for t in range(len(lat.transforms)):
        offsets = {}
        for kind in kinds(lat):
            ox, oy, *new = lat.apply(t, (0, 0, *kind))
            offsets[kind] = (ox, oy, tuple(new))
        origin = (0, 0, *kinds(lat)[0])
        base = lat.apply(t, origin)
        ex = lat.apply(t, lat.translate(origin, (1, 0)))
        ey = lat.apply(t, lat.translate(origin, (0, 1)))
        a, c = ex[0] - base[0], ex[1] - base[1]
        b, d = ey[0] - base[0], ey[1] - base[1]
        maps.append((a, b, c, d, offsets))
    return tuple(maps)


def _moved(lat: Lattice, cells: Sequence[Cell], t: int) -> list[Cell]:
    """``cells`` under transform ``t``, not normalized."""
    a, b, c, d, offsets = cell_maps(lat)[t]
    if len(offsets) == 1:  # one kind: its offset is the same for every cell, so left out
        return [(a * x + b * y, c * x + d * y) for x, y in cells]
    # (triangles: the kind is the cell's third coordinate, 0 or 1)
    up, down = offsets[(0,)], offsets[(1,)]
    moved = []
    for x, y, k in cells:
        ox, oy, new = down if k else up
        moved.append((a * x + b * y + ox, c * x + d * y + oy, *new))
    return moved


def _normalized(cells: list[Cell]) -> list[Cell]:
    """``cells`` moved so that their smallest translation coordinates are 0 (flat lattices)."""
    lx = min(c[0] for c in cells)
    ly = min(c[1] for c in cells)
    if len(cells[0]) == 2:
        return [(x - lx, y - ly) for x, y in cells]
    return [(x - lx, y - ly, k) for x, y, k in cells]


def normalize(cells: Iterable[Cell]) -> frozenset[Cell]:
    """``lat.normalize(cells)`` on a flat lattice: moved so that their smallest translation
    coordinates are 0.

    >>> sorted(normalize([(3, 5, 1), (4, 4, 0)]))
    [(0, 1, 1), (1, 0, 0)]
    """
    cells = list(cells)
    return frozenset(_normalized(cells)) if cells else frozenset()


def orient(lat: Lattice, cells: Iterable[Cell], t: int) -> frozenset[Cell]:
    """``lat.orient(cells, t)``: turned (or flipped) by transform ``t``, and normalized."""
    cells = list(cells)
    if lat.translation_dims != 2:
        return lat.orient(cells, t)
    return frozenset(_normalized(_moved(lat, cells, t))) if cells else frozenset()


def canonical(
    lat: Lattice, cells: Iterable[Cell], transforms: Iterable[int] | None = None
) -> tuple[Cell, ...]:
    """``lat.canonical(cells, transforms)``: the least of the sorted, normalized shapes under
    the transforms (default: all); two shapes are congruent exactly when these are equal."""
    cells = list(cells)
    if lat.translation_dims != 2:
        return lat.canonical(cells, transforms)
    indices = range(len(lat.transforms)) if transforms is None else transforms
    return min(tuple(sorted(_normalized(_moved(lat, cells, t)))) for t in indices)


def shape_key(area: Area) -> tuple[tuple[Cell, ...], ...]:
    """An area up to rotation, reflection and where its regions lie relative to each other."""
    return tuple(sorted(canonical(area.lattice, r) for r in area.regions))


class Congruent:
    """A set of areas up to rotation, reflection and where their regions lie (as
    :func:`shape_key` tells them apart), where most areas are found new without their key.

    An area's fingerprint (:func:`_fingerprint`: each region's size, and each cell's number
    of neighbours in it with their own numbers added up) is the same for every turn or flip
    of it, and cheap; an area whose fingerprint no area in the set has is new.  Only when one
    has (one area in twenty or fewer of those the card maker draws) are the keys made and
    compared, each kept once made.  The card maker asks whether an area is in the set, then
    adds it: the fingerprint of the last area asked about is kept for that.

    >>> seen = Congruent()
    >>> seen.add(Area(SQUARE, frozenset({(0, 0), (1, 0), (1, 1)})))
    >>> Area(SQUARE, frozenset({(5, 5), (5, 6), (6, 5)})) in seen  # the same L, turned
    True
    >>> Area(SQUARE, frozenset({(0, 0), (1, 0), (2, 0)})) in seen
    False
    """

    def __init__(self) -> None:
        """An empty set."""
        # fingerprint -> the areas with it, each with its key once made
        self._areas: dict[tuple[object, ...], list[_Kept]] = {}
        self._last: tuple[Area, tuple[object, ...]] | None = None

    def _print_of(self, area: Area) -> tuple[object, ...]:
        if self._last is None or self._last[0] is not area:
            self._last = (area, _fingerprint(area))
        return self._last[1]

    def __contains__(self, area: object) -> bool:
        """Whether an area congruent to ``area`` is in the set."""
        assert isinstance(area, Area)
        alike = self._areas.get(self._print_of(area))
        if not alike:
            return False
        key = shape_key(area)
        for kept in alike:
            if kept.key is None:
                kept.key = shape_key(kept.area)
            if kept.key == key:
                return True
        return False

    def add(self, area: Area) -> None:
        """Put ``area`` in the set."""
        self._areas.setdefault(self._print_of(area), []).append(_Kept(area))


@dataclass
class _Kept:
    """An area of a :class:`Congruent` set, and its key once made."""

    area: Area
    key: tuple[tuple[Cell, ...], ...] | None = None


def _fingerprint(area: Area) -> tuple[object, ...]:
    """Each region's size and its cells' codes in sorted order, a cell's code being its
    number of neighbours in the region and theirs added up (``64 * own + theirs``: each is at
    most six, their sum at most 36): the same for the area turned or flipped, as a turn or
    flip keeps which cells are neighbours.  The neighbours' numbers tell apart most areas
    whose own numbers alone are alike (Trigo's small regions of triangles, with at most three
    neighbours a cell, were alike one area in five)."""
    neighbours = area.lattice.neighbours
    prints = []
    for region in area.regions:
        inside = {c: [n for n in neighbours(c) if n in region] for c in region}
        own = {c: len(around) for c, around in inside.items()}
        codes = sorted(own[c] * 64 + sum(own[n] for n in around) for c, around in inside.items())
        prints.append((len(region), tuple(codes)))
    return tuple(sorted(prints))


@cache
def polyominoes(n: int) -> tuple[tuple[Cell, ...], ...]:
    """Every hole-free polyomino of ``n`` cells up to rotation and reflection, in sorted order,
    each its canonical form.

    >>> len(polyominoes(4)), len(polyominoes(5))
    (5, 12)
    """
    level: set[tuple[Cell, ...]] = {((0, 0),)}
    for _ in range(n - 1):
        bigger: set[tuple[Cell, ...]] = set()
        for shape in level:
            cells = set(shape)
            for c in shape:
                for nb in SQUARE.neighbours(c):
                    if nb not in cells:
                        bigger.add(canonical(SQUARE, cells | {nb}))
        level = bigger
    return tuple(sorted(s for s in level if hole_free(SQUARE, frozenset(s))))


# --- a box of cells as bits -----------------------------------------------------------------


class Box:
    """The cells of a flat lattice whose translation coordinates lie between ``low`` and
    ``high`` (inclusive), laid out as bits: cell ``(x, y, *kind)`` is bit
    ``((x - x0) * stride + y - y0) * len(kinds) + kind number``.

    ``stride`` is one more than the box's height: that row, never in the box, catches a step
    off the top or bottom of a column, so that nothing wraps round into the next one (every
    step between neighbours changes ``y`` by at most one, so a connected shape that leaves
    the box's rows has a cell in that row).  A step off the first or last column leaves the
    bits of the box altogether.
    """

    def __init__(self, lat: Lattice, low: tuple[int, int], high: tuple[int, int]) -> None:
        """The box from corner ``low`` to corner ``high`` (translation coordinates)."""
        self.lattice = lat
        self.kinds = kinds(lat)
        self.x0, self.y0 = low
        k = len(self.kinds)
        self.stride = stride = high[1] - low[1] + 2
        width = high[0] - low[0] + 1
        column = (1 << (stride - 1) * k) - 1  # the cells of one column
        self.all = sum(column << i * stride * k for i in range(width))
        if k == 1:
            self.of_kind = [self.all]
        else:  # the kinds alternate: (1 << 2n) // 3 is 0b0101...01 (the sum of 4**i, i < n)
            evens = ((1 << 2 * width * stride) - 1) // 3
            self.of_kind = [self.all & evens, self.all & (evens << 1)]
        # (the cells of a kind, how far their neighbours' bits are) for each direction
        self.steps = [(self.of_kind[n], shift) for n, shift in _shifts(lat, stride)]

    @classmethod
    def around(cls, lat: Lattice, cells: Iterable[Cell], room: int) -> Box:
        """The box of ``cells`` with ``room`` cells more on every side."""
        cells = list(cells)
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        return cls(lat, (min(xs) - room, min(ys) - room), (max(xs) + room, max(ys) + room))

    def bit(self, cell: Cell) -> int:
        """The bit number of ``cell`` (in the box)."""
        kind = self.kinds.index(cell[2:]) if len(self.kinds) > 1 else 0
        return ((cell[0] - self.x0) * self.stride + cell[1] - self.y0) * len(self.kinds) + kind

    def mask(self, cells: Iterable[Cell]) -> int:
        """The set of ``cells`` as bits (each cell's :meth:`bit`, worked out here in one
        expression: every grown area, hole check and count of parts starts with its mask)."""
        x0, y0, stride = self.x0, self.y0, self.stride
        if len(self.kinds) == 1:
            return sum(1 << (c[0] - x0) * stride + c[1] - y0 for c in cells)
        k, number = len(self.kinds), _kind_numbers(self.lattice)
        return sum(1 << ((c[0] - x0) * stride + c[1] - y0) * k + number[c[2:]] for c in cells)

    def cells(self, mask: int) -> frozenset[Cell]:
        """The cells whose bits are set in ``mask``."""
        out = []
        k = len(self.kinds)
        while mask:
            low = mask & -mask
            column, kind = divmod(low.bit_length() - 1, k)
            x, y = divmod(column, self.stride)
            out.append((self.x0 + x, self.y0 + y, *self.kinds[kind]))
            mask ^= low
        return frozenset(out)

    def next_to(self, mask: int) -> int:
        """The cells of the box next to some cell of ``mask`` (the mask's own cells included
        only where they are next to another)."""
        out = 0
        for of_kind, shift in self.steps:
            some = mask & of_kind
            out |= some << shift if shift > 0 else some >> -shift
        return out & self.all

    def touching(self, mask: int) -> tuple[int, int, int]:
        """How many cells of ``mask`` each cell of the box is next to, as three bit planes: a
        cell's count is its bit in the first, plus twice its bit in the second, plus four
        times its bit in the third (a cell has at most six neighbours).  The count over a set
        of cells ``s`` is then ``(s & p1).bit_count() + 2 * (s & p2).bit_count() + ...``."""
        ones = twos = fours = 0
        for of_kind, shift in self.steps:
            some = mask & of_kind
            step = (some << shift if shift > 0 else some >> -shift) & self.all
            # add one to the count of each cell in ``step``: a ripple carry through the planes
            carry = ones & step
            ones ^= step
            fours |= twos & carry
            twos ^= carry
        return ones, twos, fours

    def shapes(self, orientations: Sequence[frozenset[Cell]]) -> list[tuple[int, int, list[int]]]:
        """Each orientation laid out in this box: (the kind number of its first cell, its mask
        with the first cell at bit 0, the offsets of its other cells)."""
        return _shapes(tuple(orientations), self.stride, tuple(self.kinds))

    def ranks(self, orientations: Sequence[frozenset[Cell]]) -> dict[int, int]:
        """Each orientation's shape in this box (as :meth:`shapes`) -> its place in the order
        of their cells at the same anchor (the order of their bits, lowest first; not to be
        changed by the caller)."""
        return _ranks(tuple(orientations), self.stride, tuple(self.kinds))


@lru_cache(maxsize=1024)
def _shifts(lat: Lattice, stride: int) -> tuple[tuple[int, int], ...]:
    """(kind number, how far the bit of a neighbour is) for each neighbour of each kind of
    cell, in a box of this stride (kept per height: many boxes share one)."""
    ks = kinds(lat)
    out = []
    for number, kind in enumerate(ks):
        for n in lat.neighbours((0, 0, *kind)):
            out.append((number, (n[0] * stride + n[1]) * len(ks) + ks.index(n[2:]) - number))
    return tuple(out)


@lru_cache(maxsize=4096)
def _shapes(
    orientations: tuple[frozenset[Cell], ...], stride: int, ks: tuple[Kind, ...]
) -> list[tuple[int, int, list[int]]]:
    """:meth:`Box.shapes`, kept per piece and box height (many boxes share one)."""
    k = len(ks)
    out = []
    for shape in orientations:
        numbers = sorted((c[0] * stride + c[1]) * k + ks.index(c[2:]) for c in shape)
        first = numbers[0]
        offsets = [n - first for n in numbers]
        out.append((first % k, sum(1 << o for o in offsets), offsets[1:]))
    return out


def hole_free(lat: Lattice, cells: frozenset[Cell]) -> bool:
    """Whether ``cells`` enclose no empty cell: the cells around them, in their box with one
    cell of room, are all reached from a corner of the box by a flood fill.

    >>> hole_free(SQUARE, frozenset({(0, 0), (1, 0), (0, 1)}))
    True
    """
    if lat.translation_dims != 2:
        raise ValueError("hole_free is for flat lattices")
    box = Box.around(lat, cells, 1)
    outside = box.all & ~box.mask(cells)
    reached = outside & -outside  # the first corner: outside, as the room is
    while True:
        more = (reached | box.next_to(reached)) & outside
        if more == reached:
            return reached == outside
        reached = more


@lru_cache(maxsize=4096)
def _span(orientations: tuple[frozenset[Cell], ...]) -> int:
    """The largest extent of the orientations along a translation coordinate."""
    return max(
        max(c[i] for c in o) - min(c[i] for c in o) + 1 for o in orientations for i in (0, 1)
    )


def touching_most(
    lat: Lattice, union: Iterable[Cell], orientations: tuple[frozenset[Cell], ...], slack: int
) -> tuple[Box, list[int]]:
    """Where a piece (its ``orientations``) may go next to ``union`` as an area grows: the
    placements next to it, not on it, that share the most edges with it, and those with up to
    ``slack`` fewer, as masks in the box returned with them, in the order of their sorted
    cells (the box lays cells out in sorted order, so that is the order of their bits; only
    the one chosen needs its cells made).

    Found for every position at once in a box around the union with room for the piece: where
    an orientation fits off the union is the AND of the free cells shifted by each of its
    cells' offsets, where it touches the union the OR of the cells next to it so shifted; the
    edges a placement shares are counted from the bit planes of :meth:`Box.touching`.

    >>> box, choices = touching_most(SQUARE, {(0, 0)}, (frozenset({(0, 0)}),), 0)
    >>> [sorted(box.cells(p)) for p in choices]
    [[(-1, 0)], [(0, -1)], [(0, 1)], [(1, 0)]]
    """
    box = Box.around(lat, union, _span(orientations))
    taken = box.mask(union)
    free = box.all & ~taken
    planes = box.touching(taken)
    near = (planes[0] | planes[1] | planes[2]) & free
    shapes = box.shapes(orientations)
    if compiled():  # (the same loop in C: ubongo._exact.touching)
        chosen = _exact.touching(free, near, planes, box.of_kind, shapes, slack)
    else:
        chosen = _touching(free, near, planes, box.of_kind, shapes, slack)
    # The order of sorted cells: a placement's lowest bit (its anchor) first, then, as all
    # shapes are moved alike, its shape's place in that order (one shape at one anchor).
    rank = box.ranks(orientations)

    def order(placed: int) -> tuple[int, int]:
        low = placed & -placed
        return low, rank[placed // low]

    return box, sorted(chosen, key=order)


def _touching(
    free: int,
    near: int,
    planes: tuple[int, int, int],
    of_kind: list[int],
    shapes: list[tuple[int, int, list[int]]],
    slack: int,
) -> list[int]:
    """:func:`touching_most`'s loop (the reference of the compiled one): the placements of
    ``shapes`` on the ``free`` cells with a cell on ``near``, whose edges shared (summed from
    the bit ``planes``) are the most, or up to ``slack`` fewer, by shape, then anchor."""
    ones, twos, fours = planes
    contact: dict[int, int] = {}  # placement -> edges shared
    for kind, shape, offsets in shapes:
        fits = of_kind[kind] & free
        touches = near
        for o in offsets:
            fits &= free >> o
            touches |= near >> o
        at = fits & touches
        while at:  # (a hot loop: every placement touching the union)
            low = at & -at
            placed = shape * low
            edges = (placed & ones).bit_count() + 2 * (placed & twos).bit_count()
            if fours:  # (rare: a cell with four union cells around it)
                edges += 4 * (placed & fours).bit_count()
            contact[placed] = edges
            at ^= low
    best = max(contact.values())
    return [p for p, n in contact.items() if n >= best - slack]


@lru_cache(maxsize=4096)
def _ranks(
    orientations: tuple[frozenset[Cell], ...], stride: int, ks: tuple[Kind, ...]
) -> dict[int, int]:
    """:meth:`Box.ranks`, kept as :func:`_shapes` is."""
    shapes = sorted({shape for _, shape, _ in _shapes(orientations, stride, ks)}, key=_bits)
    return {shape: i for i, shape in enumerate(shapes)}


def _bits(mask: int) -> list[int]:
    """The numbers of the bits set in ``mask``, in ascending order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def parts(lat: Lattice, cells: Iterable[Cell]) -> int:
    """How many connected parts ``cells`` make (``len(lat.components(cells))``): a flood fill
    of bits from the first cell not reached yet, until none is left.

    >>> parts(SQUARE, [(0, 0), (1, 0), (3, 0)])
    2
    """
    cells = list(cells)
    if not cells:
        return 0
    box = Box.around(lat, cells, 1)
    left = box.mask(cells)
    count = 0
    while left:
        reached = left & -left
        while True:
            more = (reached | box.next_to(reached)) & left
            if more == reached:
                break
            reached = more
        left &= ~reached
        count += 1
    return count
