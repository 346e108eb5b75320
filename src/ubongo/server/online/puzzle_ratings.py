"""A saved puzzle's rating learned from its plays (docs/editor.md, "Rated by play"): the
arithmetic endless uses for its tasks (:func:`.task_ratings.learn_task`, Glicko-2 with the
task as the player's opponent), not a second formula.

A saved puzzle has no time limit, so it is rated as endless would rate it with the limit an
endless run gives a task of its edition's hardest side (:func:`puzzle_limit`: one turn of the
hourglass, or three countdowns): a play solved alone within that limit is the player's win,
anything else (solved later, with help, given up) the puzzle's. Its first rating is the
difficulty model's for that limit (:func:`ubongo.puzzles.ratings.task_rating`), and the player
is rated by their endless rating in the edition, or as a new player (1500, deviation 350: such
a play moves the puzzle less).

>>> limit = puzzle_limit("classic")
>>> limit
60.0
>>> first = prior("classic", 20.0)
>>> round(first[0]), first[1]
(778, 250.0)
>>> solved = learn(None, "classic", 20.0, None, solved_in_time=True, at=0.0)
>>> solved[0] < first[0] < learn(None, "classic", 20.0, None, solved_in_time=False, at=0.0)[0]
True
"""

from __future__ import annotations

from functools import cache

from ubongo import editions
from ubongo.puzzles import ratings as glicko
from ubongo.rules.policies import timer_policy
from ubongo.rules.settings import Settings

from ..protocol.community import RATING_SHOWN_AFTER
from ..store import Glicko, TaskResult
from .task_ratings import learn_task

__all__ = ["RATING_SHOWN_AFTER", "learn", "prior", "puzzle_limit", "shown"]


def shown(rating: float | None, rated_plays: int) -> int | None:
    """The rating as lists show it: rounded, once :data:`RATING_SHOWN_AFTER` plays taught it.

    >>> shown(1612.4, 3), shown(1612.4, 2), shown(None, 0)
    (1612, None, None)
    """
    if rating is None or rated_plays < RATING_SHOWN_AFTER:
        return None
    return round(rating)


@cache
def puzzle_limit(edition: str) -> float:
    """The seconds an endless run gives a task of ``edition``'s hardest side."""
    rec = editions.record(edition)
    side = rec.deck.sides[-1].name
    settings = Settings(edition, ("player",), mode="solo", side=side).resolved()
    return timer_policy(rec).task_limit(settings, side)


def prior(edition: str, seconds: float) -> Glicko:
    """A puzzle's first rating: the model's ``seconds`` (a median player's) against the limit."""
    return glicko.task_rating(max(seconds, 0.1), puzzle_limit(edition)).as_tuple()


def learn(
    rating: Glicko | None,
    edition: str,
    seconds: float,
    player: Glicko | None,
    *,
    solved_in_time: bool,
    at: float,
) -> Glicko:
    """The puzzle's rating after one play, from its ``rating`` (None: never taught, its
    :func:`prior` from the model's ``seconds``) and the ``player``'s endless rating (None: a new
    player's), as endless learns a task's (:func:`.task_ratings.learn_task`)."""
    before = rating if rating is not None else prior(edition, seconds)
    opponent = player if player is not None else glicko.Rating().as_tuple()
    result = TaskResult(
        fingerprint="",
        edition=edition,
        prior=before,
        shift=0.0,
        score=1.0 if solved_in_time else 0.0,
        before=opponent,
        after=opponent,
        at=at,
    )
    return learn_task(before, result)
