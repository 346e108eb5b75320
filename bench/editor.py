"""Benchmark of the puzzle editor's verdict (docs/editor.md): every task of every standard deck
redrawn in the editor, its verdict asked of a real ``ubongo serve`` over HTTP.

Starts ``ubongo serve`` in a subprocess (a fresh SQLite file, the verdict limits lifted), makes
an account, then asks ``POST /api/puzzles/verdict`` for each task as the editor sends it (an
edition puzzle file: the side's area, the task's pieces), one after another, and measures the
time from sending to the whole answer. Checks each answer against the deck (the solutions it
was made with, up to the count's bound). Prints per edition the tasks, p50, p99 and max in ms,
and whether the p99 is within issue 27's 100 ms; ``--markdown`` prints the table for the docs.

    .venv/bin/python bench/editor.py              # every task of every deck (about 2,000)
    .venv/bin/python bench/editor.py --every 10   # every tenth task: a quick look
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from server_harness import ServerProcess

from ubongo import editions, puzzlefile
from ubongo.pieces import edition
from ubongo.puzzles.deck import standard_deck
from ubongo.puzzles.verdict import COUNTED

#: issue 27's goal: the verdict of every standard deck task within this, at the 99th percentile
GOAL_MS = 100.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tasks(name: str, every: int) -> list[tuple[dict[str, Any], int]]:
    """Every ``every``-th task of the edition's deck as the editor sends it, with its solutions."""
    deck = standard_deck(name)
    out = []
    for card in deck.cards:
        for side in card.sides:
            area = [list(c) for c in sorted(side.area.cells)]
            for task in side.tasks:
                pieces = [puzzlefile.id_to_json(p) for p in task.pieces]
                out.append(({"edition": name, "area": area, "pieces": pieces}, task.solutions))
    return out[::every]


Times = dict[str, list[float]]


def run(server: ServerProcess, every: int) -> tuple[float, Times, dict[str, int]]:
    """The first verdict's time (the server makes the day's dailies, to refuse them, and
    reads the decks for the grades, once), then every task's."""
    status, account = server.post("/api/accounts", {"name": "Bench"})
    assert status == 201, account
    token = account["token"]
    start = time.perf_counter()
    name = editions.names()[0]
    piece = edition(name).pieces[0]
    area = [list(c) for c in sorted(piece.cells)]
    first = {"edition": name, "area": area, "pieces": [puzzlefile.id_to_json(piece.id)]}
    status, answer = server.post("/api/puzzles/verdict", {"puzzle": first}, token)
    assert status == 200, answer
    cold = (time.perf_counter() - start) * 1000
    times: Times = {}
    refused: dict[str, int] = {}
    for name in editions.names():
        for puzzle, solutions in tasks(name, every):
            start = time.perf_counter()
            status, answer = server.post("/api/puzzles/verdict", {"puzzle": puzzle}, token)
            ms = (time.perf_counter() - start) * 1000
            if status == 403 and answer["error"]["code"] == "no_help":
                # today's or yesterday's daily: refused, as it should be (timed all the same)
                refused[name] = refused.get(name, 0) + 1
            else:
                assert status == 200, answer
                assert answer["solutions"] == min(solutions, COUNTED), (puzzle, answer)
            times.setdefault(name, []).append(ms)
    return cold, times, refused


def report(
    cold: float, times: Times, refused: dict[str, int], markdown: bool, seconds: float
) -> None:
    rows = []
    for name, ms in times.items():
        p99 = pct(ms, 0.99)
        ok = "yes" if p99 <= GOAL_MS else "**no**"
        rows.append(
            [
                name,
                str(len(ms)),
                str(refused.get(name, 0)),
                f"{statistics.median(ms):.1f}",
                f"{p99:.1f}",
                f"{max(ms):.1f}",
                ok,
            ]
        )
    head = [
        "edition",
        "tasks",
        "refused (a daily in play)",
        "p50 ms",
        "p99 ms",
        "max ms",
        f"p99 within {GOAL_MS:.0f} ms",
    ]
    load = os.getloadavg()[0]
    print(
        f"Made with `.venv/bin/python bench/editor.py` in {seconds:.0f} s (python "
        f"{platform.python_version()}, {os.cpu_count()} cores, load {load:.1f}). The first "
        f"verdict after the start, which makes the day's dailies and reads the decks: "
        f"{cold:.0f} ms."
    )
    if markdown:
        print("\n| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    print("  ".join(f"{h:>12}" for h in head))
    for row in rows:
        print("  ".join(f"{c:>12}" for c in row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="every n-th task only")
    parser.add_argument("--markdown", action="store_true", help="the table for docs/editor.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(
            f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
            log=Path(folder) / "server.log",
            args=(
                "--verdicts-per-minute=1000000",
                "--verdicts-per-minute-per-address=1000000",
            ),
        ).start()
        try:
            start = time.perf_counter()
            cold, times, refused = run(server, args.every)
            report(cold, times, refused, args.markdown, time.perf_counter() - start)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
