"""The endless solo run: each task chosen for the player's rating, the rating learned as it goes.

An endless run (``solo_goal="endless"``) plays fresh tasks (:class:`~ubongo.puzzles.fresh.
EndlessDeck`) one after another until the player stops. Task ``n`` (from 0) is one of the tasks
on cards ``n * CARDS_PER_TASK + 1`` .. ``(n + 1) * CARDS_PER_TASK`` (the edition's sides in
turn, every key of each), offered with each time limit of :data:`LIMIT_SHARES` (the whole
limit of the edition's timer, three quarters of it, half of it): the offer against which the
player's expected score (Glicko-2, :mod:`ubongo.puzzles.ratings`) is nearest :data:`TARGET`,
so that the player solves about seven in ten in time. An offer's rating is the difficulty
model's (expected seconds against the time limit,
:func:`~ubongo.puzzles.ratings.seconds_rating`): less time makes the same task harder, which
lets a fast player meet tasks above the hardest side's.

Each task is a rating period of its own: solved in time is a win, put aside or out of time a
loss, and the player's rating is updated before the next task is chosen, so one fast solve
already moves the next task up. Which cards are candidates depends on the task's number only,
so a server can make the next task's candidates while the player solves this one; which of
them is chosen depends on the player's rating, i.e. on the settings (the starting rating) and
the log, so :func:`~ubongo.rules.replay` deals the same tasks.

>>> from ubongo.rules import Settings, new_game, apply, StartRound
>>> game = apply(new_game(Settings("trigo", ("me",), mode="solo", solo_goal="endless"), 1),
...              StartRound(0.0))
>>> candidates(0), game.round.entries[0].card in candidates(0)
([1, 2, 3, 4], True)
"""

from __future__ import annotations

from ubongo.puzzles.ratings import (
    Rating,
    closest,
    limit_shift,
    task_fingerprint,
    task_rating,
    update,
)

from .events import EventKind
from .policies import event, timer_policy
from .state import Entry, Game, Round

#: cards made for each task: the edition's sides in turn (Classic: A, B, A, B)
CARDS_PER_TASK = 4
#: the time limits a task may be offered with, as shares of the edition's limit for its side
LIMIT_SHARES = (1.0, 0.75, 0.5)
#: the expected score the chosen task gives the player: about seven in ten solved in time
TARGET = 0.7
#: the player's deviation stays in this range: a rating period of one task shrinks it fast,
#: and a floor keeps the rating moving as the player gets better (``docs/ratings.md``)
RD_BOUNDS = (45.0, 350.0)


def candidates(n: int) -> list[int]:
    """The numbers of the cards task ``n`` (from 0) is chosen among."""
    return list(range(n * CARDS_PER_TASK + 1, (n + 1) * CARDS_PER_TASK + 1))


def upcoming(game: Game) -> list[int]:
    """The cards worth making ahead: the candidates of the next two tasks to deal (the one
    after the task in hand is made while the player solves it)."""
    assert game.solo is not None
    n = game.solo.drawn
    return candidates(n) + candidates(n + 1)


def limit(game: Game, side: str) -> float:
    """The longest time a task of ``side`` is given (the edition's timer, :mod:`.policies`);
    a task is offered with :data:`LIMIT_SHARES` of it."""
    return timer_policy(game.settings.record).task_limit(game.settings, side)


def player_rating(game: Game) -> Rating:
    """The player's rating now."""
    assert game.solo is not None and game.solo.rating is not None
    return Rating(*game.solo.rating)


def deal(g: Game, r: Round, entry: Entry, n: int, at: float) -> None:
    """Deal task ``n``: the candidate nearest the target score; its clock starts at ``at``."""
    assert g.solo is not None
    options: list[tuple[int, str, str, float, Rating]] = []
    for number in candidates(n):
        (side,) = g.deck.card(number).sides
        base = limit(g, side.name)
        for task in side.tasks:
            for share in LIMIT_SHARES:
                seconds = base * share
                rating = task_rating(task.difficulty, seconds)
                options.append((number, side.name, task.keys[0], seconds, rating))
    pick = options[closest(player_rating(g), [o[4] for o in options], TARGET)]
    entry.card, entry.side, entry.key = pick[0], pick[1], pick[2]
    g.solo.task_rating = pick[4].as_tuple()
    g.solo.task_limit = pick[3]
    g.solo.dealt_at = at
    r.deadline = at + pick[3]


def rate(g: Game, entry: Entry, score: float, at: float, why: str) -> None:
    """The task in hand ends (``why``: solved, skipped, time): the player's new rating."""
    solo = g.solo
    assert solo is not None and solo.task_rating is not None
    before = player_rating(g)
    opponent = Rating(*solo.task_rating)
    after = update(before, [(opponent, score)], rd_bounds=RD_BOUNDS)
    solo.rating = after.as_tuple()
    solo.rated += 1
    side = g.deck.card(entry.card).side(entry.side)
    task = side.task(entry.key)
    seconds = solo.task_limit or limit(g, entry.side)
    event(
        g,
        EventKind.TASK_RATED,
        at,
        player=entry.player,
        card=entry.card,
        side=entry.side,
        key=entry.key,
        why=why,
        score=score,
        seconds=at - (solo.dealt_at if solo.dealt_at is not None else at),
        fingerprint=task_fingerprint(g.settings.edition, side.area, task.pieces),
        task=list(opponent.as_tuple()),
        limit=seconds,
        # the same task with the whole limit: what a stored task rating is kept for
        shift=limit_shift(limit(g, entry.side), seconds),
        before=list(before.as_tuple()),
        after=list(after.as_tuple()),
    )
