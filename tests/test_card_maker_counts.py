"""One problem for every piece an area may get, counted and solved for each set of them
(``ExactCover.count_of`` and ``masks_of``, the card maker's way), against a problem made for
each set.

The counts, the node counts and the solutions (in the same order) must be the same, with
either core, on every task of every standard deck, on random sets (of the right size or
not) on the decks' areas, and on random puzzles of every lattice with other pieces beside
them; and an area's placement counts (``ExactCover.placement_count``) those of the
difficulty feature.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_exact_core import CASES

from ubongo import editions
from ubongo.board import Area
from ubongo.geometry import CUBE, HEXAGON, SQUARE, TRIANGLE, Cell
from ubongo.pieces import Piece, edition
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.difficulty import placement_count
from ubongo.solver import COMPILED, Core, ExactCover, SearchStats, set_core

CORES: list[Core] = ["compiled", "python"] if COMPILED else ["python"]

Cover = tuple[frozenset[Cell], ...]  # a solution: each piece's cells, in the pieces' order
Found = tuple[SearchStats, list[Cover]]


def alone(core: Core, area: Area, pieces: Sequence[Piece]) -> Found:
    """The stats and the solutions of the problem made for ``pieces`` alone, searched by
    ``core``."""
    before = set_core(core)
    try:
        problem = ExactCover.for_area(area, pieces)
        return problem.stats(), covers(problem, problem.masks())
    finally:
        set_core(before)


def among(core: Core, area: Area, every: Sequence[Piece], pieces: Sequence[Piece]) -> Found:
    """The same, from one problem made for ``every`` piece, searched by ``core`` (``pieces``
    in the order of ``every``)."""
    before = set_core(core)
    try:
        problem = ExactCover.for_area(area, every)
        numbers = [list(every).index(p) for p in pieces]
        assert numbers == sorted(numbers)
        return problem.count_of(numbers), covers(problem, problem.masks_of(numbers))
    finally:
        set_core(before)


def covers(problem: ExactCover, solutions: Iterable[tuple[int, ...]]) -> list[Cover]:
    """Each solution as its pieces' cells, in the pieces' order."""
    grid = problem.grid
    if grid is None:
        return [() for _ in solutions]
    return [tuple(grid.cells_of(m) for m in masks) for masks in solutions]


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name", editions.names())
def test_every_standard_deck_task_counted_among_all_the_pieces(core: Core, name: str) -> None:
    deck = standard_deck(name)
    every = list(edition(name).pieces)
    rng = random.Random(name)
    for card in deck.cards:
        for side in card.sides:
            problem = ExactCover.for_area(side.area, every)
            for i, piece in enumerate(every):
                assert problem.placement_count(i) == placement_count(side.area, piece)
            sets = [list(deck.task_pieces(t)) for t in side.tasks]
            sets.append(rng.sample(every, 3))  # (mostly of the wrong size)
            for pieces in sets:
                pieces.sort(key=every.index)
                found = among(core, side.area, every, pieces)
                assert found == alone(core, side.area, pieces)
                assert found == alone("python", side.area, pieces)


OTHERS = {SQUARE: "classic", HEXAGON: "extreme", TRIANGLE: "trigo", CUBE: "3d"}


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(sorted(CASES)), seed=st.integers(0, 2**32))
def test_random_puzzles_counted_among_other_pieces(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    area, pieces = CASES[kind](rng)
    ids = {p.id for p in pieces}
    others = [p for p in edition(OTHERS[area.piece_lattice]).pieces if p.id not in ids]
    every = list(pieces) + rng.sample(others, min(3, len(others)))
    rng.shuffle(every)
    pieces = sorted(pieces, key=every.index)
    for core in CORES:
        assert among(core, area, every, pieces) == alone("python", area, pieces)


def test_a_piece_chosen_twice_or_not_there_is_refused() -> None:
    classic = edition("classic")
    problem = ExactCover.for_area(Area.from_rows(["###", "###"]), classic.pieces[:3])
    with pytest.raises(ValueError, match="twice"):
        problem.count_of([0, 0])
    with pytest.raises(ValueError, match="twice"):
        problem.masks_of([1, 1])
    if COMPILED:
        compiled = problem._compiled(whole=False)
        assert compiled is not None
        for bad in (0, 1 << 3):
            with pytest.raises(ValueError, match="some of the problem's pieces"):
                compiled.count_all(bad)
            with pytest.raises(ValueError, match="some of the problem's pieces"):
                compiled.solutions(bad)
