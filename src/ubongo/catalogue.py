"""What a client needs to draw an edition and turn its pieces, as plain JSON-ready data.

A client (the browser, a CLI renderer) never re-implements the transform group: it gets, per
edition, the lattice name, the group's size, and two lookup tables over transform indices,

* ``rotate[t]``: the transform that turns a piece shown in orientation ``t`` by the lattice's
  smallest rotation, clockwise on screen (a quarter turn on squares, a sixth on hexagons and
  triangles), and
* ``flip[t]``: the transform that mirrors it left-to-right on screen (``None`` where the
  edition forbids mirror images: 3D),

plus, for every piece, its cells under every allowed transform, normalized with
:meth:`~ubongo.geometry.Lattice.orient`. Placements sent back use the same transform indices
(see :class:`ubongo.board.Placement`).

>>> cat = edition_catalogue("classic")
>>> cat["lattice"], cat["group_size"], len(cat["pieces"])
('square', 8, 12)
>>> cat["rotate"][0], cat["rotate"][cat["rotate"][cat["rotate"][cat["rotate"][0]]]]
(1, 0)
>>> cat["pieces"][0]["shapes"]["0"]
[[0, 0], [0, 1]]
>>> cat["pieces"][0]["shapes"][str(cat["rotate"][0])]
[[0, 0], [1, 0]]
"""

from __future__ import annotations

import copy
import math
from functools import cache
from typing import Any

from ubongo.geometry import CUBE, Cell, Lattice, Point, Transform
from ubongo.pieces import Piece, edition

FORMAT = "ubongo-catalogue"
VERSION = 1


def _centroid(points: list[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _screen_centre(lat: Lattice, cell: Cell) -> Point:
    """Where a cell's centre is drawn (for cubes: the square under it)."""
    return _centroid(lat.outline(cell))


def _sample_cells(lat: Lattice) -> list[Cell]:
    """A few cells away from the origin, enough to tell transforms apart on screen."""
    if lat.name == "triangle":
        return [(2, 1, 0), (1, 3, 1), (-2, 1, 0)]
    if lat.name == "cube":
        return [(2, 0, 0), (1, 3, 0), (-2, 1, 0)]
    return [(2, 1), (1, 3), (-2, 1)]


def _screen_map(lat: Lattice, t: Transform) -> list[tuple[Point, Point]]:
    """(before, after) screen centres of the sample cells under ``t``."""
    pairs = []
    for cell in _sample_cells(lat):
        image = lat.cell_at(t.on(lat.centre(cell)))
        if lat is CUBE and image[2] != cell[2]:
            return []  # turns the piece over in space: not a move on the screen plane
        pairs.append((_screen_centre(lat, cell), _screen_centre(lat, image)))
    return pairs


def _close(a: Point, b: Point) -> bool:
    return math.isclose(a[0], b[0], abs_tol=1e-9) and math.isclose(a[1], b[1], abs_tol=1e-9)


def _turn_angle(lat: Lattice, t: Transform) -> float | None:
    """The clockwise screen angle (radians, in (0, 2pi)) of a rotation in the screen plane.

    Rotations act about the screen origin on every lattice (the centre maps are linear and
    map 0 to the screen origin), so one sample's angle is the transform's angle; ``None`` if
    ``t`` is not a plane rotation by a non-zero angle.
    """
    pairs = _screen_map(lat, t)
    if not pairs or t.is_reflection:
        return None
    (x, y), (u, v) = pairs[0]
    # screen y points down, so a positive cross product is a clockwise turn as seen
    angle = math.atan2(x * v - y * u, x * u + y * v) % (2 * math.pi)
    if math.isclose(angle, 0, abs_tol=1e-9) or math.isclose(angle, 2 * math.pi, abs_tol=1e-9):
        return None
    for (x, y), (u, v) in pairs:
        c, s = math.cos(angle), math.sin(angle)
        if not _close((x * c - y * s, x * s + y * c), (u, v)):
            return None
    return angle


def rotation_step(lat: Lattice) -> int:
    """Index of the smallest clockwise screen rotation of ``lat`` (about the screen normal)."""
    best: tuple[float, int] | None = None
    for i, t in enumerate(lat.transforms):
        angle = _turn_angle(lat, t)
        if angle is not None and (best is None or angle < best[0] - 1e-9):
            best = (angle, i)
    if best is None:
        raise ValueError(f"the {lat.name} lattice has no plane rotation")
    return best[1]


def mirror(lat: Lattice) -> int | None:
    """Index of the left-right mirror on screen, ``(x, y) -> (-x, y)``; ``None`` if absent."""
    for i, t in enumerate(lat.transforms):
        pairs = _screen_map(lat, t)
        if t.is_reflection and pairs and all(_close((-x, y), after) for (x, y), after in pairs):
            return i
    return None


def composition_table(lat: Lattice, step: int) -> list[int]:
    """``table[t]`` = the index of ``transforms[t]`` followed by ``transforms[step]``."""
    then = lat.transforms[step]
    return [lat.transform_index(t.then(then)) for t in lat.transforms]


def _colour_hex(piece: Piece) -> str:
    r, g, b = piece.colour
    return f"#{r:02x}{g:02x}{b:02x}"


def piece_entry(piece: Piece) -> dict[str, Any]:
    """A piece's names, colour and its normalized cells under each allowed transform."""
    lat = piece.lattice
    return {
        "id": piece.id,
        "number": piece.number,
        "name": piece.name,
        "colour": _colour_hex(piece),
        "colour_name": piece.colour_name,
        "size": piece.size,
        "transforms": list(piece.allowed_transforms),
        "shapes": {
            str(t): [list(c) for c in sorted(lat.orient(piece.cells, t))]
            for t in piece.allowed_transforms
        },
    }


@cache
def _catalogue(name: str) -> dict[str, Any]:
    ed = edition(name)
    lat = ed.lattice
    reflections = all(p.reflections for p in ed.pieces)
    flip = mirror(lat) if reflections else None
    tables: dict[str, Any] = {
        "rotate": composition_table(lat, rotation_step(lat)),
        "flip": composition_table(lat, flip) if flip is not None else None,
    }
    return {
        "format": FORMAT,
        "version": VERSION,
        "edition": ed.name,
        "lattice": lat.name,
        "area_lattice": ed.area_lattice.name,
        "layers": ed.layers,
        "reflections": reflections,
        "group_size": len(lat.transforms),
        **tables,
        "pieces": [piece_entry(p) for p in ed.pieces],
    }


def edition_catalogue(name: str) -> dict[str, Any]:
    """The catalogue of edition ``name`` (classic, 3d, extreme, trigo) as JSON-ready data.

    Raises ValueError for an unknown edition. The result is a fresh copy each time, so callers
    may change it.
    """
    return copy.deepcopy(_catalogue(name))


__all__ = [
    "FORMAT",
    "VERSION",
    "composition_table",
    "edition_catalogue",
    "mirror",
    "piece_entry",
    "rotation_step",
]
