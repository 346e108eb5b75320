"""A stored game's analysis (docs/social.md, "Replay analysis"): for every task of every round,
how many solutions it has, one of them, the time a median player needs (the difficulty
model's score, docs/difficulty.md) and each player's own time against it, and what a hint
would have changed (:func:`hint_saves`).

Made from the game's replay (:mod:`.replays`): the tasks as dealt, and when each was solved.
Each distinct task is solved once per analysis; solutions are counted up to
:data:`COUNTED` (a task with more says "more than").

>>> from ubongo.pieces import edition
>>> classic = edition("classic")
>>> piece = classic.pieces[0]  # an area the shape of one piece: that piece covers it
>>> task = {"area": [list(c) for c in piece.cells], "pieces": [piece.id], "layers": 1}
>>> facts = task_facts(classic, task)
>>> facts["solutions"] >= 1, facts["more"], [p["piece"] for p in facts["solution"]] == [piece.id]
(True, False, True)
"""

from __future__ import annotations

from typing import Any

from ubongo.board import Area, Placement, placements_of
from ubongo.geometry import CUBE
from ubongo.pieces import Edition, Piece, edition
from ubongo.puzzles.hints import Hint, hint
from ubongo.puzzles.verdict import median_seconds
from ubongo.rules.actions import placement_to_json
from ubongo.rules.settings import HINT_PENALTY
from ubongo.solver import count, solve

#: solutions counted per task at most (more: "more than")
COUNTED = 200


def task_facts(ed: Edition, task: dict[str, Any]) -> dict[str, Any]:
    """A dealt task's solutions (counted up to :data:`COUNTED`), one of them, and the median
    player's time."""
    area = Area(ed.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
    pieces = [ed.piece(p) for p in task["pieces"]]
    found = count(area, pieces, limit=COUNTED + 1)
    one = solve(area, pieces)
    by_id = {p.id: p for p in pieces}
    after = after_hint(area, pieces) if found else 0.0
    return {
        "solutions": min(found, COUNTED),
        "more": found > COUNTED,
        "solution": [placement_to_json(p) for p in placements_of(by_id, one or {})],
        "median_seconds": round(median_seconds(area, pieces, max(found, 1)), 1),
        "hinted_seconds": round(after + HINT_PENALTY, 1),
    }


def after_hint(area: Area, pieces: list[Piece]) -> float:
    """The model's time for what is left of a task once a hint has shown its first piece (the
    largest, where it lies in a solution: :func:`ubongo.puzzles.hints.hint` on an empty
    board): the rest of the area, to fill with the other pieces."""
    shown = hint(area, pieces, {})
    assert isinstance(shown, Hint)  # an empty board of a task with a solution
    left = [p for p in pieces if p.id != shown.piece]
    if not left:
        return 0.0
    empty = area.solid - shown.cells
    rest = Area(CUBE, empty) if area.layers > 1 else Area(area.lattice, empty)
    return median_seconds(rest, left, max(count(rest, left, limit=COUNTED + 1), 1))


def hint_saves(seconds: float | None, median: float, hinted: float) -> float | None:
    """What a hint taken as the task was dealt would have saved a player who solved it in
    ``seconds`` (negative: what it would have cost), at the player's own pace: the player took
    ``seconds / median`` times the model's time, so with the hint they would have needed that
    many times the model's time of what is left, plus the hint's cost (``hinted``: the
    median's time with the hint, its cost in). ``None`` for a task not solved.

    >>> hint_saves(40.0, 20.0, 25.0)  # twice the median: 2 x 10 s left + 15 s
    5.0
    >>> hint_saves(10.0, 20.0, 25.0)  # half the median: 0.5 x 10 s + 15 s
    -10.0
    """
    if seconds is None:
        return None
    left = hinted - HINT_PENALTY
    return round(seconds - (seconds / median * left + HINT_PENALTY), 1)


def _covered(ed: Edition, placements: list[dict[str, Any]]) -> frozenset[tuple[str, Any]]:
    """What a set of placements covers, piece by piece (two solutions are the same if each
    piece covers the same cells, whichever of a symmetric piece's turns placed it)."""
    out = set()
    for p in placements:
        placed = Placement(str(p["piece"]), int(p["transform"]), tuple(p["offset"]))
        out.add((placed.piece, placed.cells(ed.piece(placed.piece))))
    return frozenset(out)


def analysis_json(replay: dict[str, Any]) -> dict[str, Any]:
    """The analysis of a replayed game (``GameAnalysis``)."""
    ed = edition(replay["edition"])
    known: dict[tuple[Any, ...], dict[str, Any]] = {}
    rounds = []
    for r in replay["rounds"]:
        tasks = []
        for t in r["tasks"]:
            task = t["task"]
            key = (tuple(sorted(map(tuple, task["area"]))), tuple(task["pieces"]), task["layers"])
            if key not in known:
                known[key] = task_facts(ed, task)
            facts = known[key]
            solved = t["outcome"] == "finished" and t["at"] is not None
            own = t["placements"] if solved else None
            seconds = round(t["at"] - t["shown"], 1) if solved else None
            tasks.append(
                {
                    "seat": t["seat"],
                    **facts,
                    "seconds": seconds,
                    "hint_saves": hint_saves(
                        seconds, facts["median_seconds"], facts["hinted_seconds"]
                    ),
                    "own_differs": own is not None
                    and _covered(ed, own) != _covered(ed, facts["solution"]),
                }
            )
        rounds.append({"number": r["number"], "kind": r["kind"], "tasks": tasks})
    return {"id": replay["id"], "edition": replay["edition"], "rounds": rounds}
