"""The solver's compiled core (ubongo._exact) against its Python core, the reference.

Both must give the same counts, the same node counts and the same solutions in the same
order, each solution a valid cover: on every task of every standard deck, on random puzzles
of every lattice, on problems built by hand, and across the widths of masks (one, two and
four words, and wider areas, which the Python core searches); and the grid laid out for an
area (``Grid``) and where each piece fits (``Fits.on``), made by either, are the same.  The
brute-force checks of tests/test_solver.py run with each core too.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import ORIGIN, build, flat_case, solid_case, three_d_case, trigo_case

from ubongo import editions
from ubongo.bitboard import Fits, Grid
from ubongo.board import Area, check_cover, placements_of
from ubongo.geometry import CUBE, HEXAGON, SQUARE, TRIANGLE, Cell, Lattice
from ubongo.pieces import Piece, edition, make_piece
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.difficulty import fewest_flips, flips_needed
from ubongo.solver import (
    COMPILED,
    MAX_BITS,
    Core,
    ExactCover,
    SearchStats,
    Solution,
    set_core,
    solutions,
)

pytestmark = pytest.mark.skipif(not COMPILED, reason="ubongo._exact is not built")


def with_core(core: Core, problem: ExactCover) -> ExactCover:
    """A fresh copy of ``problem`` (nothing remembered between searches) searched by ``core``;
    the compiled one must really search it, not hand it back to Python."""
    fresh = ExactCover.__new__(ExactCover)
    fresh._setup(problem.lattice, problem.piece_ids, problem.sizes, problem._grid, problem._fits)
    before = set_core(core)
    try:
        grid = fresh._grid
        if core == "compiled" and fresh.feasible and grid and grid.area.bit_length() <= MAX_BITS:
            assert fresh._compiled() is not None, "the compiled core gave the problem back"
    finally:
        set_core(before)
    return fresh


Findings = tuple[SearchStats, list[SearchStats], list[Solution]]


def findings(core: Core, problem: ExactCover) -> Findings:
    """Everything the solver says about a problem, searched by ``core``."""
    before = set_core(core)
    try:
        every = with_core(core, problem).stats()
        limited = [with_core(core, problem).stats(limit) for limit in (1, 2, 3)]
        found = list(with_core(core, problem).solutions())
    finally:
        set_core(before)
    return every, limited, found


def anchors(core: Core, piece: Piece, grid: Grid) -> list[tuple[int, int]]:
    """Where ``piece`` fits on ``grid``, found by ``core``, in the order found."""
    before = set_core(core)
    try:
        return list(Fits.on(piece, grid).anchors.items())
    finally:
        set_core(before)


def layout(core: Core, grid: Grid) -> tuple[object, ...]:
    """The same area laid out again by ``core``: everything a grid holds."""
    before = set_core(core)
    try:
        again = Grid(grid.lattice, grid._cells, grid.margin)
    finally:
        set_core(before)
    return (again.strides, again.start, again._numbers, again.area, again.kinds, again.steps)


def assert_cores_agree(area: Area, pieces: Sequence[Piece]) -> int:
    """Both cores on a task; every solution a valid cover.  The number of solutions."""
    problem = ExactCover.for_area(area, pieces)
    grid = problem._grid
    if grid is not None:
        assert layout("compiled", grid) == layout("python", grid)
        for piece in pieces:
            assert anchors("compiled", piece, grid) == anchors("python", piece, grid)
    compiled = findings("compiled", problem)
    assert compiled == findings("python", problem)
    every, _, found = compiled
    assert every.solutions == len(found)
    for solution in found:  # each an exact cover, piece by piece of the right size ...
        assert sorted(solution) == sorted(p.id for p in pieces)
        assert [len(solution[p.id]) for p in pieces] == [p.size for p in pieces]
        assert frozenset().union(*solution.values()) == area.solid
    if found:  # ... and the first one the pieces' own shapes, as the rules check a player's
        by_id = {p.id: p for p in pieces}
        verdict = check_cover(area, pieces, placements_of(by_id, found[0]))
        assert verdict.ok, verdict.reason
    return len(found)


def deck_tasks(name: str) -> Iterator[tuple[Area, list[Piece]]]:
    deck = standard_deck(name)
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                yield side.area, list(deck.task_pieces(task))


@pytest.mark.parametrize("name", editions.names())
def test_every_standard_deck_task(name: str) -> None:
    counts = [assert_cores_agree(area, pieces) for area, pieces in deck_tasks(name)]
    assert all(counts)


@pytest.mark.parametrize("core", ["compiled", "python"])
def test_the_flips_read_from_masks_are_those_of_the_cells(core: Core) -> None:
    # the difficulty feature "pieces to turn over", on every deck task with a piece that has
    # mirror images (3D pieces have none): from the solver's masks as from the cells
    before = set_core(core)
    try:
        for name in ("classic", "extreme", "trigo"):
            for area, pieces in deck_tasks(name):
                expected = fewest_flips(pieces, solutions(area, pieces))
                assert flips_needed(area, pieces) == expected
    finally:
        set_core(before)


# --- random puzzles of every lattice ----------------------------------------------------------


def bigger_case(rng: random.Random, lat: Lattice) -> tuple[Area, list[Piece]]:
    """4 to 6 of an edition's pieces on an area laid from them: more states, walled-in cells,
    the forward count's grouped states."""
    name = {SQUARE: "classic", HEXAGON: "extreme", TRIANGLE: "trigo", CUBE: "3d"}[lat]
    pieces = rng.sample(list(edition(name).pieces), rng.randint(4, 5 if lat is CUBE else 6))
    return Area(lat, frozenset(build(rng, lat, pieces, ORIGIN[lat]))), pieces


