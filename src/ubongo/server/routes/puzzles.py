"""Puzzles outside rooms: the daily challenge's tasks, a hint for any puzzle, and the puzzle
editor's verdict on a drawn one."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ubongo import editions as edition_data
from ubongo import puzzlefile
from ubongo.board import Placement
from ubongo.pieces import edition as edition_pieces
from ubongo.puzzles.daily import daily
from ubongo.puzzles.hints import Hint, Solved, Stuck
from ubongo.puzzles.unique import Proposal
from ubongo.puzzles.verdict import Verdict

from ..online.daily import check_day
from ..protocol import answers as bodies
from ..protocol import editor
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from . import views
from .deps import EditorDeskDep, HintDeskDep, SignedIn, StoreDep
from .rooms import client_address

router = APIRouter()


def _edition(edition: str | None) -> str:
    name = edition if edition is not None else edition_data.names()[0]
    if name not in edition_data.names():
        raise ProtocolError("no_edition", f"no edition {name[:40]!r}")
    return name


@router.get("/api/daily", response_model=bodies.DailyTasks)
async def daily_tasks(edition: str | None = None, date: str | None = None) -> dict[str, Any]:
    """The tasks of ``edition`` (default: the first) for ``date`` (default: today, UTC)."""
    name = _edition(edition)
    day = check_day(date)
    # made once per edition and day (cached), off the event loop: 3D takes up to a second
    found = await asyncio.to_thread(daily, name, day)
    return found.to_json()


@router.get("/api/daily/results", response_model=bodies.DailyResults)
async def daily_results(
    store: StoreDep, edition: str | None = None, date: str | None = None
) -> dict[str, Any]:
    """The leaderboard of ``edition`` (default: the first) for ``date`` (default: today,
    UTC): rated runs, most tasks solved first, then the fastest."""
    name = _edition(edition)
    day = check_day(date).isoformat()
    runs = await asyncio.to_thread(store.daily.leaderboard, name, day)
    return {"date": day, "edition": name, "results": views.daily_runs(runs)}


@router.post("/api/hint", response_model=bodies.HintAnswer)
async def hint_for(
    body: p.HintRequest, request: Request, account: SignedIn, desk: HintDeskDep
) -> dict[str, Any]:
    """The next piece to put down on ``puzzle`` after ``placements``, or which pieces to move:
    for an account, within its limits, never for a task in play (docs/fair-play.md)."""
    try:
        puzzle = puzzlefile.from_json(body.puzzle)
    except puzzlefile.PuzzleFileError as e:
        raise ProtocolError("bad_puzzle", str(e)[:200]) from None
    placed: dict[str, frozenset[tuple[int, ...]]] = {}
    for pl in body.placements:
        pid = str(pl.piece)
        if pid in placed:
            raise ProtocolError("bad_placement", f"piece {pid[:20]} is placed twice")
        placed[pid] = frozenset(tuple(c) for c in pl.cells)
    found = await desk.answer(account.id, client_address(request), puzzle, placed)
    return _answer(puzzle, found)


def _answer(puzzle: puzzlefile.Puzzle, found: Hint | Stuck | Solved) -> dict[str, Any]:
    if isinstance(found, Solved):
        return {"placement": None, "move": [], "solved": True, "message": "Solved: Ubongo!"}
    if isinstance(found, Stuck):
        ids = [puzzlefile.id_to_json(pid) for pid in found.move]
        names = ", ".join(str(pid) for pid in ids)
        return {
            "placement": None,
            "move": ids,
            "solved": False,
            "message": f"This cannot be finished as it is: move {names}.",
        }
    piece = next(pc for pc in puzzle.pieces if pc.id == found.piece)
    at = Placement.covering(piece, found.cells)
    placement = {
        "piece": puzzlefile.id_to_json(found.piece),
        "cells": [list(c) for c in sorted(found.cells)],
        "transform": at.transform,
        "offset": list(at.offset),
    }
    return {
        "placement": placement,
        "move": [],
        "solved": False,
        "message": f"Try piece {placement['piece']} here.",
    }


@router.post("/api/puzzles/verdict", response_model=editor.PuzzleVerdict)
async def verdict_on(
    body: editor.VerdictRequest, request: Request, account: SignedIn, desk: EditorDeskDep
) -> dict[str, Any]:
    """The editor's verdict on a drawn puzzle: solvable or not and why, its solutions (counted
    up to a bound), one of them, the median player's time and the grade (docs/editor.md): for
    an account, within its limits, never for a task in play (docs/fair-play.md)."""
    try:
        puzzle = puzzlefile.from_json(body.puzzle)
    except puzzlefile.PuzzleFileError as e:
        raise ProtocolError("bad_puzzle", str(e)[:200]) from None
    found = await desk.answer(account.id, client_address(request), puzzle)
    return _verdict(puzzle, found)


@router.post("/api/puzzles/unique", response_model=editor.UniqueProposal)
async def unique_set(
    body: editor.UniqueRequest, request: Request, account: SignedIn, desk: EditorDeskDep
) -> dict[str, Any]:
    """ "Make it unique": a set of the edition's pieces whose cells add up to the drawn area's
    and that covers it in exactly one way, the nearest to the pieces sent first, or none found
    within the search's bound (docs/editor.md): the verdict's budget, bounds and refusal."""
    raw = dict(body.puzzle)
    chosen = raw.get("pieces")
    name = raw.get("edition")
    if chosen == [] and isinstance(name, str) and name in edition_data.names():
        # a puzzle file needs a piece; none chosen yet is asked with one, then dropped
        raw["pieces"] = [edition_pieces(name).pieces[0].id]
    try:
        puzzle = puzzlefile.from_json(raw)
    except puzzlefile.PuzzleFileError as e:
        raise ProtocolError("bad_puzzle", str(e)[:200]) from None
    if chosen == []:
        puzzle = puzzlefile.Puzzle(puzzle.area, (), puzzle.edition, puzzle.name)
    found = await desk.unique(account.id, client_address(request), puzzle)
    return _proposal(found)


def _proposal(found: Proposal) -> dict[str, Any]:
    pieces = [puzzlefile.id_to_json(p) for p in found.pieces or ()]
    if found.pieces is not None:
        message = f"Exactly one solution with {', '.join(map(str, pieces))}."
    elif found.complete:
        message = "No set of this edition's pieces covers this area in exactly one way."
    else:
        message = f"None found within the bound ({found.tried} of {found.candidates} sets tried)."
    return {
        "found": found.pieces is not None,
        "pieces": pieces,
        "complete": found.complete,
        "candidates": found.candidates,
        "tried": found.tried,
        "message": message,
    }


def _verdict(puzzle: puzzlefile.Puzzle, found: Verdict) -> dict[str, Any]:
    by_id = {p.id: p for p in puzzle.pieces}
    solution = []
    for pid, cells in found.solution.items():
        at = Placement.covering(by_id[pid], cells)
        solution.append(
            {
                "piece": puzzlefile.id_to_json(pid),
                "cells": [list(c) for c in sorted(cells)],
                "transform": at.transform,
                "offset": list(at.offset),
            }
        )
    return {
        "solvable": found.solutions > 0,
        "solutions": found.solutions,
        "more": found.more,
        "unique": found.solutions == 1 and not found.more,
        "solution": solution,
        "area_cells": found.area_cells,
        "piece_cells": found.piece_cells,
        "median_seconds": found.seconds,
        "grade": found.grade,
        "faster_than": found.faster_than,
        "reason": found.reason,
        "unreachable": [list(c) for c in found.unreachable],
        "message": _verdict_message(found),
    }


def _verdict_message(found: Verdict) -> str:
    """The verdict in one English sentence (the web client says it in the player's language)."""
    if found.reason == "sizes":
        gap = found.area_cells - found.piece_cells
        more = f"{gap} cells more" if gap > 0 else f"{-gap} cells fewer"
        return (
            f"No solution: the area has {found.area_cells} cells, the pieces "
            f"{found.piece_cells}; the pieces need {more}."
        )
    if found.reason == "unreachable":
        return f"No solution: no piece reaches {len(found.unreachable)} of the cells."
    if found.reason == "no_fit":
        return "No solution: the pieces do not fit together in this area."
    counted = f"more than {found.solutions}" if found.more else str(found.solutions)
    what = "a unique solution" if counted == "1" else f"{counted} solutions"
    return f"Solvable: {what}, about {found.seconds:.0f} s for a median player."
