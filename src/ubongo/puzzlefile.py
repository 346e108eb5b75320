"""Puzzle files: one area and the pieces to cover it with, as JSON.

Two kinds of file (``docs/puzzle-format.md`` has the full description):

* an **edition** puzzle names the edition and its pieces by id; the area is in that edition's
  coordinates (3D: the flat board's ``(x, y)`` cells, filled on two levels)::

      {"edition": "classic", "area": [".##..", "####.", ".####", ".###."],
       "pieces": ["D", "G", "I"]}

* a **custom** puzzle names a lattice and gives the pieces' shapes::

      {"lattice": "hexagon", "area": [[0, 0], [1, 0], [0, 1]],
       "pieces": [{"id": "a", "cells": [[0, 0], [1, 0]]}, {"id": "b", "cells": [[0, 0]]}]}

Anything wrong with a file raises :class:`PuzzleFileError` with one line saying what.  Pieces
whose sizes do not add up to the area are *not* an error: such a puzzle has no solution.

>>> puzzle = loads('{"edition": "extreme", "area": [[0,0],[0,1],[0,2]], "pieces": [1]}')
>>> puzzle.area.size, [p.name for p in puzzle.pieces]
(3, ['straight 3'])
>>> try:
...     loads('{"edition": "classic", "area": ["##"], "pieces": ["A", "Z"]}')
... except PuzzleFileError as e:
...     print(e)
unknown piece 'Z' in classic (pieces: A, B, C, D, E, F, G, H, I, J, K, L)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ubongo import editions
from ubongo.board import Area
from ubongo.geometry import CUBE, LATTICES, SQUARE, Cell, Lattice
from ubongo.pieces import Colour, Piece, edition, make_piece

#: colours for pieces that do not bring their own (distinct at a glance, readable under text)
PALETTE: tuple[Colour, ...] = (
    (230, 25, 75),
    (60, 180, 75),
    (255, 225, 25),
    (0, 130, 200),
    (245, 130, 48),
    (145, 30, 180),
    (70, 240, 240),
    (240, 50, 230),
    (210, 245, 60),
    (250, 190, 212),
    (0, 128, 128),
    (220, 190, 255),
    (170, 110, 40),
    (255, 250, 200),
    (128, 0, 0),
    (170, 255, 195),
)

EDITION_KEYS = frozenset({"edition", "area", "pieces", "name"})
CUSTOM_KEYS = frozenset({"lattice", "layers", "mirror", "area", "pieces", "name"})
PIECE_KEYS = frozenset({"id", "cells", "name", "colour"})
PACK_KEYS = frozenset({"name", "puzzles"})


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read; the message is one line saying what is wrong."""


@dataclass(frozen=True)
class Puzzle:
    """An area and the pieces that should cover it; ``edition`` is None for custom puzzles."""

    area: Area
    pieces: tuple[Piece, ...]
    edition: str | None = None
    name: str = ""

    @property
    def lattice(self) -> Lattice:
        """The lattice the pieces live on (3D: cubes)."""
        return self.area.piece_lattice


@dataclass(frozen=True)
class Pack:
    """A pack file: puzzles to play one after another, in order, under a title."""

    puzzles: tuple[Puzzle, ...]
    name: str = ""


def load(path: str | Path) -> Puzzle:
    """Read a puzzle file; an error's message starts with the file's name."""
    text = _text(path)
    try:
        return loads(text)
    except PuzzleFileError as e:
        raise PuzzleFileError(f"{path}: {e}") from None


def load_any(path: str | Path) -> Puzzle | Pack:
    """Read a puzzle file or a pack file (docs/puzzle-format.md, "Packs")."""
    text = _text(path)
    try:
        return loads_any(text)
    except PuzzleFileError as e:
        raise PuzzleFileError(f"{path}: {e}") from None


def _text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PuzzleFileError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise PuzzleFileError(f"{path}: not a text file (UTF-8)") from None
    except OSError as e:
        raise PuzzleFileError(f"{path}: cannot read it ({e.strerror or e})") from None


def example_names() -> list[str]:
    """The example puzzles that come with the package (``examples/`` in the repository).

    >>> example_names()[:2]
    ['3d', 'classic']
    """
    folder = resources.files("ubongo").joinpath("data/examples")
    return sorted(
        f.name.removesuffix(".json") for f in folder.iterdir() if f.name.endswith(".json")
    )