CASES: dict[str, Callable[[random.Random], tuple[Area, list[Piece]]]] = {
    "square": lambda rng: flat_case(rng, SQUARE),
    "hexagon": lambda rng: flat_case(rng, HEXAGON),
    "triangle": lambda rng: flat_case(rng, TRIANGLE),
    "trigo two regions": trigo_case,
    "3d two levels": three_d_case,
    "solid of cubes": solid_case,
    "square, more pieces": lambda rng: bigger_case(rng, SQUARE),
    "hexagon, more pieces": lambda rng: bigger_case(rng, HEXAGON),
    "triangle, more pieces": lambda rng: bigger_case(rng, TRIANGLE),
    "cube, more pieces": lambda rng: bigger_case(rng, CUBE),
}


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(sorted(CASES)), seed=st.integers(0, 2**32))
def test_random_puzzles_of_every_lattice(kind: str, seed: int) -> None:
    assert_cores_agree(*CASES[kind](random.Random(seed)))


def test_a_problem_built_by_hand() -> None:
    # a rectangle with one piece's placements restricted (as the pentomino bench does for X)
    ed = edition("classic")
    area = Area.from_rows(["####"] * 4)
    pieces = [ed.piece(p) for p in "AEIK"]  # 56 covers
    assert sum(p.size for p in pieces) == area.size
    everything = ExactCover.for_area(area, pieces)
    candidates: dict[str, list[frozenset[Cell]]] = {p.id: [] for p in pieces}
    for solution in everything.solutions():
        for pid, cells in solution.items():
            if cells not in candidates[pid]:
                candidates[pid].append(cells)
    first = pieces[0].id
    candidates[first] = candidates[first][::2]
    problem = ExactCover(sorted(area.cells), candidates, SQUARE)
    compiled = findings("compiled", problem)
    assert compiled == findings("python", problem)
    assert 0 < compiled[0].solutions < everything.stats().solutions


# --- the widths of masks, and what the compiled core leaves to Python -------------------------


def two_regions(gap: int) -> tuple[Area, list[Piece]]:
    """Two rectangles of 2 x 3 and 2 x 2 cells, ``gap`` columns apart, and a square and three
    dominoes to fill them: about 5 bits a column on the grid, so the gap sets the width."""
    classic = edition("classic")
    domino = classic.piece("A")
    pieces = [make_piece(f"d{i}", domino.cells, "square") for i in range(3)]
    pieces.append(make_piece("o", [(0, 0), (1, 0), (0, 1), (1, 1)], "square"))
    return Area.from_rows(["###" + "." * gap + "##"] * 2), pieces


