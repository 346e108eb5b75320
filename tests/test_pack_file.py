"""Pack files (docs/puzzle-format.md, "Packs"): read and written by ubongo.puzzlefile, and
solved puzzle by puzzle by ``ubongo solve`` (its exit status: 0 when every puzzle is solved)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ubongo.cli import main
from ubongo.puzzlefile import (
    Pack,
    PuzzleFileError,
    load,
    load_any,
    loads_any,
    pack_from_json,
    pack_to_json,
)
from ubongo.puzzles.deck import standard_deck

CLASSIC = {"edition": "classic", "area": [".##..", "####.", ".####", ".###."], "pieces": ["D"]}
SOLVED = {**CLASSIC, "pieces": ["D", "I", "G"], "name": "Stairs"}


def trigo() -> dict[str, object]:
    side = standard_deck("trigo").cards[0].sides[0]
    area = [list(c) for c in sorted(side.area.cells)]
    return {"edition": "trigo", "area": area, "pieces": list(side.tasks[0].pieces)}


def test_a_pack_reads_back_equal(tmp_path: Path) -> None:
    pack = pack_from_json({"name": "Mixed", "puzzles": [SOLVED, trigo()]})
    assert pack.name == "Mixed" and len(pack.puzzles) == 2
    assert pack_from_json(pack_to_json(pack)) == pack
    assert len(pack.puzzles[1].area.regions) == 2  # both of Trigo's areas in one puzzle
    path = tmp_path / "pack.json"
    path.write_text(json.dumps(pack_to_json(pack)))
    assert load_any(path) == pack
    assert loads_any(json.dumps(SOLVED)) == load_any(_write(tmp_path, SOLVED))
    with pytest.raises(PuzzleFileError, match='needs "edition"'):
        load(path)  # a puzzle's reader is not a pack's


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"puzzles": []}, "at least one puzzle"),
        ({"puzzles": "x"}, "at least one puzzle"),
        ({"puzzles": [SOLVED], "edition": "classic"}, "unknown key 'edition'"),
        ({"name": 3, "puzzles": [SOLVED]}, '"name" must be a string'),
        ({"puzzles": [SOLVED, {**SOLVED, "pieces": ["Z"]}]}, "puzzle 2: unknown piece"),
    ],
)
def test_bad_packs_say_what_is_wrong(data: object, says: str) -> None:
    with pytest.raises(PuzzleFileError, match=says):
        pack_from_json(data)


def _write(folder: Path, data: object) -> Path:
    path = folder / f"f{len(list(folder.iterdir()))}.json"
    path.write_text(json.dumps(data))
    return path


def test_ubongo_solve_solves_a_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, {"name": "Two", "puzzles": [SOLVED, trigo()]})
    assert main(["solve", str(good)]) == 0
    out = capsys.readouterr().out
    assert "1 of 2: Two" in out and "2 of 2: Two" in out and "Stairs" in out
    assert main(["solve", str(good), "--json"]) == 0
    answers = json.loads(capsys.readouterr().out)["puzzles"]
    assert [a["solved"] for a in answers] == [True, True]
    assert main(["solve", str(good), "--count"]) == 0
    assert capsys.readouterr().out.split() == ["1:", "1", "2:", "1"]
    # one puzzle with no solution: the pack's status is 1, the others still solved
    bad = _write(tmp_path, {"puzzles": [SOLVED, CLASSIC]})
    assert main(["solve", str(bad), "--json"]) == 1
    assert [a["solved"] for a in json.loads(capsys.readouterr().out)["puzzles"]] == [True, False]
    assert isinstance(load_any(bad), Pack)
    assert main(["solve", str(_write(tmp_path, {"puzzles": [{"edition": "classic"}]}))]) == 2
    assert "puzzle 1:" in capsys.readouterr().err
