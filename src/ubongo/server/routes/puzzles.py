"""Puzzles outside rooms: the daily challenge's tasks, and a hint for any puzzle."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ubongo import editions as edition_data
from ubongo import puzzlefile
from ubongo.board import Placement
from ubongo.puzzles.daily import daily
from ubongo.puzzles.hints import Hint, Solved, Stuck

from ..online.daily import check_day
from ..protocol import answers as bodies
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from . import views
from .deps import HintDeskDep, SignedIn, StoreDep
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
