"""What does storing a finished race cost?  A race's game is stored off the event loop, in a
database thread, but the thread holds the interpreter lock while SQLAlchemy's and the rating
arithmetic's Python runs: each millisecond of it is a millisecond the event loop (every
room's verdicts) waits. Issue 25's arena at 1,000 players ends about 16 races a second.

Run with ``.venv/bin/python bench/store_races.py [--races N] [--players K] [--history H]``.

``N`` rated races of ``K`` accounts each (drawn from 200, a fixed seed; each with a dozen
events), stored on a fresh SQLite file the way a room stores a rated race
(``rooms/results.py``: the pair cap's count of games together, the game with its rating rows
and arithmetic, with the rating moves noted for the end screen). Reference, in the same
process: the same games stored unrated (the game row only). Per race: CPU milliseconds of this
process (the thread's own work: what the loop waits for) and wall milliseconds (SQLite's
commits among them), and how many races a second one core could store.

``--history H`` first puts ``H`` older rating changes of the same accounts in the table (a
server that has run a while: more than a day old, so none counts for the pair cap), written
straight into the file: what each stored race then costs shows whether its reads grow with
the table.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ubongo import editions
from ubongo.server.config import ServerConfig
from ubongo.server.online.fairplay import PAIR_WINDOW_SECONDS, pair_capped, seated_accounts
from ubongo.server.online.ratings import rate_game
from ubongo.server.store import GameRecord, Store
from ubongo.server.store.ratings import Moves, RatingRows


def races(n: int, players: int, accounts: list[int], seed: int = 1) -> list[GameRecord]:
    """``n`` finished one-round races of ``players`` accounts, with a dozen submits each."""
    rng = random.Random(seed)
    made = []
    for i in range(n):
        seated = rng.sample(accounts, players)
        made.append(
            GameRecord(
                room=f"R{i:05d}",
                edition=editions.names()[0],
                mode="race",
                variant="standard",
                settings={"rounds": 1, "rated": True},
                seed=i,
                events=[
                    {
                        "seq": k,
                        "kind": "submitted",
                        "at": 10.0 * i + k,
                        "data": {"player": k % players, "placements": [["A", 3, [1, 2]]] * 4},
                    }
                    for k in range(12)
                ],
                result={"winners": [0], "scores": {str(s): int(s == 0) for s in range(players)}},
                players=[
                    {"seat": s, "name": f"P{a}", "kind": "person", "level": None, "account": a}
                    for s, a in enumerate(seated)
                ],
                started_at=10.0 * i,
                finished_at=10.0 * i + 30.0,
                rated=True,
            )
        )
    return made


def rated(store: Store, game: GameRecord, per_pair: int) -> None:
    """As a room stores a rated race, with its rating moves for the end screen (noted as the
    rating rows are written)."""
    since = game.finished_at - PAIR_WINDOW_SECONDS
    together = store.ratings.games_together(seated_accounts(game).values(), since)
    moved: Moves = {}

    def rate(g: GameRecord, rows: RatingRows) -> None:
        rate_game(g, rows)
        moved.update(rows.moves)

    store.games.save(pair_capped(game, together, per_pair), rate)


def unrated(store: Store, game: GameRecord, _per_pair: int) -> None:
    """The reference: the same game, unrated (its row only)."""
    store.games.save(replace(game, rated=False))


def older_history(path: Path, rows: int, accounts: int) -> None:
    """``rows`` rating changes of ``accounts`` accounts, long before the races timed (the
    games they name are not kept: the file's foreign keys are not asked for here)."""
    with sqlite3.connect(path) as db:
        db.executemany(
            "insert into rating_history (game_id, account_id, edition, before, after, at) "
            "values (?, ?, 'classic', 1500, 1510, '2020-01-01 00:00:00')",
            ((10_000_000 + n // 3, 1 + n % accounts) for n in range(rows)),
        )


def timed(
    store_at: Path,
    games: list[GameRecord],
    how: Callable[[Store, GameRecord, int], None],
    history: int,
) -> tuple[float, float]:
    """CPU and wall milliseconds per race, storing ``games`` with ``how`` on a fresh file
    (after ``history`` older rating changes)."""
    store = Store(f"sqlite:///{store_at}")
    store.migrate()
    for n in range(200):
        store.accounts.create(f"P{n}", f"{n:064d}", at=1.0)
    if history:
        older_history(store_at, history, 200)
    per_pair = ServerConfig().rated_games_per_pair
    how(store, games[0], per_pair)  # (the first write opens what every later one reuses)
    cpu, wall = time.process_time(), time.perf_counter()
    for game in games[1:]:
        how(store, game, per_pair)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    store.close()
    n = len(games) - 1
    return 1000 * cpu / n, 1000 * wall / n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--races", type=int, default=400)
    ap.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    ap.add_argument("--history", type=int, default=0, help="older rating changes first")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        games = races(args.races + 1, args.players, list(range(1, 201)))
        reference = timed(Path(folder) / "unrated.sqlite3", games, unrated, args.history)
        measured = timed(Path(folder) / "rated.sqlite3", games, rated, args.history)
    print(
        f"{args.races} races of {args.players} accounts after {args.history:,} older rating "
        "changes, SQLite file, one thread"
    )
    print(f"{'stored':<34}{'CPU ms':>9}{'wall ms':>9}{'races/s a core':>16}")
    for name, (cpu, wall) in (
        ("unrated (reference: the game row)", reference),
        ("rated, as a room stores a race", measured),
    ):
        print(f"{name:<34}{cpu:>9.2f}{wall:>9.2f}{1000 / cpu:>16.0f}")
    print(f"ratio rated / unrated, CPU: {measured[0] / reference[0]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
