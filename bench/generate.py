"""How fast is the deck generator?  Each standard deck, then all four, single process.

Run with ``.venv/bin/python bench/generate.py [--repeat N]``; ``--grades`` prints instead the
difficulty table of docs/difficulty.md from the shipped standard decks.

For each edition it generates the standard deck from its recorded seed (best of ``N`` runs)
with the solver's compiled core and with its Python core (``set_core``), and as a reference,
in the same process, times a plain solver pass over the same deck: one ``search_stats`` call
per finished task (what checking the deck costs), with each core, and with xcover (Dancing
Cells compiled with numba, from placements computed beforehand, as in bench/solver.py; left
out when the ``bench`` extra is not installed).  The ratio generation / solver pass says how
much the generator spends beyond solving its own tasks once: drawing areas, trying piece sets
that fail, measuring the difficulty features.  Solver calls counts every ``search_stats`` the
generator made, solvable the ones with a solution.  The solver's caches of grids and
placements are cleared before each timed run, so that neither core finds the other's.

The target (issue 3): all four decks, 1,423 tasks, in under 30 s on the 2-core machine.

The CPU columns are the best generation's process time (``time.process_time``) and the
tasks a second of it: on a shared machine the wall time follows the other jobs too.

``--first-task [--games N]`` times instead what a fresh game (issue 13) costs before its first
round can be shown: ``new_game`` with ``puzzles="fresh"``, the first ``StartRound`` and every
player's task, for N seeds per edition and 2-4 players (solo: 1), p50/p99/max in milliseconds
with the compiled core and p50/p99 with the Python core, and as the reference, in the same
run, the same with the shipped deck. Goal: p99 under 200 ms (issue 24's: under 20 ms).

``--endless [--games N] [--tasks K]`` times an endless solo run (docs/ratings.md): N runs of K
tasks per edition, each task solved or lost in turn. "ahead" is the time from the player's
result to the next task in hand when its candidates were made beforehand (as the server's card
worker does while the task in hand is played): what the event loop spends; "made" is the same
when nothing was made ahead (what the worker spends per task), and "first" the run's first
task from nothing (what a player waits for at the start), with the compiled core, and "first"
again with the Python core. Reference: the next task of a standard solo run (put aside, the
next card of the stack). Goal: "ahead" p99 under 200 ms (issue 24's: "first" p99 under
100 ms).

``--compare TREE [--rounds R] [--repeat N]`` times instead the card maker against another
checkout (a worktree with its compiled core built in place, e.g. the start of issue 24): each
standard deck's best CPU time with this tree's package and with TREE's, each in its own child
processes, taken in turns; prints both and how many times this tree's the other's is. Issue
24's goal: ten times the tasks a second of its start.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import ubongo
from ubongo import editions
from ubongo.puzzles.deck import Deck, standard_deck
from ubongo.puzzles.generator import Stats, generate_deck
from ubongo.rules import (
    Advance,
    Settings,
    SkipTask,
    StartRound,
    Submit,
    apply,
    entry_task,
    new_game,
    upcoming_cards,
)
from ubongo.rules.bots import solution
from ubongo.rules.state import Game
from ubongo.solver import COMPILED, Core, clear_caches, search_stats, set_core

EDITIONS = editions.names()
T = TypeVar("T")


@contextmanager
def core(name: Core) -> Iterator[None]:
    """The solver searches with this core inside, from empty caches of grids and placements."""
    before = set_core(name)
    clear_caches()
    try:
        yield
    finally:
        set_core(before)


def with_each_core(run: Callable[[], T]) -> dict[Core, T]:
    """``run``'s result with the compiled core, then with the Python core."""
    out: dict[Core, T] = {}
    for name in ("compiled", "python"):
        with core(name):
            out[name] = run()
    return out


def machine() -> str:
    """The Python, the machine and its load, for the line above each table."""
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    built = "" if COMPILED else " (ubongo._exact NOT BUILT: both cores are Python)"
    return f"python {platform.python_version()} on {platform.machine()}, load {load}{built}"


