"""The four lattices the editions are played on.

A *cell* is a tuple of integers in a lattice's own coordinates:

========  ============  ===========================================================
lattice   cell          meaning
========  ============  ===========================================================
square    ``(x, y)``    column ``x``, row ``y``; rows run top to bottom
hexagon   ``(q, r)``    axial coordinates of pointy-top hexagons
triangle  ``(a, b, s)`` ``s = 0``: upward triangle with corners (a,b) (a+1,b) (a,b+1);
                        ``s = 1``: downward triangle with corners (a+1,b) (a,b+1) (a+1,b+1)
cube      ``(x, y, z)`` ``z = 0`` lies on the board
========  ============  ===========================================================

Every lattice maps a cell to the integer coordinates of its centre (scaled so they are
integers) and back.  Rotations and reflections are integer matrices acting on those centres,
so one implementation of the transform group serves all four lattices.  Translations move a
cell by whole lattice steps and never change its kind (a triangle's ``s``).

>>> SQUARE.neighbours((0, 0))
((1, 0), (-1, 0), (0, 1), (0, -1))
>>> len(SQUARE.transforms), len(HEXAGON.transforms), len(TRIANGLE.transforms), len(CUBE.transforms)
(8, 12, 12, 24)
>>> TRIANGLE.neighbours((0, 0, 0))
((0, 0, 1), (-1, 0, 1), (0, -1, 1))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

Cell = tuple[int, ...]
Point = tuple[float, float]
Matrix = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Transform:
    """A rotation or reflection of a lattice, as an integer matrix on cell centres.

    Transforms are numbered by their index in ``Lattice.transforms``; index 0 is the identity.
    """

    matrix: Matrix

    def on(self, vector: tuple[int, ...]) -> tuple[int, ...]:
        """The matrix applied to a centre vector."""
        return tuple(sum(m * v for m, v in zip(row, vector, strict=True)) for row in self.matrix)

    def then(self, other: Transform) -> Transform:
        """The transform that applies ``self`` first and ``other`` second."""
        n = len(self.matrix)
        return Transform(
            tuple(
                tuple(
                    sum(other.matrix[i][k] * self.matrix[k][j] for k in range(n)) for j in range(n)
                )
                for i in range(n)
            )
        )

    @property
    def is_reflection(self) -> bool:
        """Whether this transform mirrors (negative determinant): a flip, not a turn."""
        return _determinant(self.matrix) < 0


def _determinant(m: Matrix) -> int:
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _close_group(generators: Iterable[Matrix], size: int) -> tuple[Transform, ...]:
    """All products of the generators, identity first, in a fixed (breadth-first) order."""
    identity = Transform(tuple(tuple(int(i == j) for j in range(size)) for i in range(size)))
    gens = [Transform(g) for g in generators]
    found = [identity]
    seen = {identity}
    frontier = [identity]
    while frontier:
        nxt = []
        for t in frontier:
            for g in gens:
                u = t.then(g)
                if u not in seen:
                    seen.add(u)
                    found.append(u)
                    nxt.append(u)
        frontier = nxt
    return tuple(found)


class Lattice:
    """A periodic tiling of cells with its symmetry group.

    Subclasses give the centre map, the neighbour offsets, the group generators and outlines.
    """

    name: str
    #: how many leading coordinates of a cell are translation coordinates
    translation_dims: int
    #: generators of the rotation/reflection group, as matrices on centre coordinates
    generators: tuple[Matrix, ...]

    def __reduce__(self) -> tuple[Callable[[str], Lattice], tuple[str]]:
        """Pickled by name: there is one lattice of each kind, and the solver and the pieces
        tell lattices apart by identity (cards made in another process come back with
        their pieces' and areas' lattices the very same objects).

        >>> import pickle
        >>> pickle.loads(pickle.dumps(SQUARE)) is SQUARE
        True
        """
        return lattice, (self.name,)

    def centre(self, cell: Cell) -> tuple[int, ...]:
        """The cell's centre in the lattice's integer centre coordinates (where transforms act)."""
        raise NotImplementedError

    def cell_at(self, centre: tuple[int, ...]) -> Cell:
        """The cell whose centre is ``centre``: the inverse of :meth:`centre`."""
        raise NotImplementedError

    def is_cell(self, value: object) -> bool:
        """Whether ``value`` is a valid cell of this lattice (right length, integers, kind)."""
        raise NotImplementedError

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells sharing an edge (a face, for cubes) with ``cell``, in a fixed order."""
        raise NotImplementedError

    def outline(self, cell: Cell) -> list[Point]:
        """The cell's polygon in the plane (screen coordinates: x right, y down, unit edges).

        For the cube lattice this is the square under the cube."""
        raise NotImplementedError

    @cached_property
    def transforms(self) -> tuple[Transform, ...]:
        """The lattice's point group (rotations, and reflections where the lattice allows)."""
        return _close_group(self.generators, len(self.generators[0]))

    @cached_property
    def rotations(self) -> tuple[int, ...]:
        """Indices of the transforms that are rotations (no mirror image)."""
        return tuple(i for i, t in enumerate(self.transforms) if not t.is_reflection)

    def apply(self, transform: Transform | int, cell: Cell) -> Cell:
        """``cell`` turned (or flipped) by ``transform``, given as itself or by its index.

        >>> SQUARE.apply(1, (2, 0))  # a quarter turn about the origin's corner
        (-1, 2)
        """
        t = self.transforms[transform] if isinstance(transform, int) else transform
        return self.cell_at(t.on(self.centre(cell)))

    def transform_index(self, transform: Transform) -> int:
        """The number of ``transform`` in :attr:`transforms` (how a placement stores a turn)."""
        return self.transforms.index(transform)

    def translate(self, cell: Cell, offset: Cell) -> Cell:
        """``cell`` moved by ``offset`` lattice steps; a cell's kind (a triangle's ``s``) stays.

        >>> TRIANGLE.translate((0, 0, 1), (2, -1))
        (2, -1, 1)
        """
        d = self.translation_dims
        return tuple(c + o for c, o in zip(cell[:d], offset, strict=True)) + cell[d:]

    def anchor(self, cells: Iterable[Cell]) -> Cell:
        """The smallest translation coordinates among ``cells`` (their bounding box's corner)."""
        cells = list(cells)
        return tuple(min(c[i] for c in cells) for i in range(self.translation_dims))

    def normalize(self, cells: Iterable[Cell]) -> frozenset[Cell]:
        """Translate ``cells`` so that their anchor is at the origin."""
        cells = list(cells)
        if not cells:
            return frozenset()
        low = self.anchor(cells)
        return frozenset(self.translate(c, tuple(-x for x in low)) for c in cells)

    def orient(self, cells: Iterable[Cell], transform: Transform | int) -> frozenset[Cell]:
        """Apply ``transform`` and normalize."""
        return self.normalize(self.apply(transform, c) for c in cells)

    def is_connected(self, cells: Iterable[Cell]) -> bool:
        """Whether ``cells`` form one piece (every cell reachable through edge neighbours)."""
        return len(self.components(cells)) <= 1

    def components(self, cells: Iterable[Cell]) -> list[frozenset[Cell]]:
        """The connected parts of ``cells`` (edge neighbours), largest first, ties by sort order."""
        remaining = set(cells)
        parts: list[frozenset[Cell]] = []
        while remaining:
            start = min(remaining)
            stack = [start]
            remaining.discard(start)
            part = {start}
            while stack:
                for n in self.neighbours(stack.pop()):
                    if n in remaining:
                        remaining.discard(n)
                        part.add(n)
                        stack.append(n)
            parts.append(frozenset(part))
        parts.sort(key=lambda p: (-len(p), min(p)))
        return parts

    def canonical(
        self, cells: Iterable[Cell], transforms: Iterable[int] | None = None
    ) -> tuple[Cell, ...]:
        """A representative of ``cells`` up to translation and the given transforms (default: all).

        Two shapes are congruent exactly when their canonical forms are equal.
        """
        cells = list(cells)
        indices = range(len(self.transforms)) if transforms is None else transforms
        return min(tuple(sorted(self.orient(cells, i))) for i in indices)

    def __repr__(self) -> str:
        """The lattice by name, e.g. ``<SquareLattice square>``."""
        return f"<{type(self).__name__} {self.name}>"


