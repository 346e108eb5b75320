"""Areas, placements and the cover check: the verdict on every "Ubongo!".

An :class:`Area` is the light part of a board or card: one region, or for Trigo two separate
ones.  A :class:`Placement` puts a piece down: which piece, which of the lattice's transforms,
and where the corner of its bounding box goes.  :func:`check_cover` says whether some
placements cover an area exactly with exactly the task's pieces, and if not, why not.

>>> from ubongo.pieces import edition
>>> classic = edition("classic")
>>> area = Area.from_rows(["##", "##", "##"])
>>> b, c = classic.piece("B"), classic.piece("C")
>>> verdict = check_cover(area, [b, c], [Placement("B", 0, (0, 0))])
>>> verdict.ok, verdict.code
(False, 'missing_piece')
>>> print(verdict.reason)
piece C is not placed
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from ubongo.geometry import CUBE, SQUARE, Cell, Lattice
from ubongo.pieces import Piece


@dataclass(frozen=True)
class Area:
    """The cells to cover, drawn on ``lattice``; filled ``layers`` deep (3D: 2, with cubes)."""

    lattice: Lattice
    cells: frozenset[Cell]
    layers: int = 1

    def __post_init__(self) -> None:
        """Refuse layers on anything but squares: only 3D is filled in layers, with cubes."""
        if self.layers > 1 and self.lattice is not SQUARE:
            raise ValueError("only square areas can be filled in layers (with cubes)")

    @classmethod
    def from_rows(cls, rows: Sequence[str], lattice: Lattice = SQUARE, layers: int = 1) -> Area:
        """A square area from picture rows, ``#`` for a cell, top row first."""
        cells = frozenset(
            (x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"
        )
        return cls(lattice, cells, layers)

    @property
    def piece_lattice(self) -> Lattice:
        """The lattice of the pieces that fill this area."""
        return CUBE if self.layers > 1 else self.lattice

    @cached_property
    def solid(self) -> frozenset[Cell]:
        """The cells the pieces must fill: the area itself, or for layers the prism above it."""
        if self.layers == 1:
            return self.cells
        return frozenset((x, y, z) for (x, y) in self.cells for z in range(self.layers))

    @cached_property
    def regions(self) -> tuple[frozenset[Cell], ...]:
        """The separate parts of the area (Trigo cards have two)."""
        return tuple(self.lattice.components(self.cells))

    @property
    def size(self) -> int:
        """The number of cells to fill (3D: both layers).

        >>> Area.from_rows(["##", "#."], layers=2).size
        6
        """
        return len(self.solid)

    def rows(self) -> list[str]:
        """A picture of a square area, as for :meth:`from_rows`."""
        xs = [c[0] for c in self.cells]
        ys = [c[1] for c in self.cells]
        return [
            "".join("#" if (x, y) in self.cells else "." for x in range(min(xs), max(xs) + 1))
            for y in range(min(ys), max(ys) + 1)
        ]


@dataclass(frozen=True)
class Placement:
    """A piece put down: ``transform`` indexes ``lattice.transforms``; ``offset`` is where the
    anchor (smallest coordinates) of the turned piece goes."""

    piece: str
    transform: int
    offset: Cell

    def cells(self, piece: Piece) -> frozenset[Cell]:
        """The cells ``piece`` covers when turned by ``transform`` and moved by ``offset``."""
        lat = piece.lattice
        shape = lat.orient(piece.cells, transform=self.transform)
        return frozenset(lat.translate(c, self.offset) for c in shape)

    @classmethod
    def covering(cls, piece: Piece, cells: Iterable[Cell]) -> Placement:
        """The placement of ``piece`` that covers exactly ``cells``.

        Raises ValueError if the piece cannot be turned to that shape."""
        target = frozenset(cells)
        lat = piece.lattice
        if not target:
            raise ValueError(f"piece {piece.id} cannot cover no cells")
        anchor = lat.anchor(target)
        shape = lat.normalize(target)
        for t in piece.allowed_transforms:
            if lat.orient(piece.cells, t) == shape:
                return cls(piece.id, t, anchor)
        raise ValueError(f"piece {piece.id} cannot be turned to cover those cells")


@dataclass(frozen=True)
class Verdict:
    """The answer to "Ubongo!": ``ok``, or a ``code`` and a sentence for the player."""

    ok: bool
    code: str
    reason: str = ""

    def __bool__(self) -> bool:
        """True when the arrangement is accepted, so that ``if check_cover(...)`` reads well."""
        return self.ok


COVERED = Verdict(True, "covered", "the area is covered exactly")


def _fmt(cell: Cell) -> str:
    return "(" + ", ".join(str(c) for c in cell) + ")"


def _wrong_placement(area: Area, piece: Piece, pl: Placement) -> Verdict | None:
    """What is wrong with how one piece is placed on its own (its turn, its position's shape)."""
    if pl.transform not in piece.allowed_transforms:
        why = (
            "cannot be mirrored"
            if 0 <= pl.transform < len(piece.lattice.transforms)
            else "has no such turn"
        )
        return Verdict(False, "bad_transform", f"piece {pl.piece} {why}")
    if piece.lattice is not area.piece_lattice or len(pl.offset) != piece.lattice.translation_dims:
        return Verdict(False, "bad_position", f"piece {pl.piece} has a position of the wrong shape")
    return None


def check_cover(area: Area, pieces: Sequence[Piece], placements: Sequence[Placement]) -> Verdict:
    """Whether ``placements`` cover ``area`` exactly with each of ``pieces`` used once.

    The checks run in the order a player would want to hear about them: a wrong or doubled
    piece, a turn the piece does not allow, a missing piece, a piece sticking out, overlaps,
    and finally holes.
    """
    by_id = {p.id: p for p in pieces}
    placed: dict[str, frozenset[Cell]] = {}
    for pl in placements:
        piece = by_id.get(pl.piece)
        if piece is None:
            return Verdict(False, "unknown_piece", f"piece {pl.piece} is not part of this task")
        if pl.piece in placed:
            return Verdict(False, "duplicate_piece", f"piece {pl.piece} is placed twice")
        wrong = _wrong_placement(area, piece, pl)
        if wrong is not None:
            return wrong
        placed[pl.piece] = pl.cells(piece)
    missing = [p.id for p in pieces if p.id not in placed]
    if missing:
        names = ", ".join(missing)
        several = len(missing) > 1
        return Verdict(
            False,
            "missing_piece",
            f"piece{'s' if several else ''} {names} {'are' if several else 'is'} not placed",
        )
    solid = area.solid
    for pid, cells in placed.items():
        outside = sorted(cells - solid)
        if outside:
            where = (
                "goes higher than the top level"
                if area.layers > 1 and any(c[2] >= area.layers for c in outside)
                else "sticks out of the area"
            )
            return Verdict(False, "outside", f"piece {pid} {where} at {_fmt(outside[0])}")
    owner: dict[Cell, str] = {}
    for pid, cells in placed.items():
        for c in sorted(cells):
            if c in owner:
                return Verdict(
                    False, "overlap", f"pieces {owner[c]} and {pid} overlap at {_fmt(c)}"
                )
            owner[c] = pid
    holes = sorted(solid - owner.keys())
    if holes:
        n = len(holes)
        return Verdict(
            False, "uncovered", f"{n} cell{'s' if n > 1 else ''} not covered, e.g. {_fmt(holes[0])}"
        )
    return COVERED


def placements_of(
    pieces: Mapping[str, Piece], solution: Mapping[str, frozenset[Cell]]
) -> list[Placement]:
    """Turn a solver solution (piece id -> cells) into placements."""
    return [Placement.covering(pieces[pid], cells) for pid, cells in solution.items()]
