"""``ubongo solve FILE``: solve a puzzle file and show a solution, or count them; a pack file
(docs/puzzle-format.md, "Packs"): each of its puzzles in turn.

Exit status: 0 solved (a pack: every puzzle), 1 no solution (a pack: for some puzzle), 2 a
file that cannot be read (one line on stderr).

    $ ubongo solve examples/classic.json --count
    1
    $ ubongo solve examples/extreme.json --json
    {"solved": true, "pieces": [{"piece": 2, "cells": [[0, 3], [0, 4], [1, 2]], ...}, ...]}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Annotated, Any

import typer

from ubongo.board import Placement
from ubongo.cli import SUMMARY, CommandError
from ubongo.cli.console import ColourMode
from ubongo.cli.picture import render, use_colour
from ubongo.geometry import Cell
from ubongo.puzzlefile import Pack, Puzzle, PuzzleFileError, id_to_json, load_any, loads_any
from ubongo.solver import count, solve


def register(app: typer.Typer) -> None:
    app.command(
        "solve",
        help="Solve a puzzle file (docs/puzzle-format.md) and show one solution as a picture, "
        "or count the solutions. Exit status 0: solved, 1: no solution, 2: the file cannot be "
        "read.",
        short_help=SUMMARY["solve"],
    )(run)


def read_puzzle(name: str) -> Puzzle | Pack:
    """The puzzle or pack in file ``name`` (``-``: standard input); a bad file is a
    CommandError."""
    try:
        if name == "-":
            try:
                return loads_any(sys.stdin.read())
            except PuzzleFileError as e:
                raise PuzzleFileError(f"<stdin>: {e}") from None
        return load_any(name)
    except PuzzleFileError as e:
        raise CommandError(str(e)) from None


def solution_json(puzzle: Puzzle, solution: Mapping[str, frozenset[Cell]]) -> dict[str, Any]:
    """``{"solved": true, "pieces": [{"piece", "cells", "transform", "offset"}, ...]}``."""
    out = []
    for piece in puzzle.pieces:
        cells = solution[piece.id]
        placement = Placement.covering(piece, cells)
        out.append(
            {
                "piece": id_to_json(piece.id),
                "cells": [list(c) for c in sorted(cells)],
                "transform": placement.transform,
                "offset": list(placement.offset),
            }
        )
    return {"solved": True, "pieces": out}


def run(
    file: Annotated[
        str, typer.Argument(help="the puzzle file (JSON), or - to read standard input")
    ],
    count_: Annotated[bool, typer.Option("--count", help="print the number of solutions")] = False,
    limit: Annotated[
        int | None,
        typer.Option(metavar="N", help="with --count: stop counting at N solutions"),
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    color: ColourMode = "auto",
) -> int:
    if limit is not None and (not count_ or limit < 1):
        raise CommandError("--limit goes with --count and is 1 or more")
    found = read_puzzle(file)
    if isinstance(found, Pack):
        return run_pack(found, count_, limit, json_, color)
    return run_one(found, count_, limit, json_, color)


def run_pack(pack: Pack, count_: bool, limit: int | None, json_: bool, color: ColourMode) -> int:
    """Each puzzle of ``pack`` in turn: with ``--json``, one JSON object of them all
    (``{"puzzles": [...]}``); 0 when every puzzle is solved (counted at least once)."""
    answers: list[Any] = []
    worst = 0
    for i, puzzle in enumerate(pack.puzzles, 1):
        if count_:
            n = count(puzzle.area, puzzle.pieces, limit=limit)
            answers.append({"count": n})
            worst = max(worst, 0 if n else 1)
            if not json_:
                print(f"{i}: {n}")
            continue
        if not json_:
            print(f"{i} of {len(pack.puzzles)}" + (f": {pack.name}" if pack.name else ""))
        code = run_one(puzzle, False, None, json_, color, quiet=json_, into=answers)
        worst = max(worst, code)
        if not json_:
            print()
    if json_:
        print(json.dumps({"puzzles": answers}))
    return worst


def run_one(
    puzzle: Puzzle,
    count_: bool,
    limit: int | None,
    json_: bool,
    color: ColourMode,
    quiet: bool = False,
    into: list[Any] | None = None,
) -> int:
    """Solve or count one puzzle, printed (``quiet``: only appended to ``into``)."""
    if count_:
        n = count(puzzle.area, puzzle.pieces, limit=limit)
        print(json.dumps({"count": n}) if json_ else n)
        return 0 if n else 1
    solution = solve(puzzle.area, puzzle.pieces)
    if quiet and into is not None:
        into.append(solution_json(puzzle, solution) if solution else {"solved": False})
    elif json_:
        print(json.dumps(solution_json(puzzle, solution) if solution else {"solved": False}))
    elif solution is None:
        print("no solution")
    else:
        if puzzle.name:
            print(puzzle.name)
            print()
        print(render(puzzle.area, puzzle.pieces, solution, colour=use_colour(sys.stdout, color)))
    return 0 if solution else 1
