"""The card maker's fast shape questions (ubongo.puzzles.shapes) against the plain answers.

The plain answers are :mod:`ubongo.geometry`'s (one cell at a time through the transforms of
cell centres) and, for the holes of an area and where the next piece of a growing area goes,
the card maker's first versions, kept here as the reference.  Both must agree on random shapes
of every flat lattice; the standard decks and fresh cards made with the fast ones are
unchanged (tests/test_generator.py).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo.board import Area
from ubongo.geometry import HEXAGON, SQUARE, TRIANGLE, Cell, Lattice
from ubongo.pieces import edition
from ubongo.puzzles import generator, shapes
from ubongo.puzzles.shapes import (
    Box,
    canonical,
    hole_free,
    kinds,
    orient,
    shape_key,
    touching_most,
)
from ubongo.solver import COMPILED, Core, set_core

FLAT = {"square": SQUARE, "hexagon": HEXAGON, "triangle": TRIANGLE}
CORES: list[Core] = ["compiled", "python"] if COMPILED else ["python"]


def random_shape(lat: Lattice, rng: random.Random, size: int) -> frozenset[Cell]:
    """A connected shape of ``size`` cells (sometimes with holes), anywhere near the origin."""
    start = (rng.randrange(-5, 5), rng.randrange(-5, 5), *rng.choice(kinds(lat)))
    cells = {start}
    while len(cells) < size:
        cells.add(rng.choice(lat.neighbours(rng.choice(sorted(cells)))))
    return frozenset(cells)


def hole_free_reference(lat: Lattice, cells: frozenset[Cell]) -> bool:
    """The card maker's first version: the cells around ``cells`` in their box are connected."""
    d = lat.translation_dims
    lo = [min(c[i] for c in cells) - 1 for i in range(d)]
    hi = [max(c[i] for c in cells) + 1 for i in range(d)]
    box = [
        tuple(t) + kind
        for t in itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi, strict=True)))
        for kind in kinds(lat)
    ]
    return len(lat.components([c for c in box if c not in cells])) == 1


def touching_most_reference(
    lat: Lattice, union: set[Cell], orientations: tuple[frozenset[Cell], ...], slack: int
) -> list[frozenset[Cell]]:
    """The card maker's first version of a growing area's next choices: every move of an
    orientation that puts one of its cells on a cell next to ``union``, not overlapping it,
    with its contact (edges shared with the union), those within ``slack`` of the most."""
    d = lat.translation_dims
    touch: dict[Cell, int] = {}
    for c in union:
        for n in lat.neighbours(c):
            if n not in union:
                touch[n] = touch.get(n, 0) + 1
    options: dict[frozenset[Cell], int] = {}
    for shape in orientations:
        for target in touch:
            for sc in shape:
                if sc[d:] != target[d:]:
                    continue
                move = (target[0] - sc[0], target[1] - sc[1])
                placed = frozenset(lat.translate(c, move) for c in shape)
                if placed.isdisjoint(union):
                    options[placed] = sum(touch.get(c, 0) for c in placed)
    best = max(options.values())
    return sorted((p for p, n in options.items() if n >= best - slack), key=sorted)


lattices = st.sampled_from(sorted(FLAT))


@settings(max_examples=300, deadline=None)
@given(name=lattices, seed=st.integers(0, 2**32), size=st.integers(1, 30))
def test_canonical_forms_and_turns_are_geometrys(name: str, seed: int, size: int) -> None:
    lat = FLAT[name]
    cells = random_shape(lat, random.Random(seed), size)
    assert canonical(lat, cells) == lat.canonical(cells)
    assert canonical(lat, cells, lat.rotations) == lat.canonical(cells, lat.rotations)
    for t in range(len(lat.transforms)):
        assert orient(lat, cells, t) == lat.orient(cells, t)
    assert shapes.normalize(cells) == lat.normalize(cells)


@settings(max_examples=300, deadline=None)
@given(name=lattices, seed=st.integers(0, 2**32), size=st.integers(1, 40))
def test_holes_are_found_as_the_reference_finds_them(name: str, seed: int, size: int) -> None:
    lat = FLAT[name]
    cells = random_shape(lat, random.Random(seed), size)
    assert hole_free(lat, cells) == hole_free_reference(lat, cells)
    two = cells | {lat.translate(c, (size + 3, 1)) for c in cells}  # (a copy beside it)
    for some in (cells, two, cells - {min(cells)}):
        assert shapes.parts(lat, some) == len(lat.components(some))


