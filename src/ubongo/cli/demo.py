"""``ubongo demo``: one puzzle of each edition, solved, as terminal pictures.

What ``make run`` shows until the game server exists.  The puzzles are the example files that
come with the package (``examples/`` in the repository).
"""

from __future__ import annotations

import sys
import time

import typer

from ubongo import editions
from ubongo.cli import SUMMARY
from ubongo.cli.console import ColourMode, console, results
from ubongo.cli.picture import render, use_colour
from ubongo.puzzlefile import example, example_names
from ubongo.solver import count, solve


def register(app: typer.Typer) -> None:
    app.command(
        "demo",
        help="Solve the example puzzles (one per edition, then the custom ones) and show a "
        "solution of each as a picture, then a table of them all.",
        short_help=SUMMARY["demo"],
    )(run)


def run(color: ColourMode = "auto") -> int:
    colour = use_colour(sys.stdout, color)
    # one example per edition (named after it), in the editions' order; the custom ones follow
    shipped = [n for n in editions.names() if n in example_names()]
    names = [*shipped, *(n for n in example_names() if n not in shipped)]
    unsolved = 0
    rows: list[tuple[str, str, int, int | str, float]] = []
    for name in names:
        puzzle = example(name)
        start = time.perf_counter()
        solution = solve(puzzle.area, puzzle.pieces)
        title = puzzle.name or name
        print(title)
        print("=" * len(title))
        if solution is None:
            print("no solution")
            unsolved += 1
            n: int | str = 0
        else:
            print(render(puzzle.area, puzzle.pieces, solution, colour=colour))
            n = count(puzzle.area, puzzle.pieces)
            print(f"{n} solution{'s' if n != 1 else ''}; ubongo solve examples/{name}.json")
        ms = (time.perf_counter() - start) * 1000
        rows.append((f"examples/{name}.json", title, len(puzzle.pieces), n, ms))
        print()
    console(colour=colour).print(
        results("Solved", ("file", "puzzle", "pieces", "solutions", "ms"), rows)
    )
    print("Puzzle files: docs/puzzle-format.md; try `ubongo solve examples/trigo.json --json`.")
    return 1 if unsolved else 0
