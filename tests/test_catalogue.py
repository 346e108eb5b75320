"""The catalogue a client draws and turns pieces with: checked against what the screen shows."""

from __future__ import annotations

import json
import math

import pytest

from ubongo.board import Placement
from ubongo.catalogue import edition_catalogue
from ubongo.geometry import Point, lattice
from ubongo.pieces import edition

FLAT = ("classic", "extreme", "trigo")
TURN = {"square": math.pi / 2, "hexagon": math.pi / 3, "triangle": math.pi / 3}


def screen_centres(lattice_name: str, cells: list[list[int]]) -> list[Point]:
    """Cell centres on screen, moved so that their lowest-leftmost one is at the origin."""
    lat = lattice(lattice_name)
    pts = []
    for c in cells:
        outline = lat.outline(tuple(c))
        pts.append(
            (sum(p[0] for p in outline) / len(outline), sum(p[1] for p in outline) / len(outline))
        )
    return pts


def same_up_to_translation(a: list[Point], b: list[Point]) -> bool:
    def norm(pts: list[Point]) -> list[tuple[float, float]]:
        x0 = min(p[0] for p in pts)
        y0 = min(p[1] for p in pts)
        return sorted((round(p[0] - x0, 6), round(p[1] - y0, 6)) for p in pts)

    return norm(a) == norm(b)


@pytest.mark.parametrize("name", FLAT)
def test_rotate_turns_every_shape_clockwise_on_screen(name: str) -> None:
    cat = edition_catalogue(name)
    angle = TURN[cat["lattice"]]
    c, s = math.cos(angle), math.sin(angle)
    for piece in cat["pieces"]:
        for t in piece["transforms"]:
            before = screen_centres(cat["lattice"], piece["shapes"][str(t)])
            after = screen_centres(cat["lattice"], piece["shapes"][str(cat["rotate"][t])])
            # y points down on screen: this matrix turns clockwise as seen
            turned = [(x * c - y * s, x * s + y * c) for x, y in before]
            assert same_up_to_translation(turned, after), (piece["id"], t)


@pytest.mark.parametrize("name", FLAT)
def test_flip_mirrors_every_shape_left_to_right(name: str) -> None:
    cat = edition_catalogue(name)
    for piece in cat["pieces"]:
        for t in piece["transforms"]:
            before = screen_centres(cat["lattice"], piece["shapes"][str(t)])
            after = screen_centres(cat["lattice"], piece["shapes"][str(cat["flip"][t])])
            assert same_up_to_translation([(-x, y) for x, y in before], after), (piece["id"], t)


@pytest.mark.parametrize("name", [*FLAT, "3d"])
def test_tables_are_permutations_and_rotate_has_the_lattice_order(name: str) -> None:
    cat = edition_catalogue(name)
    n = cat["group_size"]
    assert n == len(lattice(cat["lattice"]).transforms)
    rotate = cat["rotate"]
    assert sorted(rotate) == list(range(n))
    order = {"square": 4, "hexagon": 6, "triangle": 6, "cube": 4}[cat["lattice"]]
    t = 0
    for k in range(1, order + 1):
        t = rotate[t]
        assert (t == 0) == (k == order)
    if cat["flip"] is None:
        assert name == "3d"
    else:
        assert all(cat["flip"][cat["flip"][t]] == t for t in range(n))


@pytest.mark.parametrize("name", [*FLAT, "3d"])
def test_shapes_are_the_cells_a_placement_covers(name: str) -> None:
    ed = edition(name)
    cat = edition_catalogue(name)
    assert [p["id"] for p in cat["pieces"]] == [p.id for p in ed.pieces]
    for entry, piece in zip(cat["pieces"], ed.pieces, strict=True):
        assert entry["transforms"] == list(piece.allowed_transforms)
        assert entry["colour"] == "#{:02x}{:02x}{:02x}".format(*piece.colour)
        for t in piece.allowed_transforms:
            cells = {tuple(c) for c in entry["shapes"][str(t)]}
            offset = (0,) * piece.lattice.translation_dims
            assert cells == Placement(piece.id, t, offset).cells(piece)


def test_3d_pieces_cannot_be_mirrored() -> None:
    cat = edition_catalogue("3d")
    assert cat["flip"] is None and cat["reflections"] is False
    assert cat["area_lattice"] == "square" and cat["layers"] == 2
    assert all(len(p["transforms"]) == 24 for p in cat["pieces"])


def test_catalogue_is_json_and_a_fresh_copy() -> None:
    cat = edition_catalogue("trigo")
    assert json.loads(json.dumps(cat)) == cat
    cat["pieces"].clear()
    assert len(edition_catalogue("trigo")["pieces"]) == 7


def test_unknown_edition_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown edition 'chess'"):
        edition_catalogue("chess")
