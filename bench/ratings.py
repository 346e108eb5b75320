"""Do the ratings order the bot levels, and after how many games?

Not a timing: simulated bot-versus-bot games, played by the rules with the bots' own model
(``ubongo.rules.bots.play_game``: each level's finish times, mistakes and give-ups), each
finished game fed to the server's rating update (``ubongo.server.online.ratings``), exactly as a
rated game is when it is stored. Each game seats two or three of the three levels (drawn at
random, distinct), with the shipped deck of the edition, starting from fresh ratings.

For every run it prints the final ratings and the game after which the display ratings were
ordered easy < medium < hard for good (from then to the last game); then, over all runs, the
median and the largest such game. The figures are in ``docs/online-ratings.md``.

    .venv/bin/python bench/ratings.py [--games 300] [--runs 3] [--edition NAME] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from ubongo import editions, rules
from ubongo.rules import bots
from ubongo.server.online import ratings

LEVELS = ("easy", "medium", "hard")


def ordered(table: dict[str, ratings.Rating]) -> bool:
    shown = [table[f"bot:{level}"].display for level in LEVELS]
    return shown[0] < shown[1] < shown[2]


def run(edition: str, games: int, seed: int) -> tuple[dict[str, ratings.Rating], int | None]:
    """Ratings after ``games`` simulated games, and the game (from 1) after which the levels
    stayed ordered (``None``: not ordered at the end)."""
    rng = random.Random(seed)
    table = {f"bot:{level}": ratings.Rating() for level in LEVELS}
    since: int | None = None
    for n in range(1, games + 1):
        size = rng.choice((2, 3))
        seated = rng.sample(LEVELS, size)
        players = tuple(str(i) for i in range(size))
        game_seed = rng.randrange(2**31)
        game = rules.new_game(rules.Settings(edition, players, puzzles="standard"), game_seed)
        levels = {p: bots.LEVELS[level] for p, level in zip(players, seated, strict=True)}
        final = bots.play_game(game, seed=game_seed, levels=levels)
        place = ratings.places(final.scores(), final.winners)
        subjects = [ratings.Subject.of_bot(level) for level in seated]
        table.update(
            ratings.update([(s, table[s.key]) for s in subjects], [place[p] for p in players])
        )
        if not ordered(table):
            since = None
        elif since is None:
            since = n
    return table, since


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edition", default=None, help="an edition (default: every one)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    chosen = [args.edition] if args.edition else editions.names()
    failed = False
    for edition in chosen:
        settled: list[int] = []
        start = time.perf_counter()
        for r in range(args.runs):
            table, since = run(edition, args.games, args.seed * 1000 + r)
            shown = "  ".join(
                f"{level} {table[f'bot:{level}'].display:5d} "
                f"(mu {table[f'bot:{level}'].mu:5.1f}, sigma {table[f'bot:{level}'].sigma:4.2f})"
                for level in LEVELS
            )
            print(f"{edition:8s} run {r}: {shown}  ordered for good after game {since}")
            if since is None:
                failed = True
            else:
                settled.append(since)
        took = time.perf_counter() - start
        if settled:
            print(
                f"{edition:8s} ordered in {len(settled)}/{args.runs} runs; for good after "
                f"median {statistics.median(settled):.0f}, at most {max(settled)} games "
                f"({took:.1f} s)"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
