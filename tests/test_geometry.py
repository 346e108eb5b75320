"""The four lattices: their transform groups, neighbours, translations and outlines."""

from __future__ import annotations

import itertools
import math

import pytest

from ubongo.geometry import (
    CUBE,
    HEXAGON,
    LATTICES,
    SQUARE,
    TRIANGLE,
    Cell,
    Lattice,
    Point,
    Transform,
    lattice,
)

ALL = [SQUARE, HEXAGON, TRIANGLE, CUBE]
IDS = [lat.name for lat in ALL]


def cells_near_origin(lat: Lattice, radius: int = 2) -> list[Cell]:
    """Every cell whose translation coordinates lie in [-radius, radius]."""
    span = range(-radius, radius + 1)
    if lat is TRIANGLE:
        return [(a, b, s) for a in span for b in span for s in (0, 1)]
    return [tuple(c) for c in itertools.product(span, repeat=lat.translation_dims)]


@pytest.mark.parametrize(
    ("lat", "size", "rotations", "neighbours"),
    [(SQUARE, 8, 4, 4), (HEXAGON, 12, 6, 6), (TRIANGLE, 12, 6, 3), (CUBE, 24, 24, 6)],
    ids=IDS,
)
def test_group_sizes_and_neighbour_counts(
    lat: Lattice, size: int, rotations: int, neighbours: int
) -> None:
    assert len(lat.transforms) == size
    assert len(set(lat.transforms)) == size
    assert len(lat.rotations) == rotations
    assert all(len(set(lat.neighbours(c))) == neighbours for c in cells_near_origin(lat))


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_transforms_form_a_group(lat: Lattice) -> None:
    group = lat.transforms
    members = set(group)
    dim = len(group[0].matrix)
    identity = Transform(tuple(tuple(int(i == j) for j in range(dim)) for i in range(dim)))
    assert group[0] == identity
    for t in group:
        assert t.then(identity) == t == identity.then(t)
        assert sum(t.then(u) == identity for u in group) == 1  # exactly one inverse
    for t, u in itertools.product(group, repeat=2):
        assert t.then(u) in members  # closure
    for t, u, v in itertools.product(group[:8], repeat=3):
        assert t.then(u).then(v) == t.then(u.then(v))


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_transform_composition_matches_applying_in_turn(lat: Lattice) -> None:
    cells = cells_near_origin(lat, 1)
    for t, u in itertools.product(range(len(lat.transforms)), repeat=2):
        both = lat.transforms[t].then(lat.transforms[u])
        for c in cells[:: max(1, len(cells) // 6)]:
            assert lat.apply(both, c) == lat.apply(u, lat.apply(t, c))


def test_cube_group_has_no_reflections_and_the_plane_groups_do() -> None:
    assert not any(t.is_reflection for t in CUBE.transforms)
    for lat in (SQUARE, HEXAGON, TRIANGLE):
        assert sum(t.is_reflection for t in lat.transforms) == len(lat.transforms) // 2


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_neighbourhood_is_symmetric_and_kept_by_every_transform(lat: Lattice) -> None:
    for c in cells_near_origin(lat):
        for n in lat.neighbours(c):
            assert c in lat.neighbours(n)
            assert n != c
        for t in range(len(lat.transforms)):
            image = lat.apply(t, c)
            assert lat.is_cell(image)
            assert {lat.apply(t, n) for n in lat.neighbours(c)} == set(lat.neighbours(image))


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_transforms_are_bijections_near_the_origin(lat: Lattice) -> None:
    cells = cells_near_origin(lat)
    for t in range(len(lat.transforms)):
        assert len({lat.apply(t, c) for c in cells}) == len(cells)


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_translation(lat: Lattice) -> None:
    d = lat.translation_dims
    offsets = [tuple(o) for o in itertools.product((-2, 0, 3), repeat=d)]
    for c in cells_near_origin(lat, 1):
        for o in offsets:
            moved = lat.translate(c, o)
            assert moved[d:] == c[d:]  # a triangle keeps its kind
            assert lat.translate(moved, tuple(-x for x in o)) == c
            assert set(lat.neighbours(moved)) == {lat.translate(n, o) for n in lat.neighbours(c)}
            for t in range(len(lat.transforms)):
                # turning a moved cell = turning the cell, then moving by the turned offset
                turned_offset = lat.transforms[t].on(o)
                assert lat.apply(t, moved) == lat.translate(lat.apply(t, c), turned_offset)


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_normalize_forgets_translation_only(lat: Lattice) -> None:
    shape = [c for c in cells_near_origin(lat, 1)][:5]
    d = lat.translation_dims
    moved = [lat.translate(c, (4, -7, 2)[:d]) for c in shape]
    assert lat.normalize(moved) == lat.normalize(shape)
    assert min(lat.normalize(shape))[:d] >= (0,) * d
    assert lat.anchor(lat.normalize(shape)) == (0,) * d


@pytest.mark.parametrize("lat", ALL, ids=IDS)
def test_cell_centre_round_trip(lat: Lattice) -> None:
    cells = cells_near_origin(lat, 3)
    centres = [lat.centre(c) for c in cells]
    assert len(set(centres)) == len(cells)
    for c, centre in zip(cells, centres, strict=True):
        assert lat.cell_at(centre) == c


def test_triangle_rejects_points_that_are_not_centres() -> None:
    with pytest.raises(ValueError):
        TRIANGLE.cell_at((0, 0))
    with pytest.raises(ValueError):
        TRIANGLE.cell_at((1, 2))


@pytest.mark.parametrize(
    ("lat", "good", "bad"),
    [
        (SQUARE, (0, -3), [(0, 0, 0), (0,), (0.5, 1), (True, 0), [0, 0]]),
        (HEXAGON, (2, -1), [(0, 0, 0), ("0", 1)]),
        (TRIANGLE, (0, 0, 1), [(0, 0, 2), (0, 0), (0, 0, -1)]),
        (CUBE, (1, 2, 3), [(1, 2), (1, 2, 3, 4)]),
    ],
    ids=IDS,
)
def test_is_cell(lat: Lattice, good: Cell, bad: list[object]) -> None:
    assert lat.is_cell(good)
    for value in bad:
        assert not lat.is_cell(value)


def _close(p: Point, q: Point) -> bool:
    return math.isclose(p[0], q[0], abs_tol=1e-9) and math.isclose(p[1], q[1], abs_tol=1e-9)


def _edges(polygon: list[Point]) -> list[tuple[Point, Point]]:
    return [(polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon))]


def _same_edge(e: tuple[Point, Point], f: tuple[Point, Point]) -> bool:
    return (_close(e[0], f[0]) and _close(e[1], f[1])) or (
        _close(e[0], f[1]) and _close(e[1], f[0])
    )


def _shared_edges(p: list[Point], q: list[Point]) -> int:
    return sum(_same_edge(e, f) for e in _edges(p) for f in _edges(q))


def _signed_area(polygon: list[Point]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in _edges(polygon)) / 2


@pytest.mark.parametrize(
    ("lat", "corners"), [(SQUARE, 4), (HEXAGON, 6), (TRIANGLE, 3)], ids=IDS[:3]
)
def test_outlines_are_regular_polygons_that_share_edges_with_neighbours(
    lat: Lattice, corners: int
) -> None:
    cells = cells_near_origin(lat)
    outlines = {c: lat.outline(c) for c in cells}
    areas = {round(abs(_signed_area(o)), 9) for o in outlines.values()}
    assert len(areas) == 1  # every cell is as large as every other
    for c, poly in outlines.items():
        assert len(poly) == corners
        lengths = [math.dist(a, b) for a, b in _edges(poly)]
        assert max(lengths) - min(lengths) < 1e-9
        for other, other_poly in outlines.items():
            if other == c:
                continue
            expected = 1 if other in lat.neighbours(c) else 0
            assert _shared_edges(poly, other_poly) == expected, (c, other)


def test_neighbouring_hexagon_and_square_centres_are_one_apart() -> None:
    def centroid(poly: list[Point]) -> Point:
        return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))

    for lat in (SQUARE, HEXAGON):
        for n in lat.neighbours((0, 0)):
            assert math.isclose(
                math.dist(centroid(lat.outline((0, 0))), centroid(lat.outline(n))), 1
            )


