"""Puzzle files: what they may say, and a clear one-line error for everything else."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

import ubongo.puzzlefile
from ubongo.geometry import CUBE, HEXAGON, SQUARE, TRIANGLE
from ubongo.pieces import edition
from ubongo.puzzlefile import (
    Puzzle,
    PuzzleFileError,
    example,
    example_names,
    from_json,
    load,
    loads,
    to_json,
)
from ubongo.solver import count

REPO = Path(__file__).resolve().parents[1]


def test_doctests() -> None:
    assert doctest.testmod(ubongo.puzzlefile).failed == 0


def test_examples_folder_holds_the_packaged_examples() -> None:
    files = sorted(p.stem for p in (REPO / "examples").glob("*.json"))
    assert files == example_names()
    assert {"classic", "3d", "extreme", "trigo"} <= set(files)
    assert any(name.startswith("custom") for name in files)


@pytest.mark.parametrize("name", example_names())
def test_every_example_loads_and_has_a_solution(name: str) -> None:
    puzzle = load(REPO / "examples" / f"{name}.json")
    assert puzzle == example(name)
    assert puzzle.name
    assert count(puzzle.area, puzzle.pieces) > 0
    if puzzle.edition is not None:
        ed = edition(puzzle.edition)
        assert puzzle.edition == name
        assert all(ed.piece(p.id) is p for p in puzzle.pieces)


def edition_puzzle(name: str, area: Any, pieces: list[Any]) -> Puzzle:
    return from_json({"edition": name, "area": area, "pieces": pieces})


def test_edition_areas_are_in_the_edition_coordinates() -> None:
    classic = edition_puzzle("classic", [[0, 0], [1, 0]], ["A"])
    assert classic.area.lattice is SQUARE and classic.area.layers == 1
    three_d = edition_puzzle("3d", [[0, 0]], ["red2"])
    assert three_d.area.lattice is SQUARE and three_d.area.layers == 2
    assert three_d.lattice is CUBE and three_d.area.solid == {(0, 0, 0), (0, 0, 1)}
    assert count(three_d.area, three_d.pieces) == 1
    extreme = edition_puzzle("extreme", [[0, 0], [0, 1], [0, 2]], [1])
    assert extreme.area.lattice is HEXAGON and count(extreme.area, extreme.pieces) == 1
    trigo = edition_puzzle("trigo", [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1]], ["1"])
    assert trigo.area.lattice is TRIANGLE and count(trigo.area, trigo.pieces) == 1


def test_picture_rows_equal_cell_lists() -> None:
    rows = edition_puzzle("classic", [".##", "## "], ["C", "A"])
    cells = edition_puzzle("classic", [[1, 0], [2, 0], [0, 1], [1, 1]], ["C", "A"])
    assert rows == cells
    three_d = edition_puzzle("3d", ["##", "#."], ["red2", "yellow4"])
    assert three_d.area.cells == {(0, 0), (1, 0), (0, 1)}


def test_numbered_pieces_may_be_numbers_or_strings() -> None:
    area = [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [2, 0], [2, 1]]
    assert edition_puzzle("extreme", area, [1, 7]) == edition_puzzle("extreme", area, ["1", "7"])
    assert [p.name for p in edition_puzzle("extreme", area, [10]).pieces] == ["propeller 4"]


def test_sizes_that_do_not_add_up_are_not_an_error() -> None:
    puzzle = edition_puzzle("classic", ["###"], ["A"])
    assert count(puzzle.area, puzzle.pieces) == 0


def test_custom_pieces_on_each_lattice() -> None:
    square = from_json(
        {
            "lattice": "square",
            "area": ["###", "#.."],
            "pieces": [
                {"id": "long", "cells": [[0, 0], [1, 0], [2, 0]]},
                {"id": 2, "cells": [[5, 5]], "colour": [1, 2, 3], "name": "dot"},
            ],
        }
    )
    assert [p.id for p in square.pieces] == ["long", "2"]
    assert square.pieces[1].colour == (1, 2, 3) and square.pieces[1].name == "dot"
    assert square.pieces[0].colour != square.pieces[1].colour
    assert all(p.reflections for p in square.pieces)
    assert count(square.area, square.pieces) == 1
    hexagon = from_json(
        {
            "lattice": "hexagon",
            "area": [[0, 0], [1, 0], [0, 1]],
            "pieces": [{"id": "a", "cells": [[0, 0], [1, 0]]}, {"id": "b", "cells": [[0, 0]]}],
        }
    )
    assert count(hexagon.area, hexagon.pieces) == 3
    triangle = from_json(
        {
            "lattice": "triangle",
            "area": [[0, 0, 0], [0, 0, 1]],
            "pieces": [{"id": "d", "cells": [[0, 0, 0], [0, 0, 1]]}],
        }
    )
    assert triangle.lattice is TRIANGLE and count(triangle.area, triangle.pieces) == 1


def test_mirror_false_keeps_a_piece_from_being_flipped() -> None:
    data: dict[str, Any] = {
        "lattice": "square",
        "area": ["##", "#.", "#."],
        "pieces": [{"id": "L", "cells": [[0, 0], [1, 0], [1, 1], [1, 2]]}],
    }
    assert count(from_json(data).area, from_json(data).pieces) == 1
    unflippable = from_json({**data, "mirror": False})
    assert not unflippable.pieces[0].reflections
    assert count(unflippable.area, unflippable.pieces) == 0


def test_cube_areas_flat_in_layers_or_solid() -> None:
    piece = {"id": "bar", "cells": [[0, 0, 0], [1, 0, 0]]}
    two = from_json(
        {"lattice": "cube", "area": [[0, 0], [1, 0]], "pieces": [piece, piece | {"id": "b2"}]}
    )
    assert two.area.layers == 2 and two.lattice is CUBE
    assert count(two.area, two.pieces) == 4  # both lying (which one on top) or both standing
    one = from_json({"lattice": "cube", "layers": 1, "area": [[0, 0], [1, 0]], "pieces": [piece]})
    assert one.area.solid == {(0, 0, 0), (1, 0, 0)} and count(one.area, one.pieces) == 1
    tall = from_json({"lattice": "cube", "area": [[0, 0, 0], [0, 0, 1]], "pieces": [piece]})
    assert tall.area.solid == {(0, 0, 0), (0, 0, 1)} and count(tall.area, tall.pieces) == 1
    three = from_json({"lattice": "cube", "layers": 3, "area": ["#"], "pieces": [piece]})
    assert three.area.size == 3


def test_an_edition_puzzle_may_add_home_made_pieces() -> None:
    puzzle = edition_puzzle(
        "trigo",
        [[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]],
        [1, {"id": "x", "cells": [[0, 0, 0]]}],
    )
    assert [p.id for p in puzzle.pieces] == ["1", "x"]
    assert puzzle.pieces[1].lattice is TRIANGLE
    assert count(puzzle.area, puzzle.pieces) == 1


@pytest.mark.parametrize("name", example_names())
def test_round_trip_examples(name: str) -> None:
    puzzle = example(name)
    assert from_json(to_json(puzzle)) == puzzle
    assert loads(ubongo.puzzlefile.dumps(puzzle)) == puzzle


def test_round_trip_custom_cube_areas() -> None:
    piece = {"id": "bar", "cells": [[0, 0, 0], [1, 0, 0]]}
    for extra in ({"layers": 1}, {"layers": 2}, {}):
        area = [[0, 0, 0], [0, 0, 1]] if not extra else [[0, 0]]
        puzzle = from_json({"lattice": "cube", "area": area, "pieces": [piece], **extra})
        assert from_json(to_json(puzzle)) == puzzle


BAD: list[tuple[str, str]] = [
    ('{"edition": "classic", "area": ["##"], "pieces": ["A"]', "malformed JSON at line 1"),
    ("", "malformed JSON"),
    ("[1, 2]", "a puzzle is a JSON object"),
    ('{"area": ["#"], "pieces": ["A"]}', 'a puzzle needs "edition"'),
    ('{"edition": "classic", "lattice": "square", "area": ["#"], "pieces": ["A"]}', "not both"),
    ('{"edition": "junior", "area": ["#"], "pieces": ["A"]}', "unknown edition 'junior'"),
    ('{"lattice": "octagon", "area": ["#"], "pieces": []}', "unknown lattice 'octagon'"),
    ('{"edition": "classic", "area": ["#"], "pieces": ["A"], "peices": 1}', "unknown key 'peices'"),
    ('{"edition": "classic", "pieces": ["A"]}', 'no "area"'),
    ('{"edition": "classic", "area": ["##"]}', 'no "pieces"'),
    ('{"edition": "classic", "area": "##", "pieces": ["A"]}', '"area" must be a list'),
    (
        '{"edition": "classic", "area": [[0, 0, 0]], "pieces": ["A"]}',
        "[0, 0, 0] is not a cell of the square",
    ),
    ('{"edition": "classic", "area": [[0, 0.5]], "pieces": ["A"]}', "is not a cell of the square"),
    ('{"edition": "classic", "area": [[0, true]], "pieces": ["A"]}', "is not a cell of the square"),
    ('{"edition": "classic", "area": [5], "pieces": ["A"]}', "5 is not a cell of the square"),
    (
        '{"edition": "trigo", "area": [[0, 0, 2]], "pieces": [1]}',
        "[0, 0, 2] is not a cell of the triangle",
    ),
    ('{"edition": "extreme", "area": [[0, 0, 0]], "pieces": [1]}', "not a cell of the hexagon"),
    ('{"edition": "3d", "area": [[0, 0, 0]], "pieces": ["red2"]}', "not a cell of the square"),
    ('{"edition": "extreme", "area": ["##"], "pieces": [1]}', "picture rows are for square"),
    ('{"edition": "classic", "area": ["#x"], "pieces": ["A"]}', "area row 1 has 'x'"),
    ('{"edition": "classic", "area": [[0, 0], [0, 0]], "pieces": ["A"]}', "[0, 0] is listed twice"),
    ('{"edition": "classic", "area": [], "pieces": ["A"]}', "the area is empty"),
    ('{"edition": "classic", "area": ["..", ".."], "pieces": ["A"]}', "the area is empty"),
    ('{"edition": "classic", "area": ["#"], "pieces": "A"}', '"pieces" must be a list'),
    ('{"edition": "classic", "area": ["#"], "pieces": []}', "no pieces"),
    ('{"edition": "classic", "area": ["#"], "pieces": ["Z"]}', "unknown piece 'Z' in classic"),
    ('{"edition": "extreme", "area": [[0, 0]], "pieces": [11]}', "unknown piece 11 in extreme"),
    ('{"edition": "3d", "area": ["#"], "pieces": ["red3"]}', "unknown piece 'red3' in 3d"),
    ('{"edition": "classic", "area": ["#"], "pieces": [true]}', "neither a piece id"),
    (
        '{"edition": "classic", "area": ["##"], "pieces": ["A", "B", "A"]}',
        "piece 'A' is listed twice",
    ),
    ('{"edition": "trigo", "area": [[0,0,0]], "pieces": [7, "7"]}', "piece '7' is listed twice"),
    (
        '{"edition": "classic", "area": ["#"], "pieces": ["A", {"id": "A", "cells": [[0, 0]]}]}',
        "piece 'A' is listed twice",
    ),
    ('{"lattice": "square", "area": ["#"], "pieces": ["A"]}', 'an object with "id" and "cells"'),
    (
        '{"lattice": "square", "area": ["#"], "pieces": [{"cells": [[0, 0]]}]}',
        'piece 1 needs an "id"',
    ),
    (
        '{"lattice": "square", "area": ["#"], "pieces": [{"id": "p"}]}',
        "piece 'p': \"cells\" must be",
    ),
    ('{"lattice": "square", "area": ["#"], "pieces": [{"id": "p", "cells": []}]}', "no cells"),
    (
        '{"lattice": "square", "area": ["#"], "pieces": [{"id": "p", "cells": [[0, 0, 1]]}]}',
        "piece 'p': [0, 0, 1] is not a cell of the square lattice",
    ),
    (
        '{"lattice": "square", "area": ["#"], "pieces": [{"id": "p", "cells": [[0, 0], [2, 0]]}]}',
        "not connected",
    ),
    (
        '{"lattice": "square", "area": ["#"], "pieces": [{"id": "p", "cells": [[0, 0], [0, 0]]}]}',
        "lists a cell twice",
    ),
    (
        '{"lattice": "square", "area": ["#"],'
        ' "pieces": [{"id": "p", "cells": [[0, 0]], "colour": "red"}]}',
        '"colour" must be [red, green, blue]',
    ),
    (
        '{"lattice": "square", "area": ["#"],'
        ' "pieces": [{"id": "p", "cells": [[0, 0]], "size": 1}]}',
        "unknown key 'size' in a piece",
    ),
    (
        '{"lattice": "square", "layers": 2, "area": ["#"], "pieces": []}',
        '"layers" is only for the cube',
    ),
    (
        '{"lattice": "cube", "layers": 0, "area": ["#"], "pieces": []}',
        '"layers" must be a whole number',
    ),
    (
        '{"lattice": "cube", "layers": 2, "area": [[0, 0, 0]], "pieces": []}',
        '"layers" goes with a flat',
    ),
    ('{"lattice": "cube", "mirror": true, "area": ["#"], "pieces": []}', "only turns pieces"),
    (
        '{"lattice": "square", "mirror": "yes", "area": ["#"], "pieces": []}',
        '"mirror" must be true or false',
    ),
    (
        '{"edition": "classic", "name": 5, "area": ["#"], "pieces": ["A"]}',
        '"name" must be a string',
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_files_give_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(PuzzleFileError) as caught:
        loads(text)
    error = str(caught.value)
    assert message in error
    assert "\n" not in error


def test_load_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(PuzzleFileError, match=r"nothing\.json: no such file"):
        load(tmp_path / "nothing.json")
    with pytest.raises(PuzzleFileError, match="cannot read it"):
        load(tmp_path)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleFileError, match="not a text file"):
        load(binary)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"edition": "classic", "area": ["#"], "pieces": ["Q"]}))
    with pytest.raises(PuzzleFileError, match=r"broken\.json: unknown piece 'Q'"):
        load(broken)


def test_unknown_example() -> None:
    with pytest.raises(PuzzleFileError, match="no example 'nope'"):
        example("nope")