def solver_pass(deck: Deck) -> float:
    """Seconds for one complete search of every task of ``deck``."""
    clear_caches()
    start = time.perf_counter()
    for card in deck.cards:
        for side in card.sides:
            for task in side.tasks:
                search_stats(side.area, deck.task_pieces(task))
    return time.perf_counter() - start


def best_pass(deck: Deck, repeat: int) -> float:
    """The best of ``repeat`` solver passes over ``deck``."""
    return min(solver_pass(deck) for _ in range(repeat))


def xcover_pass(deck: Deck) -> float | None:
    """Seconds for xcover to count every task of ``deck`` from placements computed beforehand
    (untimed), or None when xcover is not installed."""
    try:
        from solver import Puzzle, count_xcover, placements_of
    except ImportError:
        return None
    puzzles = [
        Puzzle(
            "deck",
            side.area.piece_lattice,
            sorted(side.area.solid),
            placements_of(side.area, deck.task_pieces(task)),
        )
        for card in deck.cards
        for side in card.sides
        for task in side.tasks
    ]
    try:
        count_xcover(puzzles[0])  # numba compiles (or loads) its kernels: not timed
    except ImportError:
        return None
    start = time.perf_counter()
    for puzzle in puzzles:
        count_xcover(puzzle)
    return time.perf_counter() - start


def grades() -> None:
    """The difficulty and solution counts of each side of the standard decks (markdown)."""
    print(
        "| deck | side | tasks | seconds p10 | median | p90 | solutions median | mean | max"
        " | unique | bits median | needs a flip |"
    )
    print("|" + "---|" * 12)
    logs: list[tuple[float, float]] = []
    for name in EDITIONS:
        deck = standard_deck(name)
        names = list(editions.record(name).deck.side_names)
        for side_name in names:
            tasks = [t for _, s in deck.sides(side_name) for t in s.tasks]
            secs = [t.difficulty for t in tasks]
            sols = [t.solutions for t in tasks]
            p = statistics.quantiles(secs, n=10)
            unique = sum(1 for n in sols if n == 1)
            flips = sum(1 for t in tasks if t.features["flips"] > 0)
            bits = statistics.median(t.features["bits"] for t in tasks)
            print(
                f"| {name} | {side_name} | {len(tasks)}"
                f" | {p[0]:.1f} | {statistics.median(secs):.1f}"
                f" | {p[-1]:.1f} | {statistics.median(sols):g} | {statistics.mean(sols):.1f}"
                f" | {max(sols)} | {unique} ({unique / len(tasks):.0%}) | {bits:.1f}"
                f" | {flips / len(tasks):.0%} |"
            )
            logs.extend((t.features["bits"], math.log2(max(t.nodes, 1))) for t in tasks)
    xs, ys = zip(*logs, strict=True)
    print(
        f"\ncorrelation of bits with log2(solver nodes) over all tasks: "
        f"{statistics.correlation(xs, ys):.2f}"
    )


def first_task_ms(edition: str, players: int, seed: str, puzzles: str) -> float:
    """Milliseconds from nothing to every player's first task in hand."""
    if players == 1:
        settings = Settings(edition, ("solo",), mode="solo", puzzles=puzzles)  # type: ignore[arg-type]
    else:
        ids = tuple(f"p{i}" for i in range(players))
        settings = Settings(edition, ids, puzzles=puzzles)  # type: ignore[arg-type]
    start = time.perf_counter()
    game = apply(new_game(settings, seed), StartRound(0.0))
    assert game.round is not None
    for entry in game.round.entries:
        entry_task(game, entry)
    return (time.perf_counter() - start) * 1000