def test_cube_outline_is_the_square_under_it() -> None:
    for x, y, z in cells_near_origin(CUBE, 1):
        assert CUBE.outline((x, y, z)) == SQUARE.outline((x, y))


def test_components_and_connectivity() -> None:
    cells = [(0, 0), (1, 0), (5, 5), (5, 6), (5, 7)]
    parts = SQUARE.components(cells)
    assert parts == [frozenset({(5, 5), (5, 6), (5, 7)}), frozenset({(0, 0), (1, 0)})]
    assert not SQUARE.is_connected(cells)
    assert SQUARE.is_connected(cells[:2])
    # (0,0,0) and (0,0,1) touch along an edge; (0,0,0) and (1,0,0) only at a corner
    assert TRIANGLE.is_connected([(0, 0, 0), (0, 0, 1), (1, 0, 0)])
    assert not TRIANGLE.is_connected([(0, 0, 0), (1, 0, 0)])


def test_canonical_is_the_same_exactly_for_congruent_shapes() -> None:
    l_shape = [(0, 0), (0, 1), (0, 2), (1, 2)]
    mirrored = [(1, 0), (1, 1), (1, 2), (0, 2)]
    assert SQUARE.canonical(l_shape) == SQUARE.canonical(mirrored)
    rotations = SQUARE.rotations
    assert SQUARE.canonical(l_shape, rotations) != SQUARE.canonical(mirrored, rotations)
    for t in range(8):
        turned = [SQUARE.translate(SQUARE.apply(t, c), (3, -2)) for c in l_shape]
        assert SQUARE.canonical(turned) == SQUARE.canonical(l_shape)
    assert SQUARE.canonical(l_shape) != SQUARE.canonical([(0, 0), (0, 1), (1, 0), (1, 1)])


def test_lattice_lookup() -> None:
    assert all(lattice(name) is lat for name, lat in LATTICES.items())
    with pytest.raises(ValueError, match="unknown lattice 'octagon'"):
        lattice("octagon")
