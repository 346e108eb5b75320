"""``ubongo demo``: one puzzle of each edition, solved, as terminal pictures.

What ``make run`` shows until the game server exists.  The puzzles are the example files that
come with the package (``examples/`` in the repository).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ubongo import editions
from ubongo.cli.picture import add_colour_option, render, use_colour
from ubongo.puzzlefile import example, example_names
from ubongo.solver import count, solve


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="solve one example puzzle of each edition and show the solutions",
        description="Solve the example puzzles (one per edition, then the custom ones) and "
        "show a solution of each as a picture.",
    )
    add_colour_option(parser, "the pictures")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    colour = use_colour(sys.stdout, args.color)
    # one example per edition (named after it), in the editions' order; the custom ones follow
    shipped = [n for n in editions.names() if n in example_names()]
    names = [*shipped, *(n for n in example_names() if n not in shipped)]
    unsolved = 0
    for name in names:
        puzzle = example(name)
        solution = solve(puzzle.area, puzzle.pieces)
        title = puzzle.name or name
        print(title)
        print("=" * len(title))
        if solution is None:
            print("no solution")
            unsolved += 1
        else:
            print(render(puzzle.area, puzzle.pieces, solution, colour=colour))
            n = count(puzzle.area, puzzle.pieces)
            print(f"{n} solution{'s' if n != 1 else ''}; ubongo solve examples/{name}.json")
        print()
    print("Puzzle files: docs/puzzle-format.md; try `ubongo solve examples/trigo.json --json`.")
    return 1 if unsolved else 0