def first_task(games: int) -> int:
    """The ``--first-task`` table; exit status 1 if an edition misses the goal."""
    print(f"{machine()}, single process, {games} games each")
    header = (
        f"{'edition':<8} {'fresh p50':>10} {'p99':>8} {'max':>8} {'python p50':>11} {'p99':>8}"
        f" {'standard p50':>13} {'p99':>7} {'python/compiled p99':>20}"
    )
    print(header)
    print("-" * len(header))
    missed = []
    for name in EDITIONS:
        lo, hi = editions.record(name).players
        sizes = [1, *range(max(2, lo), hi + 1)]

        def fresh(name: str = name, sizes: list[int] = sizes) -> list[float]:
            return [
                first_task_ms(name, sizes[i % len(sizes)], f"bench-{i}", "fresh")
                for i in range(games)
            ]

        # (one untimed game first: what is kept per piece is made, as in a running server)
        first_task_ms(name, sizes[0], "warm-up", "fresh")
        runs = with_each_core(fresh)
        s = [
            first_task_ms(name, sizes[i % len(sizes)], f"bench-{i}", "standard")
            for i in range(games)
        ]
        f, py = runs["compiled"], runs["python"]
        print(
            f"{name:<8} {statistics.median(f):>10.1f} {_p(f, 0.99):>8.1f} {max(f):>8.1f}"
            f" {statistics.median(py):>11.1f} {_p(py, 0.99):>8.1f}"
            f" {statistics.median(s):>13.1f} {_p(s, 0.99):>7.1f}"
            f" {_p(py, 0.99) / _p(f, 0.99):>20.1f}"
        )
        if _p(f, 0.99) >= 200:
            missed.append(name)
    print(f"goal: p99 under 200 ms: {'met' if not missed else 'MISSED by ' + ', '.join(missed)}")
    return 1 if missed else 0


def _p(values: list[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, math.ceil(q * len(v)) - 1)]


def _result(game: Game, i: int) -> Game:
    """The player's result on the task in hand: solved (two in three) or out of time."""
    assert game.round is not None and game.now is not None and game.deadline is not None
    if i % 3 == 2:
        return apply(game, Advance(game.deadline))
    entry = game.round.entries[0]
    return apply(game, Submit(entry.player, solution(game, entry), game.now + 5.0))


def endless_run(edition: str, seed: str, tasks: int, ahead: bool) -> tuple[float, list[float]]:
    """Milliseconds to the first task, and to each next one, of one endless run."""
    settings = Settings(edition, ("solo",), mode="solo", solo_goal="endless")
    start = time.perf_counter()
    game = apply(new_game(settings, seed), StartRound(0.0))
    first = (time.perf_counter() - start) * 1000
    nexts = []
    for i in range(tasks):
        if ahead:
            for n in upcoming_cards(game):
                game.deck.card(n)
        # the bots' solution is found before the clock starts: it is the player's time
        assert game.round is not None
        solution(game, game.round.entries[0])
        start = time.perf_counter()
        game = _result(game, i)
        nexts.append((time.perf_counter() - start) * 1000)
    return first, nexts


def standard_next_ms(edition: str, seed: str, tasks: int) -> list[float]:
    """Milliseconds to the next task of a standard solo run, the task put aside."""
    game = apply(new_game(Settings(edition, ("solo",), mode="solo"), seed), StartRound(0.0))
    out = []
    for i in range(tasks):
        start = time.perf_counter()
        game = apply(game, SkipTask("solo", float(i + 1)))
        out.append((time.perf_counter() - start) * 1000)
    return out


