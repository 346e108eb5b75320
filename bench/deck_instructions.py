"""How much work is the card maker, counted in instructions?  Wall and CPU time follow whatever
else the machine runs (a CI loop, browsers, another engineer's build); the instructions a
program runs do not. So this bench counts them, under valgrind's callgrind: a comparison of two
trees, or of a change against the reference below, holds on a busy machine.

Run with ``.venv/bin/python bench/deck_instructions.py [--editions classic,3d] [--repeat 2]``
(valgrind is a Debian package of scripts/system-packages.txt; about a minute an edition).

For each edition, three runs of this file under callgrind with ``PYTHONHASHSEED=0`` (the same
sets, in the same order, every time), each after one warm generation (the tables a process
makes once): ``--repeat`` generations of the standard deck from its recorded seed; none (what
starting, importing and the warm generation cost); and, as the reference, ``--repeat`` solver
passes over the finished deck (one ``search_stats`` per task: what checking the deck costs, as
in bench/generate.py). The differences give the instructions of one deck and of one pass; the
ratio says how much the card maker spends beyond solving its own tasks once. The solver's caches
of grids and placements are cleared before each deck and each pass.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

from ubongo import editions
from ubongo.pieces import edition as pieces_of
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.generator import generate_deck
from ubongo.solver import clear_caches, search_stats

HERE = os.path.abspath(__file__)


def child(edition: str, what: str, repeat: int) -> None:
    """Under callgrind: one warm generation, then ``repeat`` decks or passes (``what``)."""
    seed = editions.record(edition).deck.seed
    deck = generate_deck(edition, seed)
    pieces = pieces_of(edition)
    for _ in range(repeat if what != "none" else 0):
        clear_caches()
        if what == "deck":
            generate_deck(edition, seed)
        else:
            for card in deck.cards:
                for side in card.sides:
                    for task in side.tasks:
                        search_stats(side.area, [pieces.piece(p) for p in task.pieces])


def counted(edition: str, what: str, repeat: int, tree: str | None = None) -> int:
    """The instructions callgrind counts in a child run (of ``tree``'s package, if given)."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        HERE,
        "--child",
        edition,
        what,
        str(repeat),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if tree is not None:  # (before the installed package on the path)
        env["PYTHONPATH"] = os.path.join(tree, "src")
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if args[:1] == ["--child"]:
        child(args[1], args[2], int(args[3]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--editions", default=",".join(editions.names()))
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument(
        "--compare",
        metavar="TREE",
        help="another checkout (a worktree, its compiled core built in place): its decks are "
        "counted too, and how many times this tree's instructions they are",
    )
    opts = ap.parse_args(args)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: run scripts/install-system-packages", file=sys.stderr)
        return 2
    n = opts.repeat
    print(f"instructions (millions) per deck and per solver pass, callgrind, best of one, x{n}")
    head = f"{'deck':<9}{'tasks':>6}{'deck M':>9}{'per task M':>12}{'pass M':>9}{'deck/pass':>11}"
    print(head + (f"{'other deck M':>14}{'other/this':>12}" if opts.compare else ""))
    totals = [0.0, 0.0]
    for name in opts.editions.split(","):
        tasks = sum(len(s.tasks) for c in standard_deck(name).cards for s in c.sides)
        base = counted(name, "none", n)
        deck = (counted(name, "deck", n) - base) / n / 1e6
        solve = (counted(name, "pass", n) - base) / n / 1e6
        row = f"{name:<9}{tasks:>6}{deck:>9.0f}{deck / tasks:>12.2f}"
        row += f"{solve:>9.1f}{deck / solve:>11.1f}"
        totals[0] += deck
        if opts.compare:
            other_base = counted(name, "none", n, opts.compare)
            other = (counted(name, "deck", n, opts.compare) - other_base) / n / 1e6
            totals[1] += other
            row += f"{other:>14.0f}{other / deck:>12.1f}"
        print(row, flush=True)
    if opts.compare:
        print(
            f"all decks: {totals[0]:.0f} M here, {totals[1]:.0f} M in {opts.compare}, "
            f"{totals[1] / totals[0]:.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
