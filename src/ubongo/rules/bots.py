"""Bots: how long a simulated player takes for a task, and what it does with it.

One model serves the server's bots and ``ubongo simulate`` (docs/bots.md): a bot of a
:class:`Level` needs the task's difficulty (the deck's expected seconds for a median player)
times the level's speed, with a log-normal spread, and with the level's small chance it never
finds the arrangement at all.  Simulated players here also sometimes say "Ubongo!" first with a
wrong arrangement (one piece left out).  Everything is drawn from ``random.Random(f"{seed}:...")``:
the same seed plays the same game.

>>> times = {name: finish_time(30.0, level, random.Random(1)) for name, level in LEVELS.items()}
>>> times["hard"] < times["medium"] < times["easy"]
True
>>> f"{expected_win_share(PERSON, LEVELS['easy']):.0%}"
'78%'

>>> from ubongo.rules import Settings, new_game
>>> from ubongo.rules.testing import fixture_deck
>>> game = new_game(Settings("trigo", ("ann", "bob")), seed=3, deck=fixture_deck("trigo"))
>>> final = play_game(game, seed=3)
>>> final.phase, sum(final.scores().values()) + len(final.discard) == 16
('over', True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ubongo.board import Placement, placements_of
from ubongo.puzzles.deck import Cards
from ubongo.solver import solve

from .actions import Action, Advance, GiveUp, SkipTask, StartRound, Submit
from .engine import apply, entry_task
from .errors import RuleError
from .state import Entry, Game

#: seconds between the end of one round and the start of the next
PAUSE = 5.0


def solution(game: Game, entry: Entry) -> tuple[Placement, ...]:
    """An arrangement that covers ``entry``'s task (found by the solver, then remembered)."""
    return arrangement(game.deck, entry.card, entry.side, entry.key)


# bounded: a server plays many fresh decks, and each one's tasks are needed only in its game
@lru_cache(maxsize=4096)
def arrangement(deck: Cards, card: int, side: str, key: str) -> tuple[Placement, ...]:
    """The solver's arrangement for a task of a deck (every deck task is solvable)."""
    face = deck.card(card).side(side)
    task = face.task(key)
    pieces = deck.task_pieces(task)
    found = solve(face.area, pieces)
    if found is None:
        raise ValueError(f"card {card} side {side} task {key} has no solution")
    return tuple(placements_of({p.id: p for p in pieces}, found))


@dataclass(frozen=True)
class Level:
    """A bot level: its median time as a multiple of a median player's (``speed``), the spread
    of its times (sigma of the log-normal) and the chance it never finds a task's arrangement."""

    name: str
    speed: float
    sigma: float
    stuck: float


LEVELS: dict[str, Level] = {
    "easy": Level("easy", speed=1.6, sigma=0.45, stuck=0.12),
    "medium": Level("medium", speed=1.0, sigma=0.35, stuck=0.06),
    "hard": Level("hard", speed=0.6, sigma=0.25, stuck=0.02),
}
#: a median person, for comparisons (docs/bots.md)
PERSON = Level("person", speed=1.0, sigma=0.40, stuck=0.0)


def finish_time(difficulty: float, level: Level, rng: random.Random) -> float:
    """Seconds a player of ``level`` needs for a task of ``difficulty`` (expected seconds for a
    median player, as the decks store it)."""
    expected = difficulty if difficulty > 0 else 30.0
    return expected * level.speed * math.exp(rng.gauss(0.0, level.sigma))


def gets_stuck(level: Level, rng: random.Random) -> bool:
    """Whether the player fails this task whatever the time (drawn once per task)."""
    return rng.random() < level.stuck


def may_get_stuck(game: Game) -> bool:
    """Whether a bot may fail the running round's task for good: only in a race round timed by
    an hourglass, which ends it without anybody's finish. A playoff, a tie round or a countdown
    round waits for a finish (up to the room's round limit, minutes), so a stuck bot there would
    hold a table of bots that long (a game its person had left stayed unrated for five minutes).

    >>> from ubongo import editions
    >>> from ubongo.rules import Settings, new_game
    >>> from ubongo.rules.testing import fixture_deck
    >>> def first_round(edition):
    ...     game = new_game(Settings(edition, ("ann", "bob")), seed=3, deck=fixture_deck(edition))
    ...     return apply(game, StartRound(now=0.0))
    >>> hourglass = [r.name for r in editions.records() if r.timer.hourglass is not None]
    >>> countdown = [r.name for r in editions.records() if r.timer.hourglass is None]
    >>> [may_get_stuck(first_round(e)) for e in hourglass + countdown] == (
    ...     [True] * len(hourglass) + [False] * len(countdown))
    True
    >>> game = first_round(hourglass[0])
    >>> game.round.kind = "playoff"
    >>> may_get_stuck(game)
    False
    """
    r = game.round
    return r is not None and r.kind == "round" and game.settings.record.timer.hourglass is not None