def endless(games: int, tasks: int) -> int:
    """The ``--endless`` table; exit status 1 if an edition misses the goal."""
    print(f"{machine()}, single process, {games} runs of {tasks} tasks each")
    header = (
        f"{'edition':<8} {'ahead p50':>10} {'p99':>7} {'made p50':>9} {'p99':>7}"
        f" {'first p50':>10} {'p99':>7} {'python first p50':>17} {'p99':>7}"
        f" {'standard p50':>13} {'ratio p50':>10}"
    )
    print(header)
    print("-" * len(header))
    missed = []
    for name in EDITIONS:
        ahead: list[float] = []
        made: list[float] = []
        ref: list[float] = []

        def firsts(name: str = name) -> list[float]:
            return [endless_run(name, f"bench-first-{i}", 1, ahead=False)[0] for i in range(games)]

        endless_run(name, "warm-up", 1, ahead=False)  # (untimed: what is kept per piece)
        first = with_each_core(firsts)
        for i in range(games):
            _, nexts = endless_run(name, f"bench-{i}", tasks, ahead=True)
            ahead += nexts
            _, nexts = endless_run(name, f"bench-made-{i}", tasks, ahead=False)
            made += nexts
            ref += standard_next_ms(name, f"bench-{i}", tasks)
        a50, r50 = statistics.median(ahead), statistics.median(ref)
        f, py = first["compiled"], first["python"]
        print(
            f"{name:<8} {a50:>10.2f} {_p(ahead, 0.99):>7.2f} {statistics.median(made):>9.1f}"
            f" {_p(made, 0.99):>7.1f} {statistics.median(f):>10.1f} {_p(f, 0.99):>7.1f}"
            f" {statistics.median(py):>17.1f} {_p(py, 0.99):>7.1f}"
            f" {r50:>13.2f} {a50 / r50:>10.1f}"
        )
        if _p(ahead, 0.99) >= 200:
            missed.append(name)
    print(
        "goal: next task (made ahead) p99 under 200 ms:"
        f" {'met' if not missed else 'MISSED by ' + ', '.join(missed)}"
    )
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs per deck; the best is kept")
    parser.add_argument("--grades", action="store_true", help="print the difficulty table instead")
    parser.add_argument(
        "--first-task", action="store_true", help="time a fresh game's first tasks instead"
    )
    parser.add_argument(
        "--games", type=int, default=40, help="with --first-task or --endless: games per edition"
    )
    parser.add_argument(
        "--endless", action="store_true", help="time an endless run's next tasks instead"
    )
    parser.add_argument("--tasks", type=int, default=12, help="with --endless: tasks per run")
    parser.add_argument(
        "--compare",
        metavar="TREE",
        help="the decks' CPU time against another checkout's (its compiled core built in place)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="with --compare: turns each")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args.compare, args.rounds, args.repeat)
    if args.endless:
        return endless(args.games, args.tasks)
    if args.grades:
        grades()
        return 0
    if args.first_task:
        return first_task(args.games)
    return decks(args.repeat)


#: a child's work for --compare: each standard deck's best CPU time, made by the ``ubongo`` on
#: its path (only what every version of the card maker has: the start of issue 24 included)
_DECK_CPU = """
import json, sys, time
from ubongo import editions
from ubongo.puzzles.generator import generate_deck
from ubongo.solver import clear_caches
best = {}
for name in editions.names():
    seed = editions.record(name).deck.seed
    generate_deck(name, seed)  # (the tables a process makes once)
    for _ in range(int(sys.argv[1])):
        clear_caches()
        start = time.process_time()
        generate_deck(name, seed)
        best[name] = min(best.get(name, float("inf")), time.process_time() - start)
print(json.dumps(best))
"""


def compare(tree: str, rounds: int, repeat: int) -> int:
    """Each standard deck's best CPU time with this tree's card maker and with ``tree``'s, in
    child processes taken in turns (``rounds`` each, ``repeat`` decks a child), so that a
    shared machine's other jobs weigh on both alike; CPU time, as the wall time of a niced
    run on a busy machine is mostly waiting."""
    here = str(Path(ubongo.__file__).resolve().parents[1])
    trees = {"this": here, "other": os.path.join(tree, "src")}
    best: dict[str, dict[str, float]] = {label: {} for label in trees}
    for _ in range(rounds):
        for label, path in trees.items():
            env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
            command = [sys.executable, "-c", _DECK_CPU, str(repeat)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            for name, seconds in json.loads(done.stdout).items():
                best[label][name] = min(best[label].get(name, math.inf), seconds)
    print(f"{machine()}; best CPU time of {rounds} x {repeat} decks; other: {tree}")
    print(
        f"{'deck':<9}{'tasks':>6}{'this ms':>9}{'tasks/s':>9}{'other ms':>10}{'tasks/s':>9}"
        f"{'other/this':>12}"
    )
    total = {"this": 0.0, "other": 0.0}
    count = 0
    for name in EDITIONS:
        n = standard_deck(name).task_count
        this, other = best["this"][name], best["other"][name]
        print(
            f"{name:<9}{n:>6}{this * 1e3:>9.1f}{n / this:>9.0f}{other * 1e3:>10.1f}"
            f"{n / other:>9.0f}{other / this:>12.1f}"
        )
        total["this"] += this
        total["other"] += other
        count += n
    this, other = total["this"], total["other"]
    print(
        f"{'all four':<9}{count:>6}{this * 1e3:>9.1f}{count / this:>9.0f}{other * 1e3:>10.1f}"
        f"{count / other:>9.0f}{other / this:>12.1f}"
    )
    return 0


def generate_best(name: str, repeat: int) -> tuple[float, Deck, Stats, float]:
    """The best of ``repeat`` generations of the edition's standard deck, in seconds, and the
    best in seconds of this process's CPU (less swayed by a shared machine's other jobs)."""
    best = best_cpu = float("inf")
    stats = Stats()
    deck = None
    for _ in range(repeat):
        clear_caches()
        stats = Stats()
        start, cpu = time.perf_counter(), time.process_time()
        deck = generate_deck(name, editions.record(name).deck.seed, stats=stats)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    assert deck is not None
    return best, deck, stats, best_cpu


def decks(repeat: int) -> int:
    """The main table: each standard deck generated with each core, and the solver passes."""
    print(f"{machine()}, single process, best of {repeat}")
    header = (
        f"{'deck':<8} {'tasks':>6} {'seconds':>8} {'python s':>9} {'py/comp':>8} {'tasks/s':>8}"
        f" {'cpu s':>6} {'cpu t/s':>8}"
        f" {'pass s':>7} {'python':>7} {'xcover':>7} {'xc/comp':>8} {'ratio':>6}"
        f" {'calls':>6} {'solvable':>9}"
    )
    print(header)
    print("-" * len(header))
    totals = dict.fromkeys(("compiled", "cpu", "python", "pass", "pass python", "xcover"), 0.0)
    total_tasks = total_calls = total_solvable = 0
    for name in EDITIONS:
        made = with_each_core(functools.partial(generate_best, name, repeat))
        best, deck, stats, cpu = made["compiled"]
        passes = with_each_core(functools.partial(best_pass, deck, repeat))
        xcover = xcover_pass(deck)
        n = deck.task_count
        py = made["python"][0]
        ref = passes["compiled"]
        xc = f"{xcover:>7.2f} {xcover / ref:>8.1f}" if xcover is not None else f"{'-':>7} {'-':>8}"
        print(
            f"{name:<8} {n:>6} {best:>8.2f} {py:>9.2f} {py / best:>8.1f} {n / best:>8.0f}"
            f" {cpu:>6.2f} {n / cpu:>8.0f}"
            f" {ref:>7.3f} {passes['python']:>7.3f} {xc} {best / ref:>6.1f}"
            f" {stats.solver_calls:>6} {stats.solvable:>9}"
        )
        for key, value in (
            ("compiled", best),
            ("cpu", cpu),
            ("python", py),
            ("pass", ref),
            ("pass python", passes["python"]),
            ("xcover", xcover or 0.0),
        ):
            totals[key] += value
        total_tasks += n
        total_calls += stats.solver_calls
        total_solvable += stats.solvable
    t = totals
    print(
        f"{'all four':<8} {total_tasks:>6} {t['compiled']:>8.2f} {t['python']:>9.2f}"
        f" {t['python'] / t['compiled']:>8.1f} {total_tasks / t['compiled']:>8.0f}"
        f" {t['cpu']:>6.2f} {total_tasks / t['cpu']:>8.0f}"
        f" {t['pass']:>7.3f} {t['pass python']:>7.3f} {t['xcover']:>7.2f}"
        f" {t['xcover'] / t['pass']:>8.1f} {t['compiled'] / t['pass']:>6.1f}"
        f" {total_calls:>6} {total_solvable:>9}"
    )
    ok = t["compiled"] < 30
    print(f"target: all four in under 30 s: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