def test_a_box_lays_out_its_cells_one_bit_each_and_knows_their_neighbours() -> None:
    for lat in FLAT.values():
        box = Box(lat, (-2, 3), (4, 7))
        cells = [(x, y, *k) for x in range(-2, 5) for y in range(3, 8) for k in kinds(lat)]
        assert box.mask(cells) == box.all and box.all.bit_count() == len(cells)
        for c in cells:
            inside = {n for n in lat.neighbours(c) if n in set(cells)}
            assert box.cells(box.next_to(1 << box.bit(c))) == inside


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["classic", "extreme", "trigo"]),
    seed=st.integers(0, 2**32),
    slack=st.integers(0, 2),
    core=st.sampled_from(CORES),
)
def test_a_growing_area_has_the_reference_choices(
    name: str, seed: int, slack: int, core: Core
) -> None:
    # with the compiled loop (ubongo._exact.touching) and with its Python reference, on
    # areas of up to eight pieces (boxes of one to several 64-bit words)
    ed = edition(name)
    rng = random.Random(seed)
    pieces = rng.sample(ed.pieces, min(8, len(ed.pieces)))
    union = set(rng.choice(pieces[0].orientations))
    before = set_core(core)
    try:
        for piece in pieces[1:]:
            want = touching_most_reference(ed.lattice, union, piece.orientations, slack)
            box, choices = touching_most(ed.lattice, union, piece.orientations, slack)
            assert [box.cells(p) for p in choices] == want
            union |= rng.choice(want)
    finally:
        set_core(before)


@pytest.mark.parametrize("name", sorted(FLAT))
def test_shape_keys_are_up_to_turns_and_flips(name: str) -> None:
    lat = FLAT[name]
    cells = random_shape(lat, random.Random(7), 12)
    flipped = next(i for i, t in enumerate(lat.transforms) if t.is_reflection)
    assert shape_key(Area(lat, cells)) == shape_key(Area(lat, orient(lat, cells, flipped)))
    assert shapes.polyominoes(5) == tuple(
        sorted({SQUARE.canonical(s) for s in shapes.polyominoes(5)})
    )


@pytest.mark.skipif(not COMPILED, reason="ubongo._exact is not built")
def test_the_compiled_loop_refuses_what_it_cannot_read() -> None:
    from ubongo import _exact

    assert _exact.touching(0b110, 0b10, (0b10, 0, 0), [0b111], [], 0) == []
    assert _exact.touching(0b110, 0b10, (0b10, 0, 0), [0b111], [(0, 1, [])], 0) == [0b10]
    with pytest.raises(ValueError, match="three bit planes"):
        _exact.touching(0b110, 0b10, (0b10, 0), [0b111], [(0, 1, [])], 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="kind has no cells"):
        _exact.touching(0b110, 0b10, (0b10, 0, 0), [0b111], [(1, 1, [])], 0)
    with pytest.raises(OverflowError):  # (wider than its box)
        _exact.touching(1 << 200, 0b10, (0b10, 0, 0), [0b111], [(0, 1, [])], 0)


@settings(max_examples=100, deadline=None)
@given(name=lattices, seed=st.integers(0, 2**32))
def test_a_congruent_set_holds_what_a_set_of_shape_keys_holds(name: str, seed: int) -> None:
    # small shapes, so that many are alike: fingerprints shared, keys equal or not
    lat = FLAT[name]
    rng = random.Random(seed)
    seen, keys = shapes.Congruent(), set()
    for _ in range(30):
        cells = random_shape(lat, rng, rng.randint(1, 6))
        if rng.random() < 0.3:  # a copy beside it: two regions
            cells = cells | {lat.translate(c, (20, 0)) for c in random_shape(lat, rng, 3)}
        area = Area(lat, cells)
        assert (area in seen) == (shape_key(area) in keys)
        if rng.random() < 0.5:  # the area asked about (its fingerprint kept), or another copy
            seen.add(area if rng.random() < 0.5 else Area(lat, cells))
            keys.add(shape_key(area))


@settings(max_examples=60, deadline=None)
@given(name=lattices, seed=st.integers(0, 2**32))
def test_an_areas_fingerprint_is_the_same_turned_or_flipped(name: str, seed: int) -> None:
    lat = FLAT[name]
    rng = random.Random(seed)
    cells = random_shape(lat, rng, rng.randint(1, 14))
    if rng.random() < 0.5:
        cells = cells | {lat.translate(c, (30, 0)) for c in random_shape(lat, rng, 5)}
    turned = {
        shapes._fingerprint(Area(lat, orient(lat, cells, t))) for t in range(len(lat.transforms))
    }
    assert turned == {shapes._fingerprint(Area(lat, cells))}


@settings(max_examples=60, deadline=None)
@given(name=lattices, seed=st.integers(0, 2**32))
def test_regions_are_set_side_by_side_by_their_outlines_extent(name: str, seed: int) -> None:
    lat = FLAT[name]
    cells = random_shape(lat, random.Random(seed), 9)
    corners = [p for c in cells for p in lat.outline(c)]
    assert generator._screen_extent(lat, cells) == (
        min(x for x, _ in corners),
        max(x for x, _ in corners),
        sum(y for _, y in corners) / len(corners),
    )
