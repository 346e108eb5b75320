"""Areas, placements and check_cover: every verdict, on real solutions."""

from __future__ import annotations

import pytest

from ubongo.board import Area, Placement, Verdict, check_cover, placements_of
from ubongo.geometry import CUBE, HEXAGON, SQUARE, TRIANGLE, Cell
from ubongo.pieces import Piece, edition, make_piece
from ubongo.solver import solve

CLASSIC = edition("classic")
# pieces.md, first example puzzle: T4 + Y5 + S4
EXAMPLE_ROWS = [".##..", "####.", ".####", ".###."]


def classic_task() -> tuple[Area, list[Piece], list[Placement]]:
    area = Area.from_rows(EXAMPLE_ROWS)
    pieces = [CLASSIC.piece(p) for p in "DIG"]
    solution = solve(area, pieces)
    assert solution is not None
    return area, pieces, placements_of({p.id: p for p in pieces}, solution)


def replaced(placements: list[Placement], pid: str, new: Placement) -> list[Placement]:
    return [new if p.piece == pid else p for p in placements]


def moved(pl: Placement, *delta: int) -> Placement:
    return Placement(
        pl.piece, pl.transform, tuple(o + d for o, d in zip(pl.offset, delta, strict=True))
    )


def test_area_from_rows_and_back() -> None:
    area = Area.from_rows(EXAMPLE_ROWS)
    assert area.size == 13 and area.lattice is SQUARE and area.piece_lattice is SQUARE
    assert (1, 0) in area.cells and (0, 0) not in area.cells
    assert area.rows() == EXAMPLE_ROWS
    assert len(area.regions) == 1


def test_layered_area_is_a_prism_of_cubes() -> None:
    area = Area(SQUARE, frozenset({(0, 0), (1, 0)}), layers=2)
    assert area.piece_lattice is CUBE
    assert area.solid == {(0, 0, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1)}
    assert area.size == 4
    with pytest.raises(ValueError, match="only square areas"):
        Area(HEXAGON, frozenset({(0, 0)}), layers=2)


def test_trigo_area_has_two_regions() -> None:
    left = {(0, 0, 0), (0, 0, 1), (1, 0, 0)}
    right = {(5, 0, 0), (5, 0, 1)}
    area = Area(TRIANGLE, frozenset(left | right))
    assert set(area.regions) == {frozenset(left), frozenset(right)}


def test_placement_cells_and_covering_agree() -> None:
    for piece in CLASSIC.pieces:
        for t in piece.allowed_transforms:
            cells = Placement(piece.id, t, (3, -1)).cells(piece)
            assert len(cells) == piece.size
            assert SQUARE.anchor(cells) == (3, -1)
            again = Placement.covering(piece, cells)
            assert again.cells(piece) == cells and again.offset == (3, -1)
    with pytest.raises(ValueError, match="cannot be turned"):
        Placement.covering(CLASSIC.piece("H"), {(0, 0), (1, 0), (2, 0), (3, 0)})
    with pytest.raises(ValueError, match="no cells"):
        Placement.covering(CLASSIC.piece("H"), set())


def test_a_real_solution_is_covered() -> None:
    area, pieces, placements = classic_task()
    verdict = check_cover(area, pieces, placements)
    assert verdict.ok and bool(verdict) and verdict.code == "covered"
    # the order of the placements does not matter
    assert check_cover(area, pieces, placements[::-1]).ok


def expect(verdict: Verdict, code: str, words: str) -> None:
    assert not verdict.ok and not bool(verdict)
    assert verdict.code == code
    assert words in verdict.reason, verdict.reason


def test_unknown_piece() -> None:
    area, pieces, placements = classic_task()
    extra = Placement("A", 0, (0, 0))
    expect(check_cover(area, pieces, [*placements, extra]), "unknown_piece", "piece A is not part")


def test_duplicate_piece() -> None:
    area, pieces, placements = classic_task()
    twice = [*placements, placements[0]]
    expect(
        check_cover(area, pieces, twice),
        "duplicate_piece",
        f"{placements[0].piece} is placed twice",
    )


def test_bad_transform_index() -> None:
    area, pieces, placements = classic_task()
    first = placements[0]
    for t in (8, -1):
        bad = replaced(placements, first.piece, Placement(first.piece, t, first.offset))
        expect(check_cover(area, pieces, bad), "bad_transform", "has no such turn")


def test_mirroring_a_piece_that_may_not_be_mirrored() -> None:
    area = Area.from_rows(["##", "#.", "#."])
    l_piece = make_piece("L", [(0, 0), (1, 0), (0, 1), (0, 2)], "square", reflections=False)
    assert check_cover(area, [l_piece], [Placement("L", 0, (0, 0))]).ok
    mirror = next(t for t, m in enumerate(SQUARE.transforms) if m.is_reflection)
    verdict = check_cover(area, [l_piece], [Placement("L", mirror, (0, 0))])
    expect(verdict, "bad_transform", "cannot be mirrored")