def example(name: str) -> Puzzle:
    """One of the example puzzles, by name (``classic``, ``3d``, ``custom-square``, ...)."""
    if name not in example_names():
        raise PuzzleFileError(f"no example {name!r} (examples: {', '.join(example_names())})")
    return loads(
        resources.files("ubongo").joinpath(f"data/examples/{name}.json").read_text("utf-8")
    )


def loads(text: str) -> Puzzle:
    """Read a puzzle from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleFileError(
            f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}"
        ) from None
    return from_json(data)


def from_json(data: Any) -> Puzzle:
    """Build a puzzle from parsed JSON, checking everything."""
    if not isinstance(data, dict):
        raise PuzzleFileError('a puzzle is a JSON object with "area" and "pieces"')
    if "edition" in data and "lattice" in data:
        raise PuzzleFileError('give "edition" or "lattice", not both')
    name = data.get("name", "")
    if not isinstance(name, str):
        raise PuzzleFileError('"name" must be a string')
    if "edition" in data:
        _check_keys(data, EDITION_KEYS, "an edition puzzle")
        return _edition_puzzle(data, name)
    if "lattice" in data:
        _check_keys(data, CUSTOM_KEYS, "a custom puzzle")
        return _custom_puzzle(data, name)
    raise PuzzleFileError(
        f'a puzzle needs "edition" ({", ".join(editions.names())}) or "lattice" '
        "(square, hexagon, triangle, cube)"
    )


def _check_keys(data: dict[str, Any], allowed: frozenset[str], what: str) -> None:
    for key in data:
        if key not in allowed:
            raise PuzzleFileError(
                f"unknown key {key!r} in {what} (expected: {', '.join(sorted(allowed))})"
            )
    for key in ("area", "pieces"):
        if key not in data:
            raise PuzzleFileError(f'the puzzle has no "{key}"')


def _edition_puzzle(data: dict[str, Any], name: str) -> Puzzle:
    ed_name = data["edition"]
    if not isinstance(ed_name, str) or ed_name not in editions.names():
        raise PuzzleFileError(
            f"unknown edition {ed_name!r}; expected one of {', '.join(editions.names())}"
        )
    ed = edition(ed_name)
    cells = _area_cells(data["area"], ed.area_lattice)
    area = Area(ed.area_lattice, cells, ed.layers)
    items = _piece_list(data["pieces"])
    pieces: list[Piece] = []
    for item in items:
        if isinstance(item, dict):
            pieces.append(_custom_piece(item, ed.lattice, ed.pieces[0].reflections, len(pieces)))
        elif isinstance(item, str | int) and not isinstance(item, bool):
            if not ed.has_piece(item):
                known = ", ".join(p.id for p in ed.pieces)
                raise PuzzleFileError(f"unknown piece {item!r} in {ed.name} (pieces: {known})")
            pieces.append(ed.piece(item))
        else:
            raise PuzzleFileError(
                f"pieces: {json.dumps(item)} is neither a piece id nor a piece with cells"
            )
    _no_twice(pieces)
    return Puzzle(area, tuple(pieces), ed.name, name)


def _custom_puzzle(data: dict[str, Any], name: str) -> Puzzle:
    lat_name = data["lattice"]
    if lat_name not in LATTICES:
        raise PuzzleFileError(
            f"unknown lattice {lat_name!r}; expected one of {', '.join(LATTICES)}"
        )
    lat = LATTICES[lat_name]
    mirror = data.get("mirror", lat is not CUBE)
    if not isinstance(mirror, bool):
        raise PuzzleFileError('"mirror" must be true or false')
    if mirror and lat is CUBE:
        raise PuzzleFileError(
            "the cube lattice only turns pieces (a mirror image is another piece): "
            'leave out "mirror" or set it to false'
        )
    area = _custom_area(data, lat)
    items = _piece_list(data["pieces"])
    pieces: list[Piece] = []
    for item in items:
        if not isinstance(item, dict):
            raise PuzzleFileError(
                f'pieces: {json.dumps(item)} should be an object with "id" and "cells"'
            )
        pieces.append(_custom_piece(item, lat, mirror, len(pieces)))
    _no_twice(pieces)
    return Puzzle(area, tuple(pieces), None, name)


def _custom_area(data: dict[str, Any], lat: Lattice) -> Area:
    raw = data["area"]
    if lat is not CUBE:
        if "layers" in data:
            raise PuzzleFileError('"layers" is only for the cube lattice')
        return Area(lat, _area_cells(raw, lat), 1)
    layers = data.get("layers")
    if layers is not None and (
        not isinstance(layers, int) or isinstance(layers, bool) or layers < 1
    ):
        raise PuzzleFileError('"layers" must be a whole number, 1 or more')
    solid = isinstance(raw, list) and bool(raw) and isinstance(raw[0], list) and len(raw[0]) == 3
    if solid:
        # any solid of cubes, cell by cell
        if layers is not None:
            raise PuzzleFileError('"layers" goes with a flat area of (x, y) cells, not (x, y, z)')
        return Area(CUBE, _area_cells(raw, CUBE), 1)
    flat = _area_cells(raw, SQUARE)
    depth = 2 if layers is None else layers
    if depth == 1:
        return Area(CUBE, frozenset((x, y, 0) for x, y in flat), 1)
    return Area(SQUARE, flat, depth)


def _area_cells(raw: Any, lat: Lattice) -> frozenset[Cell]:
    """The area's cells: a list of cells, or for square areas picture rows (``#`` a cell)."""
    if not isinstance(raw, list):
        raise PuzzleFileError('"area" must be a list of cells (or of picture rows)')
    if raw and all(isinstance(row, str) for row in raw):
        if lat is not SQUARE:
            raise PuzzleFileError(
                f"picture rows are for square areas; give {lat.name} cells as lists of numbers"
            )
        return _picture(raw)
    cells: set[Cell] = set()
    for item in raw:
        cell = tuple(item) if isinstance(item, list) else None
        if cell is None or not lat.is_cell(cell):
            raise PuzzleFileError(
                f"area: {json.dumps(item)} is not a cell of the {lat.name} lattice"
                f" ({_cell_hint(lat)})"
            )
        if cell in cells:
            raise PuzzleFileError(f"area: {json.dumps(item)} is listed twice")
        cells.add(cell)
    if not cells:
        raise PuzzleFileError("the area is empty")
    return frozenset(cells)


