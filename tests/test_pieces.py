"""The editions' pieces: the data files agree with the reference, orientations are right."""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ubongo.editions import names
from ubongo.geometry import CUBE, SQUARE, Cell
from ubongo.pieces import Piece, edition, editions, make_piece

#: the shipped editions (a test may register more: test_editions.py)
EDITION_NAMES = ("classic", "3d", "extreme", "trigo")

REPO = Path(__file__).resolve().parents[1]
#: in CI the shared folder is checked out beside the repository
PIECES_MD = REPO.parent / "shared" / "reference" / "pieces.md"


def reference_sections() -> dict[str, list[list[str]]]:
    """The table rows (as lists of cell texts) of each ``##`` section of pieces.md, by edition."""
    if not PIECES_MD.exists():
        pytest.fail(f"the reference {PIECES_MD} is missing (../shared beside the repository)")
    sections: dict[str, list[list[str]]] = {}
    current = ""
    for line in PIECES_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current = line[3:].split()[0].lower()  # "Classic (2D ...)" -> "classic"
            sections[current] = []
        elif line.startswith("|") and not re.match(r"\|\s*-", line) and current:
            row = [field.strip() for field in line.strip().strip("|").split("|")]
            if row[0] not in ("id", "no."):  # header
                sections[current].append(row)
    return sections


def tuples(text: str) -> list[Cell]:
    """'(0,0) (0,1)' -> [(0, 0), (0, 1)]"""
    return [tuple(int(v) for v in m.split(",")) for m in re.findall(r"\(([-\d,\s]+)\)", text)]


def picture(text: str) -> list[Cell]:
    """'`.#` `##`' (rows top to bottom) -> [(1, 0), (0, 1), (1, 1)]"""
    rows = re.findall(r"`([.#]+)`", text)
    return [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"]


def reference_shapes() -> dict[str, dict[str, tuple[str, list[Cell]]]]:
    """edition -> piece id -> (name or colour, cells) as written in pieces.md."""
    sections = reference_sections()
    shapes: dict[str, dict[str, tuple[str, list[Cell]]]] = {}
    shapes["classic"] = {row[0]: (row[1], picture(row[3])) for row in sections["classic"]}
    shapes["3d"] = {row[0]: (row[1], tuples(row[3])) for row in sections["3d"]}
    shapes["extreme"] = {row[0]: (row[1], tuples(row[2])) for row in sections["extreme"]}
    shapes["trigo"] = {row[0]: (row[1], tuples(row[2])) for row in sections["trigo"]}
    return shapes


def test_reference_was_parsed() -> None:
    counts = {name: len(pieces) for name, pieces in reference_shapes().items()}
    assert counts == {"classic": 12, "3d": 8, "extreme": 10, "trigo": 7}


@pytest.mark.parametrize("name", EDITION_NAMES)
def test_pieces_equal_the_reference(name: str) -> None:
    ed = edition(name)
    reference = reference_shapes()[name]
    assert [p.id for p in ed.pieces] == list(reference)
    for piece in ed.pieces:
        label, cells = reference[piece.id]
        assert piece.cells == ed.lattice.normalize(cells), piece.id
        assert label in (piece.name, piece.colour_name), piece.id


def test_classic_sizes_and_colours_equal_the_reference() -> None:
    for row in reference_sections()["classic"]:
        piece = edition("classic").piece(row[0])
        assert piece.size == int(row[2])
        rgb = tuple(int(v) for v in re.findall(r"\d+", row[4].split("(")[1]))
        assert piece.colour == rgb
        assert row[4].startswith(piece.colour_name)


@pytest.mark.parametrize(
    ("name", "total", "count"),
    [("classic", 48, 12), ("3d", 32, 8), ("extreme", 37, 10), ("trigo", 32, 7)],
)
def test_edition_totals(name: str, total: int, count: int) -> None:
    ed = edition(name)
    assert len(ed.pieces) == count
    assert sum(p.size for p in ed.pieces) == total
    assert all(ed.lattice.is_connected(p.cells) for p in ed.pieces)
    # no two pieces of an edition are congruent
    allowed = None if ed.layers == 1 else ed.lattice.rotations
    forms = {ed.lattice.canonical(p.cells, allowed) for p in ed.pieces}
    assert len(forms) == count


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # polyomino orientations under rotation and reflection (textbook facts)
        (
            "classic",
            {"A": 2, "B": 2, "C": 4, "D": 4, "E": 8, "F": 2, "G": 4, "H": 1}
            | {"I": 8, "J": 8, "K": 8, "L": 4},
        ),
        # pieces.md: red2 3, green3 / red4 / yellow4 12, the others 24
        (
            "3d",
            {"red2": 3, "green3": 12, "red4": 12, "yellow4": 12}
            | {"blue4": 24, "green5": 24, "blue5": 24, "yellow5": 24},
        ),
    ],
)
def test_orientation_counts(name: str, expected: dict[str, int]) -> None:
    ed = edition(name)
    assert {p.id: len(p.orientations) for p in ed.pieces} == expected