def test_bad_position() -> None:
    area, pieces, placements = classic_task()
    first = placements[0]
    bad = replaced(placements, first.piece, Placement(first.piece, first.transform, (0, 0, 0)))
    expect(check_cover(area, pieces, bad), "bad_position", "wrong shape")
    # a square piece on a 3D board
    cube_area = Area(SQUARE, frozenset({(0, 0), (1, 0)}), layers=2)
    verdict = check_cover(cube_area, [CLASSIC.piece("A")], [Placement("A", 0, (0, 0))])
    expect(verdict, "bad_position", "piece A")


def test_missing_piece() -> None:
    area, pieces, placements = classic_task()
    expect(check_cover(area, pieces, placements[:2]), "missing_piece", "is not placed")
    verdict = check_cover(area, pieces, placements[:1])
    expect(verdict, "missing_piece", "are not placed")
    assert sorted(verdict.reason.split("pieces ")[1].split(" are")[0].split(", ")) == sorted(
        p.piece for p in placements[1:]
    )


def test_outside() -> None:
    area, pieces, placements = classic_task()
    first = placements[0]
    for delta in ((10, 0), (-10, 0), (0, 10), (0, -10)):
        bad = replaced(placements, first.piece, moved(first, *delta))
        expect(check_cover(area, pieces, bad), "outside", "sticks out of the area")


def test_overlap() -> None:
    # two I2 dominoes on a 2x2 square, both on the top row
    area = Area.from_rows(["##", "##"])
    a = CLASSIC.piece("A")
    a2 = make_piece("A2", a.cells, "square")
    horizontal = next(
        t for t in a.allowed_transforms if Placement("A", t, (0, 0)).cells(a) == {(0, 0), (1, 0)}
    )
    good = [Placement("A", horizontal, (0, 0)), Placement("A2", horizontal, (0, 1))]
    assert check_cover(area, [a, a2], good).ok
    bad = [Placement("A", horizontal, (0, 0)), Placement("A2", horizontal, (0, 0))]
    expect(check_cover(area, [a, a2], bad), "overlap", "pieces A and A2 overlap at (0, 0)")


def test_uncovered() -> None:
    area, pieces, placements = classic_task()
    bigger = Area(SQUARE, area.cells | {(4, 1)})
    expect(check_cover(bigger, pieces, placements), "uncovered", "1 cell not covered, e.g. (4, 1)")
    biggest = Area(SQUARE, area.cells | {(4, 1), (0, 0)})
    expect(
        check_cover(biggest, pieces, placements), "uncovered", "2 cells not covered, e.g. (0, 0)"
    )


def three_d_task() -> tuple[Area, list[Piece], list[Placement]]:
    ed = edition("3d")
    area = Area(SQUARE, frozenset((x, y) for x in range(3) for y in range(2)), layers=2)
    pieces = [ed.piece(p) for p in ("green3", "red4", "yellow5")]
    solution = solve(area, pieces)
    assert solution is not None
    return area, pieces, placements_of({p.id: p for p in pieces}, solution)


def test_3d_solution_is_covered_and_nothing_may_go_higher() -> None:
    area, pieces, placements = three_d_task()
    assert check_cover(area, pieces, placements).ok
    for pl in placements:
        up = replaced(placements, pl.piece, moved(pl, 0, 0, 1))
        verdict = check_cover(area, pieces, up)
        expect(verdict, "outside", "goes higher than the top level")
        assert verdict.reason.startswith(f"piece {pl.piece} ")
    below = replaced(placements, placements[0].piece, moved(placements[0], 0, 0, -1))
    expect(check_cover(area, pieces, below), "outside", "sticks out of the area")
    aside = replaced(placements, placements[0].piece, moved(placements[0], 3, 0, 0))
    expect(check_cover(area, pieces, aside), "outside", "sticks out of the area")


@pytest.mark.parametrize(
    ("name", "placements"),
    [
        (
            "extreme",
            [Placement("1", 0, (0, 0)), Placement("7", 0, (1, 0)), Placement("2", 3, (0, 3))],
        ),
        (
            "trigo",
            [Placement("1", 0, (0, 0)), Placement("2", 0, (1, 0)), Placement("5", 7, (0, 3))],
        ),
    ],
)
def test_hexagon_and_triangle_covers(name: str, placements: list[Placement]) -> None:
    ed = edition(name)
    pieces = [ed.piece(pl.piece) for pl in placements]
    cells = cells_of(placements, pieces)
    assert sum(len(c) for c in cells.values()) == len(set().union(*cells.values()))  # disjoint
    area = Area(ed.lattice, frozenset().union(*cells.values()))
    assert check_cover(area, pieces, placements).ok
    nudged = [moved(placements[0], 0, 1), *placements[1:]]
    assert not check_cover(area, pieces, nudged).ok
    # the solver finds a cover too, and every cover it finds passes
    solution = solve(area, pieces)
    assert solution is not None
    assert check_cover(area, pieces, placements_of({p.id: p for p in pieces}, solution)).ok


def cells_of(placements: list[Placement], pieces: list[Piece]) -> dict[str, frozenset[Cell]]:
    by_id = {p.id: p for p in pieces}
    return {pl.piece: pl.cells(by_id[pl.piece]) for pl in placements}


def test_placements_of_round_trip() -> None:
    _, pieces, placements = classic_task()
    solution = cells_of(placements, pieces)
    assert cells_of(placements_of({p.id: p for p in pieces}, solution), pieces) == solution
