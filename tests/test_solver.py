"""The solver against the reference puzzles and against an independent brute force, with each
of its cores (the compiled one and the pure-Python one)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence

import pytest

from ubongo.board import Area, check_cover, placements_of
from ubongo.geometry import CUBE, HEXAGON, SQUARE, TRIANGLE, Cell, Lattice
from ubongo.pieces import Piece, edition, make_piece
from ubongo.solver import COMPILED, Core, count, search_stats, set_core, solutions, solve

Cover = frozenset[tuple[str, frozenset[Cell]]]


@pytest.fixture(autouse=True, params=["compiled", "python"])
def core(request: pytest.FixtureRequest) -> Iterator[Core]:
    """Every test here runs with each core (where the compiled one is not built, twice with
    the Python one)."""
    chosen: Core = request.param
    before = set_core(chosen)
    yield chosen
    set_core(before)


def brute_force(area: Area, pieces: Sequence[Piece]) -> set[Cover]:
    """Every cover, found the plain way: each piece in turn, in every placement inside the
    solid (every allowed transform, every translation that lands a cell on a cell of the
    solid), keeping combinations that do not overlap and fill the solid exactly."""
    solid = area.solid
    lat = area.piece_lattice
    d = lat.translation_dims
    options: list[list[frozenset[Cell]]] = []
    for piece in pieces:
        found: set[frozenset[Cell]] = set()
        for t in piece.allowed_transforms:
            turned = [lat.apply(t, c) for c in piece.cells]
            for target in solid:
                for source in turned:
                    if target[d:] != source[d:]:
                        continue  # a translation cannot turn an upward triangle downward
                    offset = tuple(a - b for a, b in zip(target[:d], source[:d], strict=True))
                    cells = frozenset(lat.translate(c, offset) for c in turned)
                    if cells <= solid:
                        found.add(cells)
        options.append(sorted(found, key=sorted))
    covers: set[Cover] = set()

    def place(i: int, used: frozenset[Cell], chosen: list[tuple[str, frozenset[Cell]]]) -> None:
        if i == len(pieces):
            if used == solid:
                covers.add(frozenset(chosen))
            return
        for cells in options[i]:
            if used.isdisjoint(cells):
                place(i + 1, used | cells, [*chosen, (pieces[i].id, cells)])

    place(0, frozenset(), [])
    return covers


def as_cover(solution: dict[str, frozenset[Cell]]) -> Cover:
    return frozenset(solution.items())


def assert_solver_agrees(area: Area, pieces: Sequence[Piece]) -> int:
    """Compare everything the solver says about a puzzle with the brute force; return the count."""
    expected = brute_force(area, pieces)
    found = [as_cover(s) for s in solutions(area, pieces)]
    assert len(found) == len(set(found)), "a solution was reported twice"
    assert set(found) == expected
    assert count(area, pieces) == len(expected)
    assert count(area, pieces, limit=1) == min(1, len(expected))
    assert search_stats(area, pieces).solutions == len(expected)
    one = solve(area, pieces)
    assert (one is None) == (not expected)
    if one is not None:
        assert as_cover(one) in expected
        verdict = check_cover(area, pieces, placements_of({p.id: p for p in pieces}, one))
        assert verdict.ok, verdict.reason
    return len(expected)


# ---------------------------------------------------------------- the examples of pieces.md

CLASSIC = edition("classic")


@pytest.mark.parametrize(
    ("rows", "names"),
    [
        ([".##..", "####.", ".####", ".###."], ["T4", "Y5", "S4"]),
        ([".##.", ".###", ".###", "####", "##..", "##.."], ["V3", "I3", "Y5", "L5"]),
    ],
)
def test_reference_examples_are_solvable(rows: list[str], names: list[str]) -> None:
    by_name = {p.name: p for p in CLASSIC.pieces}
    pieces = [by_name[n] for n in names]
    area = Area.from_rows(rows)
    assert area.size == sum(p.size for p in pieces)
    everything = list(solutions(area, pieces))
    assert everything
    for solution in everything:
        assert sorted(solution) == sorted(p.id for p in pieces)
        verdict = check_cover(area, pieces, placements_of({p.id: p for p in pieces}, solution))
        assert verdict.ok, verdict.reason
    assert count(area, pieces) == len(everything) == len(brute_force(area, pieces))


# ---------------------------------------------------------------- random small cases


def grow(
    rng: random.Random, lat: Lattice, start: Cell, size: int, compact: bool = False
) -> set[Cell]:
    """A random connected set of ``size`` cells containing ``start``; ``compact`` prefers
    cells with many neighbours already in the set (blobs, which have more covers)."""
    cells = {start}
    while len(cells) < size:
        frontier = sorted({n for c in cells for n in lat.neighbours(c)} - cells)
        if compact:
            weights = [4 ** sum(n in cells for n in lat.neighbours(c)) for c in frontier]
            cells.add(rng.choices(frontier, weights)[0])
        else:
            cells.add(rng.choice(frontier))
    return cells


def build(rng: random.Random, lat: Lattice, pieces: Sequence[Piece], start: Cell) -> set[Cell]:
    """An area that the pieces certainly cover: put them down one by one, each touching the
    ones before it, in random orientations."""
    d = lat.translation_dims
    union: set[Cell] = set()
    for piece in pieces:
        while True:
            shape = sorted(lat.orient(piece.cells, rng.choice(piece.allowed_transforms)))
            if union:
                target = rng.choice(sorted({n for c in union for n in lat.neighbours(c)} - union))
            else:
                target = start
            sources = [c for c in shape if c[d:] == target[d:]]
            if not sources:
                continue
            source = rng.choice(sources)
            offset = tuple(a - b for a, b in zip(target[:d], source[:d], strict=True))
            cells = {lat.translate(c, offset) for c in shape}
            if union.isdisjoint(cells):
                union |= cells
                break
    return union


def random_piece(rng: random.Random, lat: Lattice, id: str, size: int) -> Piece:
    origin = (0, 0, 0) if lat in (TRIANGLE, CUBE) else (0, 0)
    cells = grow(rng, lat, origin, size)
    reflections = lat is not CUBE and rng.random() < 0.7
    return make_piece(id, cells, lat.name, reflections=reflections)


EDITION_OF = {SQUARE: "classic", HEXAGON: "extreme", TRIANGLE: "trigo"}
ORIGIN = {SQUARE: (0, 0), HEXAGON: (0, 0), TRIANGLE: (0, 0, 0), CUBE: (0, 0, 0)}


def flat_case(rng: random.Random, lat: Lattice) -> tuple[Area, list[Piece]]:
    """A flat puzzle: edition pieces or home-made ones, on an area built from them (so it has
    a solution), on a random area of the right size, or with the sizes not adding up."""
    if rng.random() < 0.75:
        pool = list(edition(EDITION_OF[lat]).pieces)
        pieces = rng.sample(pool, rng.choice((2, 3, 3)))
    else:
        sizes = [rng.randint(1, 4) for _ in range(rng.choice((2, 3, 4)))]
        pieces = [random_piece(rng, lat, f"p{i}", s) for i, s in enumerate(sizes)]
    total = sum(p.size for p in pieces)
    kind = rng.random()
    if kind < 0.6:
        cells = build(rng, lat, pieces, ORIGIN[lat])
    elif kind < 0.9:
        cells = grow(rng, lat, ORIGIN[lat], total, compact=rng.random() < 0.7)
    else:
        cells = grow(rng, lat, ORIGIN[lat], total + rng.choice((-1, 1)))
    return Area(lat, frozenset(cells)), pieces


def trigo_case(rng: random.Random) -> tuple[Area, list[Piece]]:
    """Two separate regions, as on a Trigo card, each built from some of the pieces."""
    pieces = rng.sample(list(edition("trigo").pieces), 3)
    split = rng.choice((1, 2))
    left = build(rng, TRIANGLE, pieces[:split], (0, 0, 0))
    right = build(rng, TRIANGLE, pieces[split:], (12, 0, 1))
    assert len(TRIANGLE.components(left | right)) == 2
    return Area(TRIANGLE, frozenset(left | right)), pieces


def three_d_case(rng: random.Random) -> tuple[Area, list[Piece]]:
    """A flat area filled on two levels, with 3D pieces whose volume is twice its size."""
    pool = list(edition("3d").pieces)
    while True:
        pieces = rng.sample(pool, rng.choice((2, 3)))
        volume = sum(p.size for p in pieces)
        if volume % 2 == 0:
            break
    cells = grow(rng, SQUARE, (0, 0), volume // 2, compact=True)
    return Area(SQUARE, frozenset(cells), layers=2), pieces


def solid_case(rng: random.Random) -> tuple[Area, list[Piece]]:
    """Any solid of cubes (not only a two-level prism), built from the 3D pieces."""
    pieces = rng.sample(list(edition("3d").pieces), 2)
    return Area(CUBE, frozenset(build(rng, CUBE, pieces, (0, 0, 0)))), pieces


CASES = 30


@pytest.mark.parametrize("lat", [SQUARE, HEXAGON, TRIANGLE], ids=lambda lat: lat.name)
def test_flat_lattices_agree_with_brute_force(lat: Lattice) -> None:
    rng = random.Random(f"flat {lat.name}")
    counts = [assert_solver_agrees(*flat_case(rng, lat)) for _ in range(CASES)]
    assert max(counts) > 1 and not all(counts)  # several covers, and none, were tried


def test_trigo_two_regions_agree_with_brute_force() -> None:
    rng = random.Random("trigo")
    counts = [assert_solver_agrees(*trigo_case(rng)) for _ in range(CASES // 2)]
    assert all(counts)


def test_3d_two_levels_agree_with_brute_force() -> None:
    rng = random.Random("3d")
    counts = [assert_solver_agrees(*three_d_case(rng)) for _ in range(CASES)]
    assert max(counts) > 1 and not all(counts)


def test_3d_rectangles_agree_with_brute_force() -> None:
    ed = edition("3d")
    area = Area(SQUARE, frozenset((x, y) for x in range(3) for y in range(2)), layers=2)
    counts = {
        ids: assert_solver_agrees(area, [ed.piece(i) for i in ids])
        for ids in (
            ("green3", "red4", "yellow5"),
            ("green3", "red4", "blue5"),
            ("red2", "green5", "blue5"),
        )
    }
    assert counts[("green3", "red4", "yellow5")] > 0


def test_solids_of_cubes_agree_with_brute_force() -> None:
    rng = random.Random("solid")
    counts = [assert_solver_agrees(*solid_case(rng)) for _ in range(CASES // 2)]
    assert all(counts)


# ---------------------------------------------------------------- edges and promises


def test_solutions_differ_by_cells_not_by_symmetry() -> None:
    # two dominoes: a 1x4 strip has 2 covers (which one is on the left), a 2x2 square 4
    a = CLASSIC.piece("A")
    a2 = make_piece("A2", a.cells, "square")
    assert count(Area.from_rows(["####"]), [a, a2]) == 2
    assert count(Area.from_rows(["##", "##"]), [a, a2]) == 4


def test_sizes_that_do_not_add_up_have_no_solution() -> None:
    area = Area.from_rows(["###"])
    assert solve(area, [CLASSIC.piece("A")]) is None
    assert count(area, [CLASSIC.piece("A"), CLASSIC.piece("B")]) == 0
    assert count(area, [CLASSIC.piece("B")]) == 1


def test_limit_stops_counting() -> None:
    area = Area.from_rows(["####", "####", "####"])
    pieces = [CLASSIC.piece(p) for p in "BEK"]
    total = count(area, pieces)
    assert total > 2
    assert count(area, pieces, limit=2) == 2
    assert count(area, pieces, limit=total + 5) == total


def test_search_reports_nodes() -> None:
    area = Area.from_rows([".##..", "####.", ".####", ".###."])
    stats = search_stats(area, [CLASSIC.piece(p) for p in "DIG"])
    assert stats.solutions == count(area, [CLASSIC.piece(p) for p in "DIG"])
    assert stats.nodes >= 3 * stats.solutions > 0


@pytest.mark.skipif(os.environ.get("CI") != "true", reason="only where CI sets the project up")
def test_ci_builds_the_compiled_core() -> None:
    # the product falls back to the Python core with a warning; CI must not, or the compiled
    # core's tests (tests/test_exact_core.py) would be skipped there unnoticed
    assert COMPILED, "ubongo._exact was not built by pip install -e ."


def test_pieces_must_suit_the_area() -> None:
    area = Area.from_rows(["##"])
    with pytest.raises(ValueError, match="lattice"):
        count(area, [edition("extreme").piece(1)])
    with pytest.raises(ValueError, match="twice"):
        count(area, [CLASSIC.piece("A"), CLASSIC.piece("A")])
