"""The puzzle editor in the protocol (docs/editor.md): ``POST /api/puzzles/verdict``'s body and
answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .incoming import CellCoords, PieceId, Strict
from .snapshot import Sent

#: why a drawn puzzle has no solution: the pieces' cells do not add up to the area's; some
#: cells are reached by no way of putting any piece down; the pieces do not fit together
NoSolution = Literal["sizes", "unreachable", "no_fit"]


class VerdictRequest(Strict):
    """``POST /api/puzzles/verdict``: a drawn puzzle in the puzzle-file format."""

    puzzle: dict[str, Any] = Field(description="a puzzle file's JSON (docs/puzzle-format.md)")


class SolvedPiece(Sent):
    """A piece of a solution: the cells it covers, and the same as a transform and offset."""

    piece: PieceId
    cells: list[CellCoords]
    transform: int
    offset: CellCoords


class PuzzleVerdict(Sent):
    """``POST /api/puzzles/verdict``: the editor's verdict on a drawn puzzle."""

    solvable: bool
    solutions: int = Field(description="exact covers, counted up to 200")
    more: bool = Field(description="there are more solutions than counted")
    unique: bool = Field(description="exactly one solution")
    solution: list[SolvedPiece] = Field(description="one solution; empty when there is none")
    area_cells: int = Field(description="cells to fill (3D: cubes, both levels)")
    piece_cells: int = Field(description="the pieces' cells (3D: cubes) together")
    median_seconds: float | None = Field(
        description="the difficulty model's time of a median player; null when not solvable"
    )
    grade: str | None = Field(
        description="the side of the edition's standard deck nearest in difficulty (A, B, "
        "green ... red, easy, hard); null for a custom puzzle or one not solvable"
    )
    faster_than: float | None = Field(
        description="share of the standard deck's tasks a median player solves faster (0-1); "
        "null when there is no grade"
    )
    reason: NoSolution | None = Field(description="why it has no solution; null when it has")
    unreachable: list[CellCoords] = Field(
        description="area cells no way of putting down any piece covers (3D: board squares)"
    )
    message: str = Field(description="a sentence for the player")


class UniqueRequest(Strict):
    """``POST /api/puzzles/unique``: the drawn area, and the pieces chosen so far (kept where
    they can be; none is fine), as a puzzle file's JSON."""

    puzzle: dict[str, Any] = Field(
        description="an edition puzzle file's JSON (docs/puzzle-format.md); its pieces may be "
        "an empty list"
    )


class UniqueProposal(Sent):
    """``POST /api/puzzles/unique``: a set of the edition's pieces that covers the area in
    exactly one way, or none (docs/editor.md, "Make it unique")."""

    found: bool = Field(description="a set with exactly one solution was found")
    pieces: list[PieceId] = Field(description="that set, in the edition's order; empty if none")
    complete: bool = Field(
        description="every set whose cells add up was counted: with found false, no set of "
        "the edition's pieces has exactly one solution; false when the search stopped at its "
        "bound"
    )
    candidates: int = Field(description="sets of the edition's pieces whose cells add up")
    tried: int = Field(description="of them, counted by the solver")
    message: str = Field(description="a sentence for the player")
