"""Puzzles outside rooms in the protocol: a task as a puzzle file (what ``ubongo solve``
reads), and a printed deck's task by its code (``GET /api/printed/{code}``, docs/web.md)."""

from __future__ import annotations

from pydantic import Field

from .incoming import CellCoords, PieceId
from .snapshot import Sent


class PuzzleTask(Sent):
    """A task in the puzzle-file format (what ``ubongo solve`` reads)."""

    name: str
    edition: str
    area: list[CellCoords] = Field(description="the area's cells (3D: the footprint)")
    pieces: list[PieceId]


class PrintedTask(Sent):
    """``GET /api/printed/{code}``: the task a printed deck's code names (ubongo deck print),
    as a puzzle file; its solution comes a piece at a time from ``POST /api/hint``."""

    code: str = Field(description="the code as printed (edition-card-side-key)")
    edition: str
    card: int
    side: str
    key: str = Field(description="a die face, a corner, or card (the side's only task)")
    puzzle: PuzzleTask = Field(description="the task as a puzzle file (docs/puzzle-format.md)")