def _picture(rows: list[str]) -> frozenset[Cell]:
    cells: set[Cell] = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                cells.add((x, y))
            elif ch not in ". ":
                raise PuzzleFileError(
                    f"area row {y + 1} has {ch!r}: use # for a cell and . for no cell"
                )
    if not cells:
        raise PuzzleFileError("the area is empty")
    return frozenset(cells)


def _cell_hint(lat: Lattice) -> str:
    return {
        "square": "[x, y]",
        "hexagon": "[q, r]",
        "triangle": "[a, b, s] with s 0 (up) or 1 (down)",
        "cube": "[x, y, z]",
    }[lat.name]


def _piece_list(raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise PuzzleFileError('"pieces" must be a list')
    if not raw:
        raise PuzzleFileError("no pieces are listed")
    return raw


def _custom_piece(item: dict[str, Any], lat: Lattice, mirror: bool, index: int) -> Piece:
    for key in item:
        if key not in PIECE_KEYS:
            raise PuzzleFileError(
                f"unknown key {key!r} in a piece (expected: {', '.join(sorted(PIECE_KEYS))})"
            )
    pid = item.get("id")
    if not isinstance(pid, str | int) or isinstance(pid, bool) or str(pid) == "":
        raise PuzzleFileError(f'piece {index + 1} needs an "id" (a name or a number)')
    pid = str(pid)
    raw = item.get("cells")
    if not isinstance(raw, list) or not all(isinstance(c, list) for c in raw):
        raise PuzzleFileError(f'piece {pid!r}: "cells" must be a list of cells')
    for c in raw:
        if not lat.is_cell(tuple(c)):
            raise PuzzleFileError(
                f"piece {pid!r}: {json.dumps(c)} is not a cell of the {lat.name} lattice"
                f" ({_cell_hint(lat)})"
            )
    colour = _colour(item.get("colour"), pid, index)
    label = item.get("name", "")
    if not isinstance(label, str):
        raise PuzzleFileError(f'piece {pid!r}: "name" must be a string')
    try:
        return make_piece(
            pid, raw, lat.name, reflections=mirror, name=label, colour=colour, number=index + 1
        )
    except ValueError as e:
        raise PuzzleFileError(str(e)) from None


def _colour(raw: Any, pid: str, index: int) -> Colour:
    if raw is None:
        return PALETTE[index % len(PALETTE)]
    if (
        isinstance(raw, list)
        and len(raw) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in raw)
    ):
        return (raw[0], raw[1], raw[2])
    raise PuzzleFileError(f'piece {pid!r}: "colour" must be [red, green, blue], each 0-255')


