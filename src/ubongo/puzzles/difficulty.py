"""How hard a task is: measured features and a score in expected seconds.

The score of a task is the **time a median player needs to solve it, in seconds**, from a
small model over features measured on the task (``docs/difficulty.md`` derives it and shows how
the grades of the standard decks separate).  Bots use it to decide how long they take.

Features (all solver-independent facts about the task, so that a faster solver gives the same
deck):

============  =================================================================================
pieces        number of pieces in the task
cells         cells to fill (3D: cubes of the two-layer solid)
solutions     number of exact covers (every placement counted; symmetric copies too)
placements    mean number of places each piece fits in the area on its own
bits          ``sum(log2(placements of piece)) - log2(solutions)``: how many yes/no questions a
              player must settle to find a solution among all ways of putting the pieces down
flips         fewest pieces that must be turned over (mirrored) in any solution
compactness   boundary edges of the area over the fewest possible for that many cells (1 = round)
regions       separate parts of the area (Trigo: 2)
============  =================================================================================

The solver's node count is stored with each task too (``Task.nodes``) but is not part of the
score: it measures the solver, and changes whenever the solver's search gets smarter.

>>> from ubongo.board import Area
>>> from ubongo.pieces import edition
>>> classic = edition("classic")
>>> area = Area.from_rows([".##..", "####.", ".####", ".###."])
>>> f = measure(area, [classic.piece(p) for p in "DIG"], solutions=1)
>>> f["pieces"], f["cells"], f["solutions"]
(3.0, 13.0, 1.0)
>>> 10 < expected_seconds(f, "square") < 60
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache

from ubongo.bitboard import Grid, fits_of, grid_of, shapes, widest
from ubongo.board import Area
from ubongo.geometry import Cell, Lattice
from ubongo.pieces import Piece
from ubongo.solver import ExactCover

#: seconds a median player spends per piece on picking it up, turning it and putting it down
SECONDS_PER_PIECE = 3.0
#: seconds per bit of search (one yes/no question about where a piece goes)
SECONDS_PER_BIT = 1.2
#: extra share of time per piece that has to be turned over
FLIP_SHARE = 0.12
#: how much harder the same search is on each lattice (turning a polycube in the hand is slow)
LATTICE_FACTOR = {"square": 1.0, "hexagon": 1.1, "triangle": 1.15, "cube": 1.35}


def placements(area: Area, piece: Piece) -> list[frozenset[Cell]]:
    """Every way ``piece`` fits in ``area`` on its own (turned, flipped if allowed, moved).

    >>> from ubongo.pieces import edition
    >>> len(placements(Area.from_rows(["###", "###"]), edition("classic").piece("A")))
    7
    """
    solid = area.solid
    d = piece.lattice.translation_dims
    found = []
    for first, rel in _relative_orientations(piece):
        for target in sorted(solid):
            if target[d:] == first:
                cells = [
                    tuple(t + o for t, o in zip(target[:d], off, strict=True)) + kind
                    for off, kind in rel
                ]
                if all(c in solid for c in cells):
                    found.append(frozenset(cells))
    return found


def placement_count(area: Area, piece: Piece) -> int:
    """``len(placements(area, piece))``, without building the placements (the generator's
    cheap check and a difficulty feature, so it runs for every piece on every area drawn).

    Counted on the solver's bit grid (:mod:`ubongo.bitboard`): where each orientation fits is
    one AND of shifted copies of the area, and the count is the number of bits set.  The grid
    and the placements are the ones the solver keeps for the area (the same margin as
    :meth:`ubongo.solver.ExactCover.for_area` for a piece no wider than 4), so that a task
    drawn on the area next finds them made.  Distinct orientations are distinct shapes, so
    no placement is counted twice.
    """
    solid = area.solid
    if not solid:
        return 0
    grid = grid_of(area.piece_lattice, solid, max(3, widest(piece) - 1))
    return sum(anchors.bit_count() for anchors in fits_of(piece, grid).anchors.values())


@cache
def _relative_orientations(
    piece: Piece,
) -> tuple[tuple[tuple[int, ...], tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]], ...]:
    """For each orientation: the kind of its first cell, and every cell as (translation from
    the first cell, kind)."""
    d = piece.lattice.translation_dims
    out = []
    for shape in piece.orientations:
        cells = sorted(shape)
        first = cells[0]
        rel = tuple((tuple(c[i] - first[i] for i in range(d)), c[d:]) for c in cells)
        out.append((first[d:], rel))
    return tuple(out)


def perimeter(lat: Lattice, cells: Iterable[Cell]) -> int:
    """Number of cell edges on the boundary of ``cells``."""
    s = set(cells)
    return sum(1 for c in s for n in lat.neighbours(c) if n not in s)


def least_perimeter(lat: Lattice, n: int) -> int:
    """The smallest boundary (in edges) of ``n`` connected cells (known closed forms)."""
    if n <= 0:
        return 0
    if lat.name == "hexagon":
        return 2 * math.ceil(math.sqrt(12 * n - 3))
    if lat.name == "triangle":
        p = math.ceil(math.sqrt(6 * n))
        return p + (p - n) % 2  # a polyiamond's perimeter has the parity of its size
    return 2 * math.ceil(2 * math.sqrt(n))


@lru_cache(maxsize=256)
def compactness(area: Area) -> float:
    """Boundary of the area's regions over the least possible one: 1.0 is as round as it gets
    (kept for the last areas: every task of an area has it)."""
    lat = area.lattice
    actual = sum(perimeter(lat, r) for r in area.regions)
    best = sum(least_perimeter(lat, len(r)) for r in area.regions)
    return actual / best if best else 1.0


def mirrored(piece: Piece, cells: Iterable[Cell]) -> bool:
    """Whether ``cells`` can only be covered by ``piece`` turned over (not by a rotation)."""
    return piece.lattice.normalize(cells) not in _turned(piece)


@lru_cache(maxsize=1024)
def _turned(piece: Piece) -> frozenset[frozenset[Cell]]:
    # a piece's shapes under rotation, made once: the generator asks about every solution
    lat = piece.lattice
    return frozenset(lat.orient(piece.cells, t) for t in lat.rotations)


def fewest_flips(
    pieces: Sequence[Piece], solutions: Iterable[Mapping[str, frozenset[Cell]]]
) -> int:
    """The fewest pieces that must be turned over in any of ``solutions`` (0 if there are none)."""
    by_id = {p.id: p for p in pieces}
    best: int | None = None
    for sol in solutions:
        n = sum(1 for pid, cells in sol.items() if mirrored(by_id[pid], cells))
        best = n if best is None else min(best, n)
        if best == 0:
            break
    return best or 0


def flips_needed(area: Area, pieces: Sequence[Piece]) -> int:
    """``fewest_flips(pieces, solutions(area, pieces))``, read from the solver's masks: a
    placement is turned over when its shape on the grid is one of the piece's mirrored
    orientations, so no solution's cells are made and none normalized (the generator asks
    this of every solvable task with a piece that can be turned over).

    >>> from ubongo.pieces import edition
    >>> l4 = [edition("classic").piece("E")]
    >>> flips_needed(Area.from_rows(["..#", "###"]), l4)
    0
    >>> flips_needed(Area.from_rows(["#..", "###"]), l4)  # only the L turned over fits
    1
    """
    problem = ExactCover.for_area(area, pieces)
    return flips_in(problem.grid, pieces, problem.masks())


def flips_in(
    grid: Grid | None, pieces: Sequence[Piece], solutions: Iterable[tuple[int, ...]]
) -> int:
    """:func:`flips_needed` from a problem's ``grid`` and its ``solutions`` as masks of
    ``pieces`` in order (``ExactCover.masks``, or ``masks_of`` a problem of more pieces: the
    card maker's, one per area)."""
    if grid is None:
        return 0
    turned = [_mirrored_shapes(p, grid.strides) for p in pieces]
    best: int | None = None
    for masks in solutions:
        n = sum(1 for m, t in zip(masks, turned, strict=True) if grid.shape_of(m) in t)
        best = n if best is None else min(best, n)
        if best == 0:
            break
    return best or 0


@lru_cache(maxsize=4096)
def _mirrored_shapes(piece: Piece, strides: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """The piece's mirrored orientations as shapes on a grid with these strides (as
    :meth:`Grid.shape_of` reads them from a placement), kept per piece and grid spacing."""
    return frozenset(
        shape
        for shape, o in zip(shapes(piece, strides), piece.orientations, strict=True)
        if o not in _turned(piece)
    )


def measure(
    area: Area,
    pieces: Sequence[Piece],
    *,
    solutions: int,
    nodes: int = 0,
    flips: int = 0,
    placement_counts: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """The features of a task (see the module docs); ``placement_counts`` may be precomputed."""
    counts = [
        placement_counts[p.id] if placement_counts is not None else placement_count(area, p)
        for p in pieces
    ]
    bits = sum(math.log2(max(c, 1)) for c in counts) - math.log2(max(solutions, 1))
    return {
        "pieces": float(len(pieces)),
        "cells": float(area.size),
        "solutions": float(solutions),
        "nodes": float(nodes),
        "placements": sum(counts) / max(len(counts), 1),
        "bits": max(bits, 0.0),
        "flips": float(flips),
        "compactness": compactness(area),
        "regions": float(len(area.regions)),
    }


def expected_seconds(features: Mapping[str, float], lattice_name: str) -> float:
    """The score: seconds a median player needs for a task with these features.

    ``(3 s x pieces + 1.2 s x bits) x (1 + 0.12 x flips) x lattice factor``; a ragged area
    (compactness above 1) hides its corners less, so it is not penalised further: its cost is
    already in ``bits`` (fewer placements, fewer questions).
    """
    base = SECONDS_PER_PIECE * features["pieces"] + SECONDS_PER_BIT * features["bits"]
    return base * (1 + FLIP_SHARE * features["flips"]) * LATTICE_FACTOR[lattice_name]