@pytest.mark.parametrize(("gap", "words"), [(6, 1), (16, 2), (40, 4), (60, None)])
def test_each_width_of_mask(gap: int, words: int | None) -> None:
    area, pieces = two_regions(gap)
    compiled = ExactCover.for_area(area, pieces)._compiled()
    assert (compiled.words if compiled is not None else None) == words
    if compiled is not None:
        assert assert_cores_agree(area, pieces) > 1
    else:  # over 256 bits: the Python core searches, and gives the same answers
        problem = ExactCover.for_area(area, pieces)
        assert findings("compiled", problem) == findings("python", problem)


def test_more_pieces_than_the_compiled_core_holds_go_to_python() -> None:
    square = make_piece("o", [(0, 0)], "square")
    pieces = [make_piece(f"o{i}", square.cells, "square") for i in range(33)]
    area = Area.from_rows(["#" * 11] * 3)
    assert ExactCover.for_area(area, pieces)._compiled() is None


def test_a_count_past_64_bits_is_an_overflow_not_a_wrong_number() -> None:
    # 32 one-cell pieces (the most the compiled core holds) in a row of 32 cells, the first 16
    # pieces kept to the first 16 cells and the others to the rest: 16! * 16! covers, over
    # 2**64.  The compiled core says it cannot count them (stats() would then ask Python).
    row = [(x, 0) for x in range(32)]
    candidates = {
        f"o{i}": [frozenset({cell}) for cell in (row[:16] if i < 16 else row[16:])]
        for i in range(32)
    }
    compiled = ExactCover(row, candidates, SQUARE)._compiled()
    assert compiled is not None
    with pytest.raises(OverflowError):
        compiled.count_all()
    with pytest.raises(OverflowError):
        compiled.count(2**70)
    assert compiled.count(10)[0] >= 10


def test_candidates_of_mixed_sizes_do_not_crash_the_compiled_core() -> None:
    # a piece whose candidates are not all of one size (ExactCover asks that they are) can
    # fill the area with a piece left over: a dead end, not a read past the tables
    row = [(0, 0), (1, 0), (2, 0)]
    candidates = {
        "a": [frozenset(row[:1]), frozenset(row)],
        "b": [frozenset(row[1:])],
    }
    compiled = ExactCover(row, candidates, SQUARE)._compiled()
    assert compiled is not None
    assert compiled.count_all()[0] == compiled.count(5)[0] == 1
    assert list(compiled.solutions())  # (as the Python search, it stops at a full area)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
        timeout=120,
    )


def test_without_the_compiled_core_one_warning_and_the_same_answers() -> None:
    code = (
        "import sys; sys.modules['ubongo._exact'] = None\n"  # an import that fails
        "from ubongo import solver\n"
        "from ubongo.board import Area\n"
        "from ubongo.pieces import edition\n"
        "ed = edition('classic')\n"
        "area = Area.from_rows(['.##..', '####.', '.####', '.###.'])\n"
        "for _ in range(3): print(solver.count(area, [ed.piece(p) for p in 'DIG']))\n"
        "print(solver.current_core(), solver.set_core('compiled'), solver.current_core())\n"
    )
    done = run_python(code, UBONGO_SOLVER_CORE="")
    assert done.stdout.split() == ["1", "1", "1", "python", "python", "python"]
    warned = [line for line in done.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(warned) == 1 and "not built" in warned[0]


def test_the_environment_chooses_the_python_core() -> None:
    code = "from ubongo import solver; print(solver.COMPILED, solver.current_core())"
    assert run_python(code, UBONGO_SOLVER_CORE="python").stdout.split() == ["True", "python"]
    assert run_python(code, UBONGO_SOLVER_CORE="").stdout.split() == ["True", "compiled"]