class SquareLattice(Lattice):
    """Unit squares; centres scaled by 2 so that they are integers."""

    name = "square"
    translation_dims = 2
    generators = (((0, -1), (1, 0)), ((-1, 0), (0, 1)))

    def centre(self, cell: Cell) -> tuple[int, ...]:
        """Doubled, so that it is an integer: ``(2x + 1, 2y + 1)``."""
        x, y = cell
        return (2 * x + 1, 2 * y + 1)

    def cell_at(self, centre: tuple[int, ...]) -> Cell:
        """The square whose doubled centre is ``centre``."""
        return ((centre[0] - 1) // 2, (centre[1] - 1) // 2)

    def is_cell(self, value: object) -> bool:
        """Two integers."""
        return _int_tuple(value, 2)

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Right, left, down, up."""
        x, y = cell
        return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))

    def outline(self, cell: Cell) -> list[Point]:
        """The unit square with its top left corner at ``(x, y)``."""
        x, y = cell[0], cell[1]
        return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


class HexagonLattice(Lattice):
    """Pointy-top hexagons in axial coordinates; the centres are the cells themselves."""

    name = "hexagon"
    translation_dims = 2
    # rotation by 60 degrees: (q, r) -> (-r, q + r); reflection: swap q and r
    generators = (((0, -1), (1, 1)), ((0, 1), (1, 0)))

    def centre(self, cell: Cell) -> tuple[int, ...]:
        """The axial coordinates themselves (already integers)."""
        return (cell[0], cell[1])

    def cell_at(self, centre: tuple[int, ...]) -> Cell:
        """The hexagon at these axial coordinates."""
        return (centre[0], centre[1])

    def is_cell(self, value: object) -> bool:
        """Two integers (axial ``q``, ``r``)."""
        return _int_tuple(value, 2)

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The six hexagons around, in a fixed order."""
        q, r = cell
        return ((q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1))

    def outline(self, cell: Cell) -> list[Point]:
        """The six corners of the pointy-top hexagon, starting at the top, clockwise."""
        # edge length 1/sqrt(3), so that neighbouring centres are 1 apart, as squares are
        q, r = cell
        cx, cy = q + r / 2, r * math.sqrt(3) / 2
        radius = 1 / math.sqrt(3)
        return [
            (cx + radius * math.cos(math.radians(a)), cy + radius * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]


class TriangleLattice(Lattice):
    """Equilateral triangles on the lattice a*e1 + b*e2 (e1, e2 at 60 degrees).

    The centre of (a, b, s) is (a + (1+s)/3, b + (1+s)/3); scaled by 3 it is an integer vector,
    and rotations by 60 degrees act on it as on hexagon axial coordinates.
    """

    name = "triangle"
    translation_dims = 2
    generators = HexagonLattice.generators

    def centre(self, cell: Cell) -> tuple[int, ...]:
        """Tripled, so that it is an integer: ``(3a + 1 + s, 3b + 1 + s)``."""
        a, b, s = cell
        return (3 * a + 1 + s, 3 * b + 1 + s)

    def cell_at(self, centre: tuple[int, ...]) -> Cell:
        """The triangle whose tripled centre is ``centre``; ValueError if none is."""
        s = centre[0] % 3 - 1
        if s not in (0, 1) or centre[1] % 3 != centre[0] % 3:
            raise ValueError(f"{centre} is not a triangle centre")
        return ((centre[0] - 1 - s) // 3, (centre[1] - 1 - s) // 3, s)

    def is_cell(self, value: object) -> bool:
        """Three integers, the last (the kind ``s``) 0 or 1."""
        return _int_tuple(value, 3) and value[2] in (0, 1)  # type: ignore[index]

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The three triangles across its edges, all of the other kind."""
        a, b, s = cell
        if s == 0:
            return ((a, b, 1), (a - 1, b, 1), (a, b - 1, 1))
        return ((a, b, 0), (a + 1, b, 0), (a, b + 1, 0))

    @staticmethod
    def point(a: float, b: float) -> Point:
        """Lattice point a*e1 + b*e2 on screen: e1 to the right, e2 up and to the right."""
        return (a + b / 2, -b * math.sqrt(3) / 2)

    def outline(self, cell: Cell) -> list[Point]:
        """The triangle's three corners on screen."""
        a, b, s = cell
        if s == 0:
            corners = [(a, b), (a + 1, b), (a, b + 1)]
        else:
            corners = [(a + 1, b), (a + 1, b + 1), (a, b + 1)]
        return [self.point(*c) for c in corners]


def _cube_rotations() -> tuple[Matrix, ...]:
    """Generators of the 24 proper rotations: quarter turns about the z and x axes."""
    return (((0, -1, 0), (1, 0, 0), (0, 0, 1)), ((1, 0, 0), (0, 0, -1), (0, 1, 0)))


class CubeLattice(Lattice):
    """Unit cubes; the rotation group only (a mirror image of a polycube is another piece)."""

    name = "cube"
    translation_dims = 3
    generators = _cube_rotations()

    def centre(self, cell: Cell) -> tuple[int, ...]:
        """Doubled, so that it is an integer: ``(2x + 1, 2y + 1, 2z + 1)``."""
        return tuple(2 * c + 1 for c in cell)

    def cell_at(self, centre: tuple[int, ...]) -> Cell:
        """The cube whose doubled centre is ``centre``."""
        return tuple((c - 1) // 2 for c in centre)

    def is_cell(self, value: object) -> bool:
        """Three integers."""
        return _int_tuple(value, 3)

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The six cubes across its faces: along x, y, then z."""
        x, y, z = cell
        return (
            (x + 1, y, z),
            (x - 1, y, z),
            (x, y + 1, z),
            (x, y - 1, z),
            (x, y, z + 1),
            (x, y, z - 1),
        )

    def outline(self, cell: Cell) -> list[Point]:
        """The unit square under the cube (its footprint on the board)."""
        return SQUARE.outline(cell[:2])


def _int_tuple(value: object, length: int) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == length
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


SQUARE = SquareLattice()
HEXAGON = HexagonLattice()
TRIANGLE = TriangleLattice()
CUBE = CubeLattice()

LATTICES: dict[str, Lattice] = {lat.name: lat for lat in (SQUARE, HEXAGON, TRIANGLE, CUBE)}


def lattice(name: str) -> Lattice:
    """The lattice called ``name`` (square, hexagon, triangle, cube).

    >>> lattice("hexagon") is HEXAGON
    True
    """
    try:
        return LATTICES[name]
    except KeyError:
        raise ValueError(
            f"unknown lattice {name!r}; expected one of {', '.join(LATTICES)}"
        ) from None


def bounding_box(points: Iterable[Point]) -> tuple[float, float, float, float]:
    """(min x, min y, max x, max y) of some points."""
    pts = list(points)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


__all__ = [
    "CUBE",
    "HEXAGON",
    "LATTICES",
    "SQUARE",
    "TRIANGLE",
    "Cell",
    "CubeLattice",
    "HexagonLattice",
    "Lattice",
    "Point",
    "SquareLattice",
    "Transform",
    "TriangleLattice",
    "bounding_box",
    "lattice",
]
