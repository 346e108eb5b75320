"""The pieces of each edition, loaded from the piece file its record names
(``ubongo/data/pieces`` for the shipped editions; :mod:`ubongo.editions`).

>>> classic = edition("classic")
>>> [p.id for p in classic.pieces][:4]
['A', 'B', 'C', 'D']
>>> len(classic.piece("H").orientations), len(classic.piece("A").orientations)
(1, 2)
>>> edition("3d").piece("red4").size
4
>>> edition("extreme").piece(7).name
'bee 4'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from ubongo import editions as edition_records
from ubongo.editions import EditionRecord
from ubongo.geometry import SQUARE, Cell, Lattice, lattice

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Piece:
    """One piece: a set of cells on a lattice, with the name and colour players know it by."""

    id: str
    cells: frozenset[Cell]
    lattice: Lattice
    reflections: bool = True
    number: int = 0
    name: str = ""
    colour: Colour = (128, 128, 128)
    colour_name: str = ""

    @property
    def size(self) -> int:
        """The number of cells (squares, hexagons, triangles or cubes)."""
        return len(self.cells)

    @cached_property
    def allowed_transforms(self) -> tuple[int, ...]:
        """Indices into ``lattice.transforms`` that may be applied to this piece."""
        if self.reflections:
            return tuple(range(len(self.lattice.transforms)))
        return self.lattice.rotations

    @cached_property
    def orientation_transforms(self) -> tuple[int, ...]:
        """For each distinct orientation, the first transform index that produces it."""
        seen: set[frozenset[Cell]] = set()
        firsts: list[int] = []
        for i in self.allowed_transforms:
            shape = self.lattice.orient(self.cells, i)
            if shape not in seen:
                seen.add(shape)
                firsts.append(i)
        return tuple(firsts)

    @cached_property
    def orientations(self) -> tuple[frozenset[Cell], ...]:
        """The distinct shapes this piece takes when turned (and flipped if allowed), normalized."""
        return tuple(self.lattice.orient(self.cells, i) for i in self.orientation_transforms)

    def __hash__(self) -> int:
        """The hash of all its fields, as the dataclass's would be, made once: a piece is the
        key of every per-piece cache (where it fits on a grid, its widest extent, its
        shapes), hashed some thousands of times a deck."""
        kept: int | None = self.__dict__.get("_hash")
        if kept is None:
            kept = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))
            self.__dict__["_hash"] = kept
        return kept

    def __getstate__(self) -> dict[str, Any]:
        """Its fields and what it has worked out, but not its hash: a string's hash differs
        from one process to the next, so another process makes its own."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __repr__(self) -> str:
        """The piece by id, name and size, e.g. ``<Piece 1 ... (3 square cells)>``."""
        return f"<Piece {self.id} {self.name or ''} ({self.size} {self.lattice.name} cells)>"


def make_piece(
    id: str,
    cells: Iterable[Sequence[int]],
    lattice_name: str,
    *,
    reflections: bool = True,
    number: int = 0,
    name: str = "",
    colour: Colour = (128, 128, 128),
    colour_name: str = "",
) -> Piece:
    """Build a piece, validating its cells (non-empty, on the lattice, distinct, connected)."""
    lat = lattice(lattice_name)
    raw = [tuple(c) for c in cells]
    if not raw:
        raise ValueError(f"piece {id!r} has no cells")
    for c in raw:
        if not lat.is_cell(c):
            raise ValueError(f"piece {id!r}: {list(c)} is not a cell of the {lat.name} lattice")
    if len(set(raw)) != len(raw):
        raise ValueError(f"piece {id!r} lists a cell twice")
    if not lat.is_connected(raw):
        raise ValueError(f"piece {id!r} is not connected")
    return Piece(
        id=id,
        cells=lat.normalize(raw),
        lattice=lat,
        reflections=reflections,
        number=number,
        name=name,
        colour=colour,
        colour_name=colour_name,
    )


@dataclass(frozen=True)
class Edition:
    """An edition's pieces and the shape of its areas.

    ``layers`` is how many layers an area is filled to: 1 for the flat editions, 2 for 3D, where
    the area is drawn on the square lattice and filled with cubes. ``regions`` is how many
    separate parts one task's area has: 1, or 2 for Trigo (two areas per card).
    """

    name: str
    lattice: Lattice
    pieces: tuple[Piece, ...]
    layers: int = 1
    regions: int = 1
    source: str = ""
    _by_id: dict[str, Piece] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Index the pieces by id, for :meth:`piece`."""
        self._by_id.update({p.id: p for p in self.pieces})

    @property
    def area_lattice(self) -> Lattice:
        """The lattice an area is drawn on (3D: the square cells of the board)."""
        return SQUARE if self.layers > 1 else self.lattice

    def piece(self, id: str | int) -> Piece:
        """The piece with this id; numbers may be given as ints (extreme 1-10, trigo 1-7)."""
        key = str(id)
        try:
            return self._by_id[key]
        except KeyError:
            known = ", ".join(p.id for p in self.pieces)
            raise KeyError(f"no piece {key!r} in {self.name} (pieces: {known})") from None

    def has_piece(self, id: str | int) -> bool:
        """Whether the edition has a piece with this id."""
        return str(id) in self._by_id


def _edition_from_json(rec: EditionRecord, data: dict[str, Any]) -> Edition:
    if data.get("edition") != rec.name:
        raise ValueError(f"{rec.pieces_file.name} holds the pieces of {data.get('edition')!r}")
    lat = lattice(rec.lattice)
    pieces = tuple(
        make_piece(
            str(p["id"]),
            p["cells"],
            lat.name,
            reflections=rec.reflections,
            number=int(p["number"]),
            name=p["name"],
            colour=(p["colour"][0], p["colour"][1], p["colour"][2]),
            colour_name=p.get("colour_name", ""),
        )
        for p in data["pieces"]
    )
    return Edition(
        rec.name,
        lat,
        pieces,
        layers=rec.layers,
        regions=rec.deck.regions,
        source=data.get("source", ""),
    )


@cache
def edition(name: str) -> Edition:
    """The pieces of the edition called ``name`` (classic, 3d, extreme, trigo, or a registered
    one); ValueError for an unknown name."""
    rec = edition_records.record(name)
    return _edition_from_json(rec, json.loads(rec.pieces_file.read_text("utf-8")))


def editions() -> tuple[Edition, ...]:
    """The pieces of every edition, in the order of :func:`ubongo.editions.names`.

    >>> [e.name for e in editions()] == list(edition_records.names())
    True
    """
    return tuple(edition(n) for n in edition_records.names())
