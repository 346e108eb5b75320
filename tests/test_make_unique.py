"""The editor's "Make it unique" (ubongo.puzzles.unique): the set it proposes really has one
solution, by the solver and by a brute force that knows nothing of it, on small areas of
every lattice; "none" when no set can be, told apart from "none within the bound"."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from ubongo.board import Area
from ubongo.geometry import Cell
from ubongo.pieces import Edition, Piece, edition
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.unique import MOST_PIECES, candidates, make_unique
from ubongo.solver import count

EDITIONS = ["classic", "3d", "extreme", "trigo"]


def _placements(area: Area, piece: Piece) -> set[frozenset[Cell]]:
    """Every cell set ``piece`` covers inside ``area``: each orientation, each of its cells
    moved onto each area cell of the same kind."""
    lat = area.piece_lattice
    d = lat.translation_dims
    ways: set[frozenset[Cell]] = set()
    for shape in piece.orientations:
        for target in area.solid:
            for own in shape:
                if own[d:] != target[d:]:
                    continue  # (a triangle's kind is not changed by a move)
                offset = tuple(t - o for t, o in zip(target[:d], own[:d], strict=True))
                cells = frozenset(lat.translate(c, offset) for c in shape)
                if cells <= area.solid:
                    ways.add(cells)
    return ways


def brute_count(area: Area, pieces: Sequence[Piece], limit: int = 3) -> int:
    """Exact covers of ``area`` by ``pieces`` counted the slow way (up to ``limit``): every
    orientation moved onto every cell, then the lowest empty cell filled by each piece left."""
    solid = area.solid
    placed = [_placements(area, piece) for piece in pieces]

    def cover(left: frozenset[Cell], unused: tuple[int, ...]) -> int:
        if not left:
            return 1
        first = min(left)
        found = 0
        for i in unused:
            for cells in placed[i]:
                if first in cells and cells <= left:
                    rest = tuple(j for j in unused if j != i)
                    found += cover(left - cells, rest)
                    if found >= limit:
                        return found
        return found

    return cover(solid, tuple(range(len(pieces))))


def grown_area(ed: Edition, rng: random.Random, size: int) -> Area:
    """A random connected area of ``size`` cells on ``ed``'s area lattice."""
    lat = ed.area_lattice
    start: Cell = (0, 0, 0) if lat.name == "triangle" else (0, 0)
    cells = {start}
    while len(cells) < size:
        nxt = rng.choice(sorted(n for c in cells for n in lat.neighbours(c) if n not in cells))
        cells.add(nxt)
    return Area(lat, frozenset(cells), ed.layers)


def proven_unique(area: Area, ed: Edition, ids: Sequence[str]) -> None:
    pieces = [ed.piece(i) for i in ids]
    assert sum(p.size for p in pieces) == area.size
    assert count(area, pieces, limit=2) == 1
    assert brute_count(area, pieces) == 1


@pytest.mark.parametrize("name", EDITIONS)
def test_proposals_on_random_small_areas_have_one_solution(name: str) -> None:
    ed = edition(name)
    rng = random.Random(f"unique-{name}")
    proposed = 0
    for _ in range(25):
        size = rng.randint(5, 10) if ed.layers == 1 else rng.randint(3, 6)
        area = grown_area(ed, rng, size)
        found = make_unique(area, ed)
        if found.pieces is not None:
            proposed += 1
            proven_unique(area, ed, found.pieces)
        elif found.complete:
            # none exists: every candidate set has no solution or several, by brute force too
            for chosen in candidates(area, ed):
                assert brute_count(area, chosen) != 1
    assert proposed >= 5  # (a test of something: most small areas have a unique set)


@pytest.mark.parametrize("name", EDITIONS)
def test_proposals_on_the_decks_areas(name: str) -> None:
    ed = edition(name)
    for card in standard_deck(name).cards[:4]:
        for side in card.sides:
            found = make_unique(side.area, ed)
            assert found.tried <= found.candidates
            if found.pieces is not None:
                proven_unique(side.area, ed, found.pieces)
                assert len(found.pieces) <= MOST_PIECES


def test_the_pieces_chosen_are_kept_where_they_can_be() -> None:
    classic = edition("classic")
    area = Area.from_rows([".##..", "####.", ".####", ".###."])
    found = make_unique(area, classic, keep=["D", "I", "G"])
    assert found.pieces == ("D", "G", "I") and found.tried == 1  # already unique: kept as it is
    found = make_unique(area, classic, keep=["D", "I", "A"])
    assert found.pieces is not None and {"D", "I"} <= set(found.pieces)
    proven_unique(area, classic, found.pieces)


def test_none_when_no_set_adds_up_or_none_is_unique() -> None:
    classic = edition("classic")
    one = make_unique(Area.from_rows(["#"]), classic)
    assert (one.pieces, one.candidates, one.complete) == (None, 0, True)
    # a 3D deck area on which no set of pieces is unique (a symmetric slab): all counted
    cube = edition("3d")
    side = standard_deck("3d").cards[0].sides[0]
    found = make_unique(side.area, cube)
    assert found.pieces is None and found.complete and found.tried == found.candidates > 0
    for chosen in candidates(side.area, cube):
        assert count(side.area, chosen, limit=2) != 1


def test_the_bound_is_said_apart_from_none() -> None:
    classic = edition("classic")
    area = Area.from_rows(["####", "####", "####"])
    assert make_unique(area, classic, most_sets=0) == make_unique(area, classic, most_nodes=0)
    bounded = make_unique(area, classic, most_sets=0)
    assert bounded.pieces is None and not bounded.complete and bounded.tried == 0
    assert bounded.candidates > 0


def test_the_area_must_be_on_the_editions_lattice() -> None:
    with pytest.raises(ValueError, match="lattice"):
        make_unique(Area.from_rows(["##"]), edition("extreme"))
