"""``ubongo deck generate | show | print``: files, boards drawn, the PDF renders, clear errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ubongo.cli import main
from ubongo.puzzles.codes import task_code
from ubongo.puzzles.deck import Deck, standard_deck
from ubongo.puzzles.generator import generate_deck

DECKS = Path(__file__).resolve().parents[1] / "src" / "ubongo" / "data" / "decks"


def test_generate_writes_the_deck_of_the_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.json"
    assert (
        main(
            [
                "deck",
                "generate",
                "--edition",
                "extreme",
                "--seed",
                "4",
                "--cards",
                "2",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    assert Deck.load(out).dumps() == generate_deck("extreme", 4, cards=2).dumps()
    assert capsys.readouterr().err == ""  # no progress bar when stderr is not a terminal


def test_generate_shows_progress_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.json"
    main(["deck", "generate", "--edition", "trigo", "--cards", "2", "--progress", "-o", str(out)])
    err = capsys.readouterr().err
    assert "4/4 sides" in err and err.endswith("\n")


def test_generate_to_standard_output_through_the_installed_command() -> None:
    run = subprocess.run(
        [
            str(Path(sys.executable).parent / "ubongo"),
            "deck",
            "generate",
            "--edition",
            "trigo",
            "--cards",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(run.stdout)["edition"] == "trigo"


def test_show_draws_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "show", str(DECKS / "classic.json"), "--board", "2"]) == 0
    out = capsys.readouterr().out
    assert "board 2, side A" in out and "board 2, side B" in out
    assert "...." in out  # the area's cells, without colour
    assert "\x1b[" not in out
    assert "board 3" not in out
    assert out.count("solution") == 12  # six tasks a side


@pytest.mark.parametrize("name", ["3d", "extreme", "trigo"])
def test_show_draws_every_lattice_in_colour(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["deck", "show", str(DECKS / f"{name}.json"), "--board", "1", "--colour", "always"])
    out = capsys.readouterr().out
    assert "\x1b[48;2;" in out  # cells painted
    keys = {"3d": "1", "extreme": "upper-left", "trigo": "card"}[name]
    assert keys in out


@pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="needs poppler-utils (scripts/system-packages.txt)"
)
@pytest.mark.parametrize("name", ["classic", "3d", "extreme", "trigo"])
def test_print_makes_a_pdf_that_renders(name: str, tmp_path: Path) -> None:
    pdf = tmp_path / "boards.pdf"
    assert main(["deck", "print", str(DECKS / f"{name}.json"), "--board", "1", "-o", str(pdf)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(
        ["pdftoppm", "-r", "30", "-png", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
        check=True,
    )
    png = next(tmp_path.glob("page*.png"))
    assert png.read_bytes().startswith(b"\x89PNG")
    # the same page as a grey map: a good share of it is ink, not blank paper
    subprocess.run(
        ["pdftoppm", "-r", "30", "-gray", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "grey")],
        check=True,
    )
    data = next(tmp_path.glob("grey*.pgm")).read_bytes()
    width, height = (int(v) for v in data.split(b"\n")[1].split())
    pixels = data[-width * height :]
    marked = sum(1 for v in pixels if v < 230)
    assert marked > 0.03 * width * height
    # each task's code is printed with it (its solution on the web client's /solution page)
    text = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], check=True, capture_output=True
    ).stdout.decode()
    first = standard_deck(name).card(1).sides[0]
    assert task_code(name, 1, first.name, first.tasks[0].keys[0]) in text


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as raised:
        code = main(argv)
        raise SystemExit(code)
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deck", "generate", "--edition", "chess"], "unknown edition 'chess'"),
        (["deck", "generate"], "--edition"),
        (
            ["deck", "generate", "--edition", "classic", "--seed", "x"],
            "--seed must be a whole number",
        ),
        (["deck", "generate", "--edition", "classic", "--seed", "-3"], "--seed must be at least 0"),
        (
            ["deck", "generate", "--edition", "classic", "--cards", "0"],
            "--cards must be at least 1",
        ),
        (["deck", "generate", "--edition", "classic", "-o", "/no/such/dir/d.json"], "no directory"),
        (["deck", "show", "/no/such/deck.json"], "cannot read"),
        (["deck", "show", str(DECKS / "classic.json"), "--board", "99"], "boards 1 to 36"),
        (["deck", "print", str(DECKS / "classic.json"), "-o", "boards.png"], ".pdf"),
        (["deck", "print", str(DECKS / "classic.json")], "-o"),
        (["deck"], "generate, show or print"),
        (["deck", "frobnicate"], "invalid choice"),
        (["deck", "show", str(DECKS / "classic.json"), "--colour", "pink"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert message in _one_line_error(capsys, argv)


def test_a_file_that_is_not_a_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert "not a deck" in _one_line_error(capsys, ["deck", "show", str(bad)])


def test_a_failed_write_keeps_the_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.json"
    out.write_text("precious")
    _one_line_error(
        capsys, ["deck", "generate", "--edition", "classic", "--seed", "nope", "-o", str(out)]
    )
    assert out.read_text() == "precious"
