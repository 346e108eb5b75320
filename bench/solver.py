"""How fast is ubongo.solver?  Counting every solution, against two reference solvers.

Run with ``make bench`` (installs the ``bench`` extra: xcover and OR-Tools) or
``.venv/bin/python bench/solver.py [--puzzles N] [--seed S] [--no-cpsat] [--cpsat-limit SECONDS]
[--no-decks] [--no-pentominoes] [--no-python]``.

Puzzles, all from one fixed seed:

* Ubongo-sized: for each lattice (classic squares, 3D two-layer cubes, extreme hexagons, Trigo
  triangles in two separate regions) and each task size of 3, 4, 5 and 6 pieces, ``N`` random
  tasks of the edition's own pieces on an area made by laying those pieces down next to each
  other (each new piece touching as many cells as it can), so every puzzle is solvable.  3D
  areas are flat shapes of half the pieces' volume, kept when they can be filled two deep.
* Every task of the four standard decks (1,423: what the generator and the server solve); the
  totals are printed after the table.
* The 12 pentominoes on a 6x10 rectangle, the X confined to the upper left quadrant so that
  each of the 2339 tilings is counted once, not four times.

Each solver counts all solutions of each puzzle:

* ``ubongo``: ``ubongo.solver`` with its compiled core (``ubongo._exact``), from the area and
  the pieces (placements included: its caches of grids and placements are cleared before each
  count);
* ``python``: the same with its pure-Python core (``set_core("python")``), the reference the
  compiled one is measured against (left out with ``--no-python``);
* ``xcover``: Dancing Cells compiled with numba, from the list of placements as options;
  its JIT compilation (or loading numba's cache) is timed once apart and left out;
* ``cp-sat``: OR-Tools CP-SAT enumerating all solutions of a 0/1 model (one variable per
  placement, each cell and each piece covered exactly once), from the same placements.

The references get their placements for free (computed by ubongo beforehand, untimed); the
times of ``ubongo`` include computing them.  All three must agree on every count, or the run
fails.  The table gives, per row, the median time per puzzle and the references' medians
divided by ubongo's (above 1: ubongo is faster).
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ubongo.board import Area
from ubongo.cli.console import progress
from ubongo.geometry import SQUARE, Cell, Lattice
from ubongo.pieces import Edition, Piece, edition, make_piece
from ubongo.solver import COMPILED, Core, ExactCover, clear_caches, set_core

Options = dict[str, list[frozenset[Cell]]]


@dataclass
class Puzzle:
    name: str
    lattice: Lattice
    cells: list[Cell]
    options: Options  # piece id -> its placements
    area: Area | None = None  # given: ubongo starts from area and pieces
    pieces: Sequence[Piece] = ()


# --- puzzles -------------------------------------------------------------------------------


def _lay_down(ed: Edition, pieces: Sequence[Piece], rng: random.Random) -> set[Cell] | None:
    """Cells of the pieces laid next to each other, each touching the others where it can."""
    lat = ed.lattice
    d = lat.translation_dims
    cells: set[Cell] = set()
    for piece in pieces:
        if not cells:
            cells |= set(rng.choice(piece.orientations))
            continue
        border = sorted({n for c in cells for n in lat.neighbours(c)} - cells)
        best: list[set[Cell]] = []
        best_contact = 0
        for _ in range(60):
            shape = sorted(rng.choice(piece.orientations))
            target = rng.choice(border)
            first = rng.choice([c for c in shape if c[d:] == target[d:]] or [shape[0]])
            if first[d:] != target[d:]:
                continue
            offset = tuple(t - f for t, f in zip(target[:d], first[:d], strict=True))
            placed = {lat.translate(c, offset) for c in shape}
            if placed & cells:
                continue
            contact = sum(n in cells for c in placed for n in lat.neighbours(c))
            if contact > best_contact:
                best, best_contact = [placed], contact
        if not best:
            return None
        cells |= best[0]
    return cells


def _flat_area(size: int, rng: random.Random) -> frozenset[Cell]:
    """A compact random polyomino of ``size`` squares."""
    cells: set[Cell] = {(0, 0)}
    while len(cells) < size:
        border = sorted({n for c in cells for n in SQUARE.neighbours(c)} - cells)
        weights = [sum(n in cells for n in SQUARE.neighbours(b)) ** 2 for b in border]
        cells.add(rng.choices(border, weights)[0])
    return frozenset(cells)


def ubongo_puzzle(ed: Edition, k: int, rng: random.Random) -> Puzzle:
    """A random solvable task of ``k`` of the edition's pieces."""
    while True:
        pieces = rng.sample(ed.pieces, k)
        if ed.layers > 1:
            volume = sum(p.size for p in pieces)
            if volume % 2:
                continue
            area = Area(SQUARE, _flat_area(volume // 2, rng), layers=2)
            if ExactCover.for_area(area, pieces).stats(limit=1).solutions == 0:
                continue
        elif ed.name == "trigo":
            half = rng.randint(1, k - 1)  # two separate regions
            left = _lay_down(ed, pieces[:half], rng)
            right = _lay_down(ed, pieces[half:], rng)
            if left is None or right is None:
                continue
            shift = max(c[0] for c in left) - min(c[0] for c in right) + 3
            cells = left | {(a + shift, b, s) for a, b, s in right}
            area = Area(ed.lattice, frozenset(cells))
        else:
            laid = _lay_down(ed, pieces, rng)
            if laid is None:
                continue
            area = Area(ed.lattice, frozenset(laid))
        return Puzzle(
            f"{ed.name} {k}",
            area.piece_lattice,
            sorted(area.solid),
            placements_of(area, pieces),
            area,
            pieces,
        )


def placements_of(area: Area, pieces: Sequence[Piece]) -> Options:
    """Each piece's placements inside the area: every orientation, every cell of it put on
    every cell of the area of its kind (computed plainly, independently of the solver)."""
    lat = area.piece_lattice
    d = lat.translation_dims
    solid = area.solid
    options: Options = {}
    for piece in pieces:
        found: set[frozenset[Cell]] = set()
        for shape in piece.orientations:
            first = min(shape)
            for target in solid:
                if target[d:] != first[d:]:
                    continue
                offset = tuple(t - f for t, f in zip(target[:d], first[:d], strict=True))
                placed = frozenset(lat.translate(c, offset) for c in shape)
                if placed <= solid:
                    found.add(placed)
        options[piece.id] = sorted(found, key=sorted)
    return options


def deck_puzzles(name: str) -> list[Puzzle]:
    """Every task of the edition's standard deck (what the generator and the server solve)."""
    from ubongo.puzzles.deck import standard_deck

    deck = standard_deck(name)
    puzzles = []
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                pieces = deck.task_pieces(task)
                area = side.area
                puzzles.append(
                    Puzzle(
                        f"deck {name}",
                        area.piece_lattice,
                        sorted(area.solid),
                        placements_of(area, pieces),
                        area,
                        pieces,
                    )
                )
    return puzzles


PENTOMINOES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["####", "#..."],
    "N": ["##..", ".###"],
    "P": ["##", "##", "#."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": ["####", ".#.."],
    "Z": ["##.", ".#.", ".##"],
}


def pentomino_puzzle(width: int = 10, height: int = 6) -> Puzzle:
    """The 12 pentominoes on ``width`` x ``height``, the X's centre in the upper left quadrant."""
    pieces = [
        make_piece(
            name,
            [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"],
            "square",
        )
        for name, rows in PENTOMINOES.items()
    ]
    area = Area.from_rows(["#" * width] * height)
    options = placements_of(area, pieces)
    options["X"] = [
        cells
        for cells in options["X"]
        if 2 * sum(x for x, _ in cells) < 5 * (width - 1)
        and 2 * sum(y for _, y in cells) < 5 * (height - 1)
    ]
    return Puzzle(f"pentominoes {width}x{height}", SQUARE, sorted(area.cells), options)


# --- the solvers ---------------------------------------------------------------------------


def count_ubongo(puzzle: Puzzle, core: Core = "compiled") -> int:
    before = set_core(core)
    try:
        clear_caches()  # each count as the first one on its area (the pieces are known)
        if puzzle.area is not None:
            return ExactCover.for_area(puzzle.area, puzzle.pieces).stats().solutions
        return ExactCover(puzzle.cells, puzzle.options, puzzle.lattice).stats().solutions
    finally:
        set_core(before)


def xcover_options(puzzle: Puzzle) -> list[list[str]]:
    return [
        [f"piece {pid}", *(str(c) for c in cells)]
        for pid, placements in puzzle.options.items()
        for cells in placements
    ]


def count_xcover(puzzle: Puzzle) -> int:
    import xcover  # type: ignore[import-not-found, import-untyped, unused-ignore]

    return sum(1 for _ in xcover.covers(xcover_options(puzzle)))


def count_cpsat(puzzle: Puzzle, time_limit: float = 60.0) -> int | None:
    """The number of solutions, or None when CP-SAT has not enumerated them all within
    ``time_limit`` seconds."""
    from ortools.sat.python import cp_model  # type: ignore[import-not-found, import-untyped, unused-ignore]

    model = cp_model.CpModel()
    covering: dict[Cell, list[Any]] = {c: [] for c in puzzle.cells}
    for pid, placements in puzzle.options.items():
        chosen = []
        for i, cells in enumerate(placements):
            var = model.new_bool_var(f"{pid}{i}")
            chosen.append(var)
            for c in cells:
                covering[c].append(var)
        model.add_exactly_one(chosen)
    for vars_ in covering.values():
        model.add_exactly_one(vars_)

    class Counter(cp_model.CpSolverSolutionCallback):  # type: ignore[misc, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    counter = Counter()
    status = solver.solve(model, counter)
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        return None
    return counter.found


# --- timing --------------------------------------------------------------------------------


def timed(
    fn: Callable[[Puzzle], int | None], puzzle: Puzzle, repeat: int
) -> tuple[int | None, float]:
    """The count, and the best of ``repeat`` wall-clock times."""
    best = float("inf")
    result: int | None = 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(puzzle)
        best = min(best, time.perf_counter() - start)
    return result, best


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def available_solvers(args: argparse.Namespace) -> dict[str, Callable[[Puzzle], int | None]]:
    """``ubongo`` (its compiled core), its Python core and whichever reference solvers are
    installed (and not turned off)."""
    solvers: dict[str, Callable[[Puzzle], int | None]] = {"ubongo": count_ubongo}
    if not COMPILED:
        print("ubongo._exact is not built: the ubongo column is the Python core")
    elif not args.no_python:
        solvers["python"] = functools.partial(count_ubongo, core="python")
    try:
        import xcover  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401

        solvers["xcover"] = count_xcover
    except ImportError:
        print("xcover is not installed (pip install -e '.[bench]'): left out")
    if not args.no_cpsat:
        try:
            from ortools.sat.python import cp_model  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401

            solvers["cp-sat"] = functools.partial(count_cpsat, time_limit=args.cpsat_limit)
        except ImportError:
            print("ortools is not installed (pip install -e '.[bench]'): left out")
    return solvers


def puzzle_rows(args: argparse.Namespace) -> list[tuple[str, list[Puzzle]]]:
    """The table's rows: a label and its puzzles, all drawn from ``args.seed``."""
    rng = random.Random(args.seed)
    rows: list[tuple[str, list[Puzzle]]] = []
    for name in ("classic", "3d", "extreme", "trigo"):
        ed = edition(name)
        for k in (3, 4, 5, 6):
            rows.append((f"{name} {k}", [ubongo_puzzle(ed, k, rng) for _ in range(args.puzzles)]))
    if not args.no_decks:
        for name in ("classic", "3d", "extreme", "trigo"):
            rows.append((f"deck {name}", deck_puzzles(name)))
    if not args.no_pentominoes:
        rows.append(("pentominoes 6x10", [pentomino_puzzle()]))
    return rows


@dataclass
class RowResult:
    """One row's outcome: each solver's times, who gave up, and ubongo's totals."""

    times: dict[str, list[float]]
    gave_up: set[str]
    solutions: int = 0
    nodes: int = 0


class Mismatch(Exception):
    """The solvers disagree on a puzzle's count."""


def run_row(
    label: str, puzzles: list[Puzzle], solvers: dict[str, Callable[[Puzzle], int | None]]
) -> RowResult:
    """Count every puzzle of a row with every solver; :class:`Mismatch` if they disagree."""
    result = RowResult({n: [] for n in solvers}, set())
    for puzzle in puzzles:
        repeat = 1 if puzzle.area is None else 5
        counts: dict[str, int | None] = {}
        for n, fn in solvers.items():
            counts[n], seconds = timed(fn, puzzle, repeat if n != "cp-sat" else 1)
            result.times[n].append(seconds)
            if counts[n] is None:
                result.gave_up.add(n)
        if len({c for c in counts.values() if c is not None}) != 1:
            raise Mismatch(f"MISMATCH in {label}: {counts}")
        result.solutions += counts["ubongo"] or 0
        if puzzle.area is not None:
            result.nodes += ExactCover.for_area(puzzle.area, puzzle.pieces).stats().nodes
        else:
            result.nodes += ExactCover(puzzle.cells, puzzle.options, puzzle.lattice).stats().nodes
    return result


def row_line(label: str, puzzles: list[Puzzle], result: RowResult, names: list[str]) -> str:
    """A row of the table: medians per solver, then the references' medians over ubongo's."""
    medians = {n: statistics.median(t) for n, t in result.times.items()}
    line = f"{label:<18} {len(puzzles):>7} {result.solutions:>9} {result.nodes:>9} "
    line += " ".join(f"{('>' if n in result.gave_up else '') + fmt(medians[n]):>10}" for n in names)
    for n in names[1:]:
        ratio = f"{medians[n] / medians['ubongo']:.1f}x"
        line += f" {('>' if n in result.gave_up else '') + ratio:>14}"
    return line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--puzzles", type=int, default=20, help="puzzles per row (default 20)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-cpsat", action="store_true", help="skip OR-Tools CP-SAT")
    parser.add_argument("--no-python", action="store_true", help="skip ubongo's Python core")
    parser.add_argument("--no-pentominoes", action="store_true", help="skip the 6x10 row")
    parser.add_argument("--no-decks", action="store_true", help="skip the standard decks' tasks")
    parser.add_argument(
        "--cpsat-limit", type=float, default=60.0, help="CP-SAT seconds per puzzle (default 60)"
    )
    args = parser.parse_args(argv)
    solvers = available_solvers(args)
    rows = puzzle_rows(args)

    if "xcover" in solvers:
        start = time.perf_counter()
        count_xcover(rows[0][1][0])
        print(
            f"xcover warm-up (numba JIT compile or cache load): {time.perf_counter() - start:.2f} s"
        )

    names = list(solvers)
    header = f"{'row':<18} {'puzzles':>7} {'solutions':>9} {'nodes':>9} " + " ".join(
        f"{n:>10}" for n in names
    )
    header += "".join(f" {n + '/ubongo':>14}" for n in names[1:])
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"python {sys.version.split()[0]}; load average {load}; median time per puzzle to count")
    print(header)
    print("-" * len(header))
    totals: list[str] = []
    # a bar on a terminal (standard error) under the table's rows; none in a pipe or a log
    with progress("solver bench", "rows") as report:
        for done, (label, puzzles) in enumerate(rows, 1):
            try:
                result = run_row(label, puzzles, solvers)
            except Mismatch as e:
                print(e)
                return 1
            print(row_line(label, puzzles, result, names), flush=True)
            if report is not None:
                report(done, len(rows))
            if label.startswith("deck"):
                totals.append(
                    f"{label}: {len(puzzles)} tasks in "
                    + ", ".join(f"{n} {sum(result.times[n]):.2f} s" for n in names)
                )
    for line in totals:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
