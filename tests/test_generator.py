"""The generator: determinism from the seed, small decks of every edition, shapes, difficulty."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ubongo import editions
from ubongo.board import Area
from ubongo.geometry import HEXAGON, SQUARE, TRIANGLE
from ubongo.pieces import edition
from ubongo.puzzles.deck import Deck, standard_deck
from ubongo.puzzles.difficulty import (
    compactness,
    expected_seconds,
    fewest_flips,
    least_perimeter,
    measure,
    mirrored,
    perimeter,
    placement_count,
    placements,
)
from ubongo.puzzles.generator import Stats, generate_deck
from ubongo.puzzles.shapes import hole_free, polyominoes
from ubongo.solver import solutions


def _without_nodes(deck: Deck) -> Any:
    """A deck's JSON without the solver's node counts, which change when the solver gets smarter
    (nothing the generator decides depends on them)."""
    data = json.loads(deck.dumps())
    for card in data["cards"]:
        for side in card["sides"]:
            for task in side["tasks"]:
                task.pop("nodes")
                task["features"].pop("nodes")
    return data


@pytest.mark.parametrize("name", ["classic", "3d", "extreme", "trigo"])
def test_regenerating_a_standard_deck_from_its_seed_gives_the_shipped_deck(name: str) -> None:
    shipped = standard_deck(name)
    again = generate_deck(name, editions.record(name).deck.seed)
    assert _without_nodes(again) == _without_nodes(shipped)


def test_another_seed_gives_another_deck() -> None:
    a = generate_deck("extreme", 11, cards=3)
    b = generate_deck("extreme", 12, cards=3)
    assert [s.area for c in a.cards for s in c.sides] != [s.area for c in b.cards for s in c.sides]


@pytest.mark.parametrize("name", ["classic", "3d", "extreme", "trigo"])
def test_small_decks_round_trip_through_json(name: str) -> None:
    deck = generate_deck(name, 99, cards=2)
    assert len(deck.cards) == 2
    assert Deck.loads(deck.dumps()).dumps() == deck.dumps()


def test_progress_reports_every_side() -> None:
    seen: list[tuple[int, int]] = []
    stats = Stats()
    generate_deck(
        "classic", 5, cards=3, progress=lambda done, total: seen.append((done, total)), stats=stats
    )
    assert seen == [(i, 6) for i in range(1, 7)]
    # six tasks per side were found, and the solver was not called for much more than that
    assert stats.solvable >= 36
    assert stats.solver_calls >= stats.solvable


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("chess", 1), "unknown edition"),
        (("classic", -1), "seed"),
        (("classic", True), "seed"),
    ],
)
def test_bad_arguments(args: tuple[Any, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate_deck(*args)


def test_no_cards_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one card"):
        generate_deck("classic", 1, cards=0)


def test_polyomino_counts_are_the_known_ones() -> None:
    # hole-free polyominoes up to rotation and reflection (OEIS A000104)
    assert [len(polyominoes(n)) for n in range(1, 9)] == [1, 1, 2, 5, 12, 35, 107, 363]


def test_hole_free() -> None:
    ring = Area.from_rows(["###", "#.#", "###"]).cells
    assert not hole_free(SQUARE, ring)
    assert hole_free(SQUARE, ring | {(1, 1)})
    hex_ring = frozenset(HEXAGON.neighbours((0, 0)))
    assert not hole_free(HEXAGON, hex_ring)
    assert hole_free(HEXAGON, hex_ring | {(0, 0)})
    # the six triangles around a lattice point, less one, leave no hole; a triangle's three
    # edge neighbours shut it in
    hexagon = frozenset({(0, 0, 0), (-1, 0, 1), (-1, 0, 0), (-1, -1, 1), (0, -1, 0), (0, -1, 1)})
    assert hole_free(TRIANGLE, hexagon)
    assert hole_free(TRIANGLE, hexagon - {(0, 0, 0)})
    assert not hole_free(TRIANGLE, frozenset(TRIANGLE.neighbours((0, 0, 0))))


# --- difficulty -------------------------------------------------------------------------------


def test_placements_count_every_way_a_piece_fits() -> None:
    classic = edition("classic")
    two_by_three = Area.from_rows(["###", "###"])
    assert len(placements(two_by_three, classic.piece("A"))) == 7  # 4 across + 3 down
    assert len(placements(two_by_three, classic.piece("H"))) == 2
    assert placements(two_by_three, classic.piece("F")) == []


def test_perimeters_and_compactness() -> None:
    assert perimeter(SQUARE, Area.from_rows(["##", "##"]).cells) == 8
    assert least_perimeter(SQUARE, 4) == 8
    assert least_perimeter(HEXAGON, 7) == 18  # a hexagon of seven
    assert least_perimeter(TRIANGLE, 6) == 6  # a hexagon of six triangles
    assert compactness(Area.from_rows(["###", "###", "###"])) == 1.0
    assert compactness(Area.from_rows(["#########"])) > 1.5


def test_flips_needed() -> None:
    classic = edition("classic")
    l4 = classic.piece("E")
    mirror = next(i for i, t in enumerate(SQUARE.transforms) if t.is_reflection)
    assert not mirrored(l4, l4.cells)
    assert mirrored(l4, SQUARE.orient(l4.cells, mirror))
    assert not mirrored(classic.piece("F"), SQUARE.orient(classic.piece("F").cells, mirror))
    # an area shaped like the mirrored L can only be filled by turning the piece over
    area = Area(SQUARE, SQUARE.orient(l4.cells, mirror))
    assert fewest_flips([l4], solutions(area, [l4])) == 1
    assert fewest_flips([l4], solutions(Area(SQUARE, l4.cells), [l4])) == 0


def test_score_grows_with_pieces_bits_and_flips() -> None:
    base = {"pieces": 3.0, "bits": 10.0, "flips": 0.0}
    s = expected_seconds(base, "square")
    assert expected_seconds({**base, "pieces": 4.0}, "square") > s
    assert expected_seconds({**base, "bits": 12.0}, "square") > s
    assert expected_seconds({**base, "flips": 1.0}, "square") > s
    assert expected_seconds(base, "cube") > s


def test_measure_bits_fall_with_more_solutions() -> None:
    classic = edition("classic")
    area = Area.from_rows([".##..", "####.", ".####", ".###."])
    pieces = [classic.piece(p) for p in "DIG"]
    one = measure(area, pieces, solutions=1)
    two = measure(area, pieces, solutions=2)
    assert one["bits"] - two["bits"] == pytest.approx(1.0)
    assert one["placements"] == pytest.approx(sum(len(placements(area, p)) for p in pieces) / 3)


@pytest.mark.parametrize("name", ["classic", "3d", "extreme", "trigo"])
def test_placement_count_agrees_with_the_placements(name: str) -> None:
    deck = standard_deck(name)
    for card in deck.cards[:3]:
        for side in card.sides:
            for piece in deck.pieces.pieces:
                found = placements(side.area, piece)
                assert len(set(found)) == len(found) == placement_count(side.area, piece)
                assert all(cells <= side.area.solid for cells in found)