def _no_twice(pieces: Iterable[Piece]) -> None:
    seen: set[str] = set()
    for p in pieces:
        if p.id in seen:
            raise PuzzleFileError(f"piece {p.id!r} is listed twice")
        seen.add(p.id)


def to_json(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as JSON data that :func:`from_json` reads back to an equal puzzle.

    >>> p = loads('{"edition": "trigo", "area": [[0,0,0],[0,0,1],[0,1,0],[0,1,1]], "pieces": [1]}')
    >>> to_json(p)["pieces"]
    [1]
    >>> from_json(to_json(p)) == p
    True
    """
    data: dict[str, Any] = {}
    if puzzle.name:
        data["name"] = puzzle.name
    area = puzzle.area
    cells = sorted(area.cells)
    if puzzle.edition is not None:
        ed = edition(puzzle.edition)
        data["edition"] = ed.name
        data["area"] = [list(c) for c in cells]
        data["pieces"] = [
            id_to_json(p.id) if ed.has_piece(p.id) and ed.piece(p.id) == p else _piece_out(p)
            for p in puzzle.pieces
        ]
        return data
    lat = puzzle.lattice
    data["lattice"] = lat.name
    if lat is CUBE:
        if area.lattice is SQUARE:
            data["layers"] = area.layers
        elif all(c[2] == 0 for c in cells):
            data["layers"] = 1
            cells = [c[:2] for c in cells]
        # otherwise a solid of cubes, written cell by cell
    else:
        data["mirror"] = all(p.reflections for p in puzzle.pieces)
    data["area"] = [list(c) for c in cells]
    data["pieces"] = [_piece_out(p) for p in puzzle.pieces]
    return data


def id_to_json(pid: str) -> str | int:
    """A piece id as the files write it: numbers as numbers (extreme 1-10, trigo 1-7)."""
    return int(pid) if pid.isdigit() else pid


def _piece_out(p: Piece) -> dict[str, Any]:
    out: dict[str, Any] = {"id": id_to_json(p.id), "cells": [list(c) for c in sorted(p.cells)]}
    if p.name:
        out["name"] = p.name
    out["colour"] = list(p.colour)
    return out


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as JSON text, one cell list per line of the area."""
    return json.dumps(to_json(puzzle), separators=(", ", ": ")) + "\n"


def is_pack(data: Any) -> bool:
    """Whether parsed JSON is a pack file (an object with ``puzzles``) rather than a puzzle."""
    return isinstance(data, dict) and "puzzles" in data


def pack_from_json(data: Any) -> Pack:
    """Build a pack from parsed JSON: ``{"name": ..., "puzzles": [puzzle, ...]}``, every
    puzzle checked as :func:`from_json` does (an error names the puzzle by its place).

    >>> one = {"edition": "classic", "area": ["##"], "pieces": ["A"]}
    >>> pack = pack_from_json({"name": "Two", "puzzles": [one, one]})
    >>> pack.name, len(pack.puzzles), pack_to_json(pack)["puzzles"][0]["pieces"]
    ('Two', 2, ['A'])
    >>> pack_from_json({"puzzles": [one, {"edition": "classic"}]})
    Traceback (most recent call last):
    ...
    ubongo.puzzlefile.PuzzleFileError: puzzle 2: the puzzle has no "area"
    """
    if not is_pack(data):
        raise PuzzleFileError('a pack is a JSON object with "puzzles"')
    for key in data:
        if key not in PACK_KEYS:
            raise PuzzleFileError(f"unknown key {key!r} in a pack (expected: name, puzzles)")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise PuzzleFileError('"name" must be a string')
    raw = data["puzzles"]
    if not isinstance(raw, list) or not raw:
        raise PuzzleFileError('a pack\'s "puzzles" is a list of at least one puzzle')
    puzzles = []
    for i, item in enumerate(raw, 1):
        try:
            puzzles.append(from_json(item))
        except PuzzleFileError as e:
            raise PuzzleFileError(f"puzzle {i}: {e}") from None
    return Pack(tuple(puzzles), name)


def pack_to_json(pack: Pack) -> dict[str, Any]:
    """The pack as JSON data that :func:`pack_from_json` reads back to an equal pack."""
    data: dict[str, Any] = {"name": pack.name} if pack.name else {}
    data["puzzles"] = [to_json(p) for p in pack.puzzles]
    return data


def loads_any(text: str) -> Puzzle | Pack:
    """A puzzle or a pack from JSON text (a pack has ``puzzles``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleFileError(
            f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}"
        ) from None
    return pack_from_json(data) if is_pack(data) else from_json(data)