@pytest.mark.parametrize("name", EDITION_NAMES)
def test_orientations_are_distinct_congruent_and_complete(name: str) -> None:
    for piece in edition(name).pieces:
        lat = piece.lattice
        shapes = piece.orientations
        assert len(set(shapes)) == len(shapes)
        assert all(s == lat.normalize(s) for s in shapes)
        every_turn = {lat.orient(piece.cells, t) for t in piece.allowed_transforms}
        assert every_turn == set(shapes)
        assert len(piece.orientation_transforms) == len(shapes)
        # the number of orientations divides the group's size (orbit-stabilizer)
        assert len(piece.allowed_transforms) % len(shapes) == 0


def test_3d_pieces_turn_without_mirroring() -> None:
    ed = edition("3d")
    assert ed.layers == 2 and ed.area_lattice is SQUARE and ed.lattice is CUBE
    assert all(not p.reflections for p in ed.pieces)
    red4, yellow4 = ed.piece("red4"), ed.piece("yellow4")
    rotations = CUBE.rotations
    assert CUBE.canonical(red4.cells, rotations) != CUBE.canonical(yellow4.cells, rotations)
    assert yellow4.cells not in red4.orientations
    mirrored = CUBE.normalize((-x, y, z) for x, y, z in red4.cells)
    assert CUBE.canonical(mirrored, rotations) == CUBE.canonical(yellow4.cells, rotations)


def test_piece_lookup() -> None:
    assert edition("extreme").piece(10) is edition("extreme").piece("10")
    assert edition("trigo").has_piece(7) and not edition("trigo").has_piece(8)
    with pytest.raises(KeyError, match="no piece 'M' in classic"):
        edition("classic").piece("M")
    with pytest.raises(ValueError, match="unknown edition"):
        edition("junior")
    assert [e.name for e in editions()] == list(names())
    assert names()[: len(EDITION_NAMES)] == EDITION_NAMES


@pytest.mark.parametrize(
    ("cells", "lattice_name", "message"),
    [
        ([], "square", "no cells"),
        ([(0, 0), (0, 0)], "square", "twice"),
        ([(0, 0), (2, 0)], "square", "not connected"),
        ([(0, 0, 2)], "triangle", "not a cell of the triangle lattice"),
    ],
)
def test_make_piece_rejects_bad_shapes(cells: list[Cell], lattice_name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_piece("X", cells, lattice_name)


def test_make_piece_normalizes() -> None:
    piece: Piece = make_piece("X", [(5, 5), (6, 5)], "square")
    assert piece.cells == frozenset({(0, 0), (1, 0)})
    assert len(piece.orientations) == 2


def test_a_pieces_kept_hash_is_its_fields_and_stays_in_its_process() -> None:
    # the hash is made once and kept; an equal piece made anew hashes alike, and a piece
    # pickled here (hash kept) is found as a key in another process, whose strings hash
    # differently (the card worker's process gets pieces that way)
    piece = edition(names()[0]).pieces[0]
    again = make_piece(
        piece.id,
        piece.cells,
        piece.lattice.name,
        reflections=piece.reflections,
        number=piece.number,
        name=piece.name,
        colour=piece.colour,
        colour_name=piece.colour_name,
    )
    assert again == piece and hash(again) == hash(piece)
    assert {piece: 1}[again] == 1
    sent = pickle.dumps(piece)
    check = (
        "import pickle, sys\n"
        "from ubongo.pieces import edition\n"
        "piece = pickle.loads(sys.stdin.buffer.read())\n"
        f"mine = {{p: p.id for p in edition({names()[0]!r}).pieces}}\n"
        "print(mine[piece])\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", check], input=sent, capture_output=True, env=env, check=True
    )
    assert done.stdout.decode().strip() == piece.id
