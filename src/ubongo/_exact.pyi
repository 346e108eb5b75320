"""The solver's searches compiled (src/ubongo/_exact.c); ubongo/solver.py is the reference."""

from collections.abc import Iterator, Mapping, Sequence

#: the widest area on its grid, in bits (masks of 1, 2 or 4 words of 64 bits)
MAX_BITS: int
#: the most pieces in one problem (a bit each in a 32-bit word)
MAX_PIECES: int

def anchors(
    area: int, kinds: Mapping[int, int], shapes: Sequence[tuple[int, int, list[int]]]
) -> dict[int, int]:
    """:meth:`ubongo.bitboard.Fits.on`'s loop, the same dict made the same way: for each
    (kind of its first cell, shape, offsets of its other cells) of a piece on the grid, the
    cells of that kind (``kinds[kind]``) where every cell anchor + offset is in ``area``.
    OverflowError for an area wider than :data:`MAX_BITS`."""

def touching(
    free: int,
    near: int,
    planes: tuple[int, int, int],
    of_kind: list[int],
    shapes: list[tuple[int, int, list[int]]],
    slack: int,
) -> list[int]:
    """:func:`ubongo.puzzles.shapes._touching`, the loop of a growing area's next choices:
    the placements of ``shapes`` (kind number, mask, offsets) on the ``free`` cells of a box
    with a cell on ``near``, whose edges shared (summed from the bit ``planes``) are the most,
    or up to ``slack`` fewer, by shape, then anchor.  Masks of any width."""

def layout(
    cells: tuple[tuple[int, ...], ...], triangle: bool, margin: int
) -> tuple[tuple[int, ...], list[int], list[int], int, int]:
    """:class:`ubongo.bitboard.Grid`'s layout of an area, the same numbers made the same way:
    (strides, start, each cell's bit number, the area's mask, the upward triangles' mask).
    OverflowError when a bit number reaches :data:`MAX_BITS`."""

class Problem:
    """An exact-cover problem on a grid: ``area`` the cells to fill, ``anchors[p]`` piece
    ``p``'s placements as :attr:`ubongo.bitboard.Fits.anchors` (shape -> its anchors),
    ``hole_fillers`` the pieces that fill a one-cell hole (-1: all, no walled-in test), and
    ``steps`` the grid's neighbour shifts (:attr:`ubongo.bitboard.Grid.steps`).

    OverflowError for an area wider than :data:`MAX_BITS` or more than :data:`MAX_PIECES`
    pieces; ValueError for a placement outside the area.
    """

    def __init__(
        self,
        area: int,
        anchors: Sequence[Mapping[int, int]],
        hole_fillers: int,
        steps: Sequence[tuple[int, int]],
    ) -> None: ...
    @property
    def words(self) -> int:
        """64-bit words per mask: 1, 2 or 4."""
    def count(self, limit: int) -> tuple[int, int]:
        """(solutions, nodes) of the depth-first count up to ``limit`` (``ExactCover._count``);
        OverflowError for a count past 2**64."""
    def count_all(self, pieces: int = ...) -> tuple[int, int]:
        """(solutions, nodes), every solution counted forward (``ExactCover._count_all``),
        placing only ``pieces`` (a bit each; default: all of them), as though the problem had
        been made with those alone; OverflowError for a count past 2**64, ValueError for
        pieces the problem has not."""
    def solutions(self, pieces: int = ...) -> Iterator[tuple[int, ...]]:
        """Each solution's placement masks, by piece number (``ExactCover._search``), placing
        only ``pieces`` (a bit each; default: all of them): the masks of those pieces alone."""