def expected_win_share(a: Level, b: Level) -> float:
    """The chance that ``a`` finishes a task before ``b`` (both finishing), from the model:
    the log of the ratio of two log-normal times is normal."""
    mu = math.log(b.speed / a.speed)
    sd = math.hypot(a.sigma, b.sigma)
    return 0.5 * (1 + math.erf(mu / (sd * math.sqrt(2))))


@dataclass(frozen=True)
class Plan:
    """What a bot will do with one task: ``what`` at ``at`` seconds after the task appeared."""

    player: str
    at: float
    what: str  # "solve", "wrong" (one piece left out), "wrong-then-solve", "give-up", "skip"


def plan(game: Game, entry: Entry, seed: object, tag: object, level: Level | None = None) -> Plan:
    """How ``entry.player`` (a ``level`` player, medium by default) will do on its task;
    ``tag`` makes each attempt's draw distinct."""
    lv = level or LEVELS["medium"]
    _, task = entry_task(game, entry)
    rng = random.Random(f"{seed}:bot:{tag}:{entry.player}:{entry.card}:{entry.key}")
    at = finish_time(task.difficulty, lv, rng)
    roll = rng.random()
    if roll < lv.stuck:
        what = "skip" if game.settings.solo else "give-up"
        return Plan(entry.player, at * 1.5, what)
    if roll < lv.stuck + 0.12:
        return Plan(entry.player, at, "wrong-then-solve")
    return Plan(entry.player, at, "solve")


Observer = Callable[[Game, Action | None, RuleError | None], None]


def _noop(game: Game, action: Action | None, error: RuleError | None) -> None:
    return None


def play_game(
    game: Game,
    seed: object = 0,
    observe: Observer = _noop,
    start: float = 0.0,
    levels: Mapping[str, Level] | None = None,
) -> Game:
    """Play ``game`` to the end with bots for every player; return the final game.

    ``levels`` gives players their :class:`Level` (medium if not named).
    ``observe(game, action, error)`` is called after each accepted action (error ``None``) and
    for each rejected one (a wrong arrangement)."""
    chosen = dict(levels or {})
    now = start if game.now is None else game.now

    def act(g: Game, action: Action) -> Game:
        try:
            new = apply(g, action)
        except RuleError as e:
            observe(g, action, e)
            return g
        if new is not g:
            observe(new, action, None)
        return new

    while game.phase != "over":
        game = act(game, StartRound(now))
        game = _play_round(game, seed, act, chosen)
        now = (game.now or now) + PAUSE
    return game


def _play_round(
    game: Game, seed: object, act: Callable[[Game, Action], Game], levels: Mapping[str, Level]
) -> Game:
    r = game.round
    assert r is not None
    tag = f"{r.kind}{r.number}"
    if r.kind == "solo":
        n = 0
        while game.phase == "playing":
            assert game.round is not None and game.now is not None
            entry = game.round.entries[0]
            p = plan(game, entry, seed, f"solo{n}", levels.get(entry.player))
            n += 1
            game = _do(game, p, game.now, act)
        return game
    started = r.started_at
    steps = []
    for p in (plan(game, e, seed, tag, levels.get(e.player)) for e in r.entries):
        if p.what == "wrong-then-solve":
            steps.append(Plan(p.player, 0.6 * p.at, "wrong"))
            p = Plan(p.player, p.at, "solve")
        steps.append(p)
    for p in sorted(steps, key=lambda p: (p.at, p.player)):
        if game.phase != "playing":
            break
        game = _do(game, p, started, act)
    while game.phase == "playing":
        deadline = game.deadline
        assert deadline is not None, "every bot finished or gave up, so a clock must run"
        game = act(game, Advance(deadline))
    return game


def _do(game: Game, p: Plan, base: float, act: Callable[[Game, Action], Game]) -> Game:
    at = base + p.at
    # let the clock run out first if it does before the bot acts
    while game.phase == "playing" and game.deadline is not None and game.deadline < at:
        game = act(game, Advance(game.deadline))
    if game.phase != "playing":
        return game
    assert game.round is not None
    entry = game.round.entry(p.player)
    if entry is None or not entry.active:
        return game
    if p.what == "give-up":
        return act(game, GiveUp(p.player, at))
    if p.what == "skip":
        return act(game, SkipTask(p.player, at))
    placements = solution(game, entry)
    if p.what == "wrong":
        return act(game, Submit(p.player, placements[:-1], at))
    if p.what == "wrong-then-solve":
        game = act(game, Submit(p.player, placements[:-1], base + 0.6 * p.at))
    return act(game, Submit(p.player, placements, at))
