"""The printed decks' tasks by their codes (issue 28, ``ubongo deck print`` prints a code with
each task): the web client's ``/solution`` page reads a task here, then asks ``POST /api/hint``
for its solution a piece at a time, within the hints' limits and never for a task in play."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ubongo import puzzlefile
from ubongo.puzzles.codes import find_task, task_puzzle

from ..protocol import puzzles as bodies
from ..protocol.incoming import ProtocolError

router = APIRouter()

#: longer than any code (``extreme-32-B-UL``): refused before it is read
MAX_CODE = 40


@router.get("/api/printed/{code}", response_model=bodies.PrintedTask)
async def printed_task(code: str) -> dict[str, Any]:
    """The task a printed code names, as a puzzle file (``404 no_task`` with the reason for a
    code that names none). What a printed card shows anyone: no account needed."""
    try:
        if len(code) > MAX_CODE:
            raise ValueError("too long to be a code")
        ref = find_task(code)
    except ValueError as e:
        raise ProtocolError("no_task", str(e)) from None
    puzzle = task_puzzle(ref)
    return {
        "code": puzzle.name,
        "edition": ref.edition,
        "card": ref.card,
        "side": ref.side,
        "key": ref.key,
        "puzzle": puzzlefile.to_json(puzzle),
    }
