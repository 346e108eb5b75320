"""Bots: when they say "Ubongo!" and with which arrangement.

A bot plays through the same submission path as a person: at its finishing time the room
submits the arrangement the solver found, judged like any other. How long a bot takes is drawn
from a log-normal distribution whose median grows with the task's difficulty and shrinks with
the bot's level; the model and its numbers are explained in ``docs/bots.md``.

The draws come from a :class:`random.Random` seeded with the game's seed, the seat and the
round, so a game replays with the same bot times.

>>> plan = bot_time("medium", percentile=0.5, base=40.0, rng=random.Random(1))
>>> round(plan, 2)
62.79
>>> hard = bot_time("hard", 0.5, 40.0, random.Random(1))
>>> easy = bot_time("easy", 0.5, 40.0, random.Random(1))
>>> hard < plan < easy
True
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ubongo.board import Placement, placements_of
from ubongo.puzzles.deck import Card, Deck, Task
from ubongo.solver import solve

#: the typical person's time on a task of middling difficulty, by edition and side/level
#: (seconds; the rulebooks' hourglass and countdowns are set so that most people finish)
BASE_SECONDS: dict[tuple[str, str], float] = {
    ("classic", "A"): 35.0,
    ("classic", "B"): 50.0,
    ("3d", "green"): 45.0,
    ("3d", "yellow"): 55.0,
    ("3d", "orange"): 65.0,
    ("3d", "red"): 80.0,
    ("extreme", "A"): 35.0,
    ("extreme", "B"): 50.0,
    ("trigo", "easy"): 40.0,
    ("trigo", "hard"): 65.0,
}


@dataclass(frozen=True)
class Level:
    """A bot level: its median time as a multiple of a typical person's, its spread (sigma of
    the log-normal) and the chance it gets stuck and never finishes the task."""

    name: str
    speed: float
    sigma: float
    stuck: float


LEVELS: dict[str, Level] = {
    "easy": Level("easy", speed=1.6, sigma=0.45, stuck=0.12),
    "medium": Level("medium", speed=1.0, sigma=0.35, stuck=0.06),
    "hard": Level("hard", speed=0.6, sigma=0.25, stuck=0.02),
}
#: the typical person, for comparisons (docs/bots.md)
PERSON = Level("person", speed=1.0, sigma=0.40, stuck=0.0)


def bot_time(level: str, percentile: float, base: float, rng: random.Random) -> float:
    """Seconds the bot needs for a task whose difficulty ranks at ``percentile`` (0 = easiest
    task of the deck, 1 = hardest), ``base`` being a typical person's time on a middling task.
    """
    lv = LEVELS.get(level, PERSON)
    median = base * lv.speed * (0.6 + 0.8 * percentile)
    return median * math.exp(rng.gauss(0.0, lv.sigma))


def gets_stuck(level: str, rng: random.Random) -> bool:
    """Whether the bot fails this task whatever the time (drawn once per task)."""
    return rng.random() < LEVELS[level].stuck


@cache
def _difficulties(deck: Deck) -> tuple[float, ...]:
    return tuple(sorted(t.difficulty for c in deck.cards for s in c.sides for t in s.tasks))


def percentile(deck: Deck, task: Task) -> float:
    """Where the task's difficulty score ranks among all tasks of its deck, in [0, 1]: the
    bots' input, independent of the score's scale."""
    scores = _difficulties(deck)
    if len(scores) < 2:
        return 0.5
    lo = bisect.bisect_left(scores, task.difficulty)
    hi = bisect.bisect_right(scores, task.difficulty)
    return ((lo + hi - 1) / 2) / (len(scores) - 1)


def base_seconds(edition: str, side: str) -> float:
    return BASE_SECONDS.get((edition, side), 50.0)


def arrangement(deck: Deck, card: int, side: str, key: str) -> list[Placement]:
    """The solver's arrangement for a task (the deck guarantees every task is solvable)."""
    return list(_arrangement(deck, card, side, key))


@cache
def _arrangement(deck: Deck, card: int, side: str, key: str) -> tuple[Placement, ...]:
    face = deck_card(deck, card).side(side)
    task = face.task(key)
    pieces = deck.task_pieces(task)
    solution = solve(face.area, pieces)
    if solution is None:
        raise ValueError(f"card {card} side {side} task {key} has no solution")
    return tuple(placements_of({p.id: p for p in pieces}, solution))


def deck_card(deck: Deck, number: int) -> Card:
    for c in deck.cards:
        if c.number == number:
            return c
    raise KeyError(f"deck {deck.edition} has no card {number}")


def seeded(seed: str, *parts: object) -> random.Random:
    """A random generator for one purpose of one game (same inputs, same numbers)."""
    return random.Random(":".join([str(seed), *(str(p) for p in parts)]))


def expected_win_share(a: Level, b: Level) -> float:
    """The chance that ``a`` finishes a task before ``b`` (both finishing), from the model:
    the log of the ratio of two log-normal times is normal."""
    mu = math.log(b.speed / a.speed)
    sd = math.hypot(a.sigma, b.sigma)
    return 0.5 * (1 + math.erf(mu / (sd * math.sqrt(2))))


def describe_levels(levels: Sequence[str] = ("easy", "medium", "hard")) -> list[str]:
    """One line per level: how often a typical person finishes first against it."""
    return [
        f"{name}: a typical person is faster on {expected_win_share(PERSON, LEVELS[name]):.0%}"
        " of tasks"
        for name in levels
    ]
