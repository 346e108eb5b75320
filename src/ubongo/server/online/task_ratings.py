"""What a task learns from one endless run's result (``docs/ratings.md``): its Glicko-2
rating is updated as one rating period with one game against the player as rated before
it, the task scoring ``1 - score``.

The task is rated for the whole time limit of its side; a shorter limit made it harder by
``shift`` points for that game, so it plays as ``rating + shift`` and keeps the change
without the shift. The store calls :func:`learn_task` inside the transaction that reads and
writes the task's row (:meth:`ubongo.server.store.TaskRatingRepository.learn`).

>>> result = TaskResult("f" * 32, "classic", prior=(1400.0, 250.0, 0.06), shift=0.0,
...     score=1.0, before=(1500.0, 200.0, 0.06), after=(1520.0, 190.0, 0.06), at=1.0)
>>> rating, rd, _ = learn_task((1400.0, 250.0, 0.06), result)
>>> rating < 1400.0 and rd < 250.0  # the player solved it: it was easier than thought
True
"""

from __future__ import annotations

from ubongo.puzzles import ratings as glicko

from ..store import Glicko, TaskResult

#: a stored task's deviation stays in this range: tasks are rated by many players, and a floor
#: keeps a much-played task's rating able to follow what players do
TASK_RD_BOUNDS = (30.0, 350.0)


def learn_task(task: Glicko, result: TaskResult) -> Glicko:
    """The task's new rating (whole limit) after ``result``, from its rating before it."""
    played = glicko.Rating(task[0] + result.shift, task[1], task[2])
    player = glicko.Rating(*result.before)
    new = glicko.update(played, [(player, 1.0 - result.score)], rd_bounds=TASK_RD_BOUNDS)
    return (new.rating - result.shift, new.rd, new.volatility)
