"""A stored game's analysis (docs/social.md, "Replay analysis"): for every task of every round,
how many solutions it has, one of them, the time a median player needs (the difficulty
model's score, docs/difficulty.md) and each player's own time against it.

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

import itertools
from typing import Any

from ubongo.board import Area, Placement, placements_of
from ubongo.pieces import Edition, edition
from ubongo.puzzles.difficulty import expected_seconds, fewest_flips, measure
from ubongo.rules.actions import placement_to_json
from ubongo.solver import count, solutions, solve

#: solutions counted per task at most (more: "more than")
COUNTED = 200


def task_facts(ed: Edition, task: dict[str, Any]) -> dict[str, Any]:
    """A dealt task's solutions (counted up to :data:`COUNTED`), one of them, and the median
    player's time."""
    area = Area(ed.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
    pieces = [ed.piece(p) for p in task["pieces"]]
    found = count(area, pieces, limit=COUNTED + 1)
    one = solve(area, pieces)
    flips = 0
    if found and any(p.reflections for p in pieces):
        flips = fewest_flips(pieces, itertools.islice(solutions(area, pieces), COUNTED))
    features = measure(area, pieces, solutions=max(found, 1), flips=flips)
    by_id = {p.id: p for p in pieces}
    return {
        "solutions": min(found, COUNTED),
        "more": found > COUNTED,
        "solution": [placement_to_json(p) for p in placements_of(by_id, one or {})],
        "median_seconds": round(expected_seconds(features, area.piece_lattice.name), 1),
    }


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
            tasks.append(
                {
                    "seat": t["seat"],
                    **facts,
                    "seconds": round(t["at"] - t["shown"], 1) if solved else None,
                    "own_differs": own is not None
                    and _covered(ed, own) != _covered(ed, facts["solution"]),
                }
            )
        rounds.append({"number": r["number"], "kind": r["kind"], "tasks": tasks})
    return {"id": replay["id"], "edition": replay["edition"], "rounds": rounds}
