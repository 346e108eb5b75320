"""How fast is the deck generator?  Each standard deck, then all four, single process.

Run with ``.venv/bin/python bench/generate.py [--repeat N]``.

For each edition it generates the standard deck from its recorded seed (best of ``N`` runs),
and as a reference, in the same process, times a plain solver pass over the same deck: one
``search_stats`` call per finished task (what checking the deck costs).  The ratio
generation / reference says how much the generator spends beyond solving its own tasks once:
drawing areas, trying piece sets that fail, measuring the difficulty features.  Solver calls
counts every ``search_stats`` the generator made, solvable the ones with a solution.

The target (issue 3): all four decks, 1,423 tasks, in under 30 s on the 2-core machine.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from ubongo.puzzles.deck import Deck
from ubongo.puzzles.generator import STANDARD_SEEDS, Stats, generate_deck
from ubongo.solver import search_stats

EDITIONS = ("classic", "3d", "extreme", "trigo")


def solver_pass(deck: Deck) -> float:
    """Seconds for one complete search of every task of ``deck``."""
    start = time.perf_counter()
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                search_stats(side.area, deck.task_pieces(task))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per deck; the best is kept")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, single process")
    header = (
        f"{'deck':<8} {'tasks':>6} {'seconds':>8} {'tasks/s':>8} {'solver pass s':>14}"
        f" {'ratio':>6} {'solver calls':>13} {'solvable':>9}"
    )
    print(header)
    print("-" * len(header))
    total_time = total_ref = 0.0
    total_tasks = total_calls = total_solvable = 0
    for name in EDITIONS:
        best = float("inf")
        stats = Stats()
        deck = None
        for _ in range(args.repeat):
            stats = Stats()
            start = time.perf_counter()
            deck = generate_deck(name, STANDARD_SEEDS[name], stats=stats)
            best = min(best, time.perf_counter() - start)
        assert deck is not None
        ref = min(solver_pass(deck) for _ in range(args.repeat))
        n = deck.task_count
        print(
            f"{name:<8} {n:>6} {best:>8.2f} {n / best:>8.0f} {ref:>14.2f}"
            f" {best / ref:>6.1f} {stats.solver_calls:>13} {stats.solvable:>9}"
        )
        total_time += best
        total_ref += ref
        total_tasks += n
        total_calls += stats.solver_calls
        total_solvable += stats.solvable
    print(
        f"{'all four':<8} {total_tasks:>6} {total_time:>8.2f} {total_tasks / total_time:>8.0f}"
        f" {total_ref:>14.2f} {total_time / total_ref:>6.1f} {total_calls:>13} {total_solvable:>9}"
    )
    ok = total_time < 30
    print(f"target: all four in under 30 s: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
