"""``ubongo solve`` and ``ubongo demo``, and the terminal pictures they print."""

from __future__ import annotations

import doctest
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import ubongo.cli.picture
from ubongo.board import Area, Placement, check_cover
from ubongo.cli import main
from ubongo.cli.picture import inks, render, use_colour
from ubongo.geometry import HEXAGON, TRIANGLE
from ubongo.pieces import edition
from ubongo.puzzlefile import example, example_names
from ubongo.solver import count, solve

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
UBONGO = Path(sys.executable).with_name("ubongo")  # the console script of this environment
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Any:
    """The real command in a subprocess (not a terminal, so no colour unless asked)."""
    return subprocess.run(
        [str(UBONGO), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_doctests() -> None:
    assert doctest.testmod(ubongo.cli.picture).failed == 0


# ---------------------------------------------------------------- solve: good files


@pytest.mark.parametrize("name", example_names())
def test_solve_prints_a_picture_of_a_solution(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(EXAMPLES / f"{name}.json")]) == 0
    out = capsys.readouterr().out
    puzzle = example(name)
    assert out.startswith(puzzle.name + "\n")
    assert not ANSI.search(out)  # captured output is not a terminal
    keys = inks(puzzle.pieces)
    for piece in puzzle.pieces:
        assert re.search(rf"^{re.escape(keys[piece.id].key)} ", out, re.M), piece.id
        assert keys[piece.id].key * 4 in out  # each piece's cells are drawn with its key


def test_solve_json_gives_placements_that_cover_the_area() -> None:
    for name in example_names():
        result = run("solve", "--json", str(EXAMPLES / f"{name}.json"))
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["solved"] is True
        puzzle = example(name)
        by_id = {p.id: p for p in puzzle.pieces}
        placements = []
        for item in data["pieces"]:
            piece = by_id[str(item["piece"])]
            placement = Placement(piece.id, item["transform"], tuple(item["offset"]))
            assert placement.cells(piece) == {tuple(c) for c in item["cells"]}
            placements.append(placement)
        assert check_cover(puzzle.area, puzzle.pieces, placements).ok
        assert sorted(str(i["piece"]) for i in data["pieces"]) == sorted(by_id)


def test_numbered_pieces_are_numbers_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--json", str(EXAMPLES / "trigo.json")]) == 0
    pieces = [p["piece"] for p in json.loads(capsys.readouterr().out)["pieces"]]
    assert pieces == [1, 2, 5, 6]


@pytest.mark.parametrize("name", ["classic", "custom-square", "trigo"])
def test_count(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = example(name)
    expected = count(puzzle.area, puzzle.pieces)
    assert main(["solve", "--count", str(EXAMPLES / f"{name}.json")]) == 0
    assert capsys.readouterr().out == f"{expected}\n"
    assert main(["solve", "--count", "--json", str(EXAMPLES / f"{name}.json")]) == 0
    assert json.loads(capsys.readouterr().out) == {"count": expected}
    assert main(["solve", "--count", "--limit", "1", str(EXAMPLES / f"{name}.json")]) == 0
    assert capsys.readouterr().out == "1\n"


def test_standard_input() -> None:
    text = (EXAMPLES / "extreme.json").read_text()
    result = run("solve", "-", "--count", stdin=text)
    assert result.returncode == 0 and result.stdout == "2\n"


NO_SOLUTION = '{"edition": "classic", "area": ["###", "#.."], "pieces": ["H"]}'


def test_no_solution_exits_1() -> None:
    result = run("solve", "-", stdin=NO_SOLUTION)
    assert (result.returncode, result.stdout, result.stderr) == (1, "no solution\n", "")
    result = run("solve", "-", "--json", stdin=NO_SOLUTION)
    assert result.returncode == 1 and json.loads(result.stdout) == {"solved": False}
    result = run("solve", "-", "--count", "--json", stdin=NO_SOLUTION)
    assert result.returncode == 1 and json.loads(result.stdout) == {"count": 0}


# ---------------------------------------------------------------- solve: bad files

BAD_FILES = {
    "malformed JSON": ('{"edition": "classic", "area": [', "malformed JSON at line 1"),
    "unknown piece": (
        '{"edition": "classic", "area": ["##"], "pieces": ["A", "Q"]}',
        "unknown piece 'Q'",
    ),
    "cell not on the lattice": (
        '{"edition": "trigo", "area": [[0, 0, 0], [0, 0, 3]], "pieces": [1]}',
        "[0, 0, 3] is not a cell of the triangle lattice",
    ),
    "piece listed twice": (
        '{"edition": "extreme", "area": [[0, 0]], "pieces": [4, "4"]}',
        "piece '4' is listed twice",
    ),
    "unknown edition": ('{"edition": "mini", "area": ["#"], "pieces": ["A"]}', "unknown edition"),
    "unknown lattice": ('{"lattice": "penrose", "area": ["#"], "pieces": []}', "unknown lattice"),
    "empty area": ('{"edition": "classic", "area": [], "pieces": ["A"]}', "the area is empty"),
    "not a puzzle": ("42", "a puzzle is a JSON object"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file_exits_2_with_one_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_text(text)
    for extra in ([], ["--count"], ["--json"]):
        assert main(["solve", str(path), *extra]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1
        assert captured.err.startswith(f"ubongo solve: error: {path}: ")
        assert message in captured.err


@pytest.mark.parametrize("case", ["malformed JSON", "unknown piece", "piece listed twice"])
def test_bad_file_through_the_real_command(case: str) -> None:
    text, message = BAD_FILES[case]
    result = run("solve", "-", stdin=text)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("ubongo solve: error: <stdin>: ")
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_missing_file_and_folder(tmp_path: Path) -> None:
    result = run("solve", str(tmp_path / "gone.json"))
    assert result.returncode == 2
    assert result.stderr == f"ubongo solve: error: {tmp_path / 'gone.json'}: no such file\n"
    result = run("solve", str(tmp_path))
    assert result.returncode == 2 and "cannot read it" in result.stderr


def test_limit_needs_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--limit", "3", str(EXAMPLES / "classic.json")]) == 2
    assert "--limit goes with --count" in capsys.readouterr().err


# ---------------------------------------------------------------- colour


def test_colour_on_request_and_never_otherwise() -> None:
    path = str(EXAMPLES / "3d.json")
    plain = run("solve", path)
    assert plain.returncode == 0 and not ANSI.search(plain.stdout)
    coloured = run("solve", "--color", "always", path)
    assert "\x1b[48;2;" in coloured.stdout
    red = edition("3d").piece("red2").colour
    assert f"48;2;{red[0]};{red[1]};{red[2]}m" in coloured.stdout
    assert not ANSI.search(run("solve", "--color", "never", path).stdout)


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_use_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert use_colour(FakeTerminal())
    assert not use_colour(io.StringIO())
    assert use_colour(io.StringIO(), "always")
    assert not use_colour(FakeTerminal(), "never")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(FakeTerminal())
    assert use_colour(FakeTerminal(), "always")


# ---------------------------------------------------------------- pictures


def picture_rows(text: str) -> list[str]:
    """The picture part of a rendering (up to the blank line before the legend)."""
    return text.split("\n\n")[0].split("\n")


def test_square_picture_is_a_grid_of_cells() -> None:
    area = Area.from_rows(["##", "#."])
    piece = edition("classic").piece("C")
    text = render(area, [piece], solve(area, [piece]), colour=False)
    assert picture_rows(text) == ["CCCCCCCC", "CCCCCCCC", "CCCC", "CCCC"]


def test_uncovered_cells_are_dots() -> None:
    area = Area.from_rows(["###"])
    assert picture_rows(render(area, [], None, colour=False, legend=False)) == ["." * 12] * 2


def widths(rows: list[str]) -> list[int]:
    return [len(r.strip()) for r in rows]


def test_a_hexagon_is_narrow_at_its_tips() -> None:
    area = Area(HEXAGON, frozenset({(0, 0)}))
    rows = picture_rows(render(area, [], None, colour=False, legend=False))
    w = widths(rows)
    assert len(rows) >= 3 and w[0] < max(w) and w[-1] < max(w)
    # hexagons in the next row sit half a cell to the side (pointy-top rows are staggered)
    two_rows = Area(HEXAGON, frozenset({(0, 0), (0, 1)}))
    rows = picture_rows(render(two_rows, [], None, colour=False, legend=False))
    first, last = rows[1], rows[-2]
    shift = (len(last) - len(last.lstrip())) - (len(first) - len(first.lstrip()))
    assert shift == 4  # half of the 8-character width


def test_up_and_down_triangles_point_up_and_down() -> None:
    for s, narrowing_first in ((0, True), (1, False)):
        area = Area(TRIANGLE, frozenset({(0, 0, s)}))
        w = widths(picture_rows(render(area, [], None, colour=False, legend=False)))
        assert len(w) >= 3
        assert (w == sorted(w)) == narrowing_first  # an upward triangle widens downwards
        assert (w == sorted(w, reverse=True)) == (not narrowing_first)


def test_3d_levels_side_by_side() -> None:
    puzzle = example("3d")
    solution = solve(puzzle.area, puzzle.pieces)
    text = render(puzzle.area, puzzle.pieces, solution, colour=False)
    lines = text.split("\n")
    assert lines[0].startswith("level 1 (bottom)") and "level 2 (top)" in lines[0]
    keys = inks(puzzle.pieces)
    assert solution is not None
    for piece in puzzle.pieces:  # each piece covers as many character blocks as it has cubes
        drawn = sum(line.count(keys[piece.id].key) for line in picture_rows(text)[1:])
        assert drawn == 8 * piece.size


def test_colour_picture_labels_every_piece_and_paints_its_colour() -> None:
    puzzle = example("extreme")
    solution = solve(puzzle.area, puzzle.pieces)
    text = render(puzzle.area, puzzle.pieces, solution, colour=True, legend=False)
    plain = ANSI.sub("", text)
    assert set(plain) <= {" ", "\n", *"".join(p.id for p in puzzle.pieces)}
    for piece in puzzle.pieces:
        assert piece.id in plain
        assert "48;2;{};{};{}m".format(*piece.colour) in text
    assert len(plain.split("\n")) == len(text.split("\n"))


def test_keys_are_distinct_one_character() -> None:
    for ed in ("classic", "3d", "extreme", "trigo"):
        ink = inks(edition(ed).pieces)
        keys = [i.key for i in ink.values()]
        assert len(set(keys)) == len(keys) and all(len(k) == 1 and k != "." for k in keys)
        assert all(1 <= len(i.label) <= 2 for i in ink.values())


# ---------------------------------------------------------------- demo


def test_demo_solves_one_example_of_each_edition() -> None:
    result = run("demo", env={"NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    assert not ANSI.search(result.stdout)
    for name in example_names():
        assert example(name).name in result.stdout
    assert result.stdout.count("solution") >= len(example_names())
    assert "level 2 (top)" in result.stdout


def test_daily_writes_the_servers_set_as_puzzle_files_that_solve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import datetime

    from ubongo.puzzles.daily import daily

    assert main(["daily", "--edition", "extreme", "--date", "2026-11-23", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == daily("extreme", datetime.date(2026, 11, 23)).to_json()
    assert main(["daily", "--edition", "extreme", "--date", "2026-11-23", "-o", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("daily-extreme-2026-11-23-*.json"))
    assert len(files) == len(printed["tasks"]) == 5
    for path, task in zip(files, printed["tasks"], strict=True):
        assert json.loads(path.read_text()) == task
        assert main(["solve", str(path), "--color", "never"]) == 0
    capsys.readouterr()
    assert main(["daily", "--date", "23.11.2026"]) == 2
    assert main(["daily", "--edition", "chess"]) == 2
    assert "no edition 'chess'" in capsys.readouterr().err
