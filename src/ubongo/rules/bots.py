"""Simulated players: they solve each task with the solver and take a time drawn from the seed.

A bot's time for a task is the task's difficulty (expected seconds for a median player) times
the bot's own speed and a random spread.  Sometimes a bot first says "Ubongo!" with a wrong
arrangement (one piece left out), and sometimes it does not find the solution at all and gives
up.  Everything is drawn from ``random.Random(f"{seed}:...")``: the same seed plays the same game.

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
from collections.abc import Callable
from dataclasses import dataclass

from ubongo.board import Placement, placements_of
from ubongo.solver import solve

from .actions import Action, Advance, GiveUp, SkipTask, StartRound, Submit
from .engine import apply, entry_task
from .errors import RuleError
from .state import Entry, Game

#: seconds between the end of one round and the start of the next
PAUSE = 5.0
_solutions: dict[tuple[int, int, str, str], tuple[object, tuple[Placement, ...]]] = {}


def solution(game: Game, entry: Entry) -> tuple[Placement, ...]:
    """An arrangement that covers ``entry``'s task (found by the solver, then remembered)."""
    key = (id(game.deck), entry.card, entry.side, entry.key)
    hit = _solutions.get(key)
    if hit is not None and hit[0] is game.deck:
        return hit[1]
    side, task = entry_task(game, entry)
    pieces = game.deck.task_pieces(task)
    found = solve(side.area, pieces)
    if found is None:
        raise ValueError(f"card {entry.card} side {entry.side} task {entry.key} has no solution")
    result = tuple(placements_of({p.id: p for p in pieces}, found))
    _solutions[key] = (game.deck, result)
    return result


@dataclass(frozen=True)
class Plan:
    """What a bot will do with one task: ``what`` at ``at`` seconds after the task appeared."""

    player: str
    at: float
    what: str  # "solve", "wrong" (one piece left out), "wrong-then-solve", "give-up", "skip"


def speed(seed: object, player: str) -> float:
    """A bot's speed factor (under 1: faster than the median player)."""
    return random.Random(f"{seed}:speed:{player}").uniform(0.7, 1.4)


def plan(game: Game, entry: Entry, seed: object, tag: object) -> Plan:
    """How ``entry.player`` will do on its task; ``tag`` makes each attempt's draw distinct."""
    _, task = entry_task(game, entry)
    rng = random.Random(f"{seed}:bot:{tag}:{entry.player}:{entry.card}:{entry.key}")
    expected = task.difficulty if task.difficulty > 0 else 30.0
    at = expected * speed(seed, entry.player) * math.exp(rng.gauss(0.0, 0.45))
    fail = min(0.5, 0.05 + expected / 400.0)
    roll = rng.random()
    if roll < fail:
        what = "skip" if game.settings.solo else "give-up"
        return Plan(entry.player, at * 1.5, what)
    if roll < fail + 0.12:
        return Plan(entry.player, at, "wrong-then-solve")
    return Plan(entry.player, at, "solve")


Observer = Callable[[Game, Action | None, RuleError | None], None]


def _noop(game: Game, action: Action | None, error: RuleError | None) -> None:
    return None


def play_game(game: Game, seed: object = 0, observe: Observer = _noop, start: float = 0.0) -> Game:
    """Play ``game`` to the end with bots for every player; return the final game.

    ``observe(game, action, error)`` is called after each accepted action (error ``None``) and
    for each rejected one (a wrong arrangement)."""
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
        game = _play_round(game, seed, act)
        now = (game.now or now) + PAUSE
    return game


def _play_round(game: Game, seed: object, act: Callable[[Game, Action], Game]) -> Game:
    r = game.round
    assert r is not None
    tag = f"{r.kind}{r.number}"
    if r.kind == "solo":
        n = 0
        while game.phase == "playing":
            assert game.round is not None and game.now is not None
            entry = game.round.entries[0]
            p = plan(game, entry, seed, f"solo{n}")
            n += 1
            game = _do(game, p, game.now, act)
        return game
    started = r.started_at
    steps = []
    for p in (plan(game, e, seed, tag) for e in r.entries):
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
