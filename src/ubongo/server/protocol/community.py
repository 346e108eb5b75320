"""Saved puzzles in the protocol (docs/editor.md, "Saving and sharing", "The community
list"): the bodies of ``/api/puzzles`` and its sub-routes, their answers and their refusals'
codes, kept here beside the editor's (:mod:`.editor`) rather than in :mod:`.answers`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from . import editor, packs
from .incoming import Placement, Strict
from .snapshot import Sent

#: the refusals only these routes give (``HttpErrorCode`` includes them; statuses in
#: ``routes/errors.py``): no such puzzle (or hidden); no solution; past a limit per account;
#: a play report that cannot be true; a second play of one account; the author's own play,
#: like or report; a like before a play; and the packs' (:data:`.packs.PackCode`)
PuzzleCode = Literal[
    "no_puzzle", "unsolvable", "puzzle_limit", "bad_play", "already_played", "own_puzzle",
    "not_played", packs.PackCode,
]  # fmt: skip
#: how a counted play ended: solved alone; solved with a hint or the solution shown; given up
Outcome = Literal["solved", "helped", "gave_up"]
#: the community list's orders ("rating": hardest first, by the rating learned from play)
Order = Literal["newest", "played", "liked", "rating"]
#: plays that taught a puzzle's rating before it is shown and sorted by (docs/editor.md,
#: "Rated by play": fewer say too little, the model's first guess has a deviation of 250)
RATING_SHOWN_AFTER = 3
#: puzzles (or packs) on one page of the community list
LIST_PAGE = 20
#: the last page the community list gives (``page`` counts from 0)
LAST_PAGE = 500


class SavePuzzle(Strict):
    """``POST /api/puzzles``: a drawn edition puzzle, its title and whether it is listed."""

    puzzle: dict[str, Any] = Field(description="a puzzle file's JSON (docs/puzzle-format.md)")
    title: str = Field(max_length=200, description="under the rules of display names")
    published: bool = Field(default=False, description="listed in the community list")


class Publish(Strict):
    """``PUT /api/puzzles/{puzzle_id}/published``: listed, or reached by its link only."""

    published: bool


class PlayReport(Strict):
    """``POST /api/puzzles/{puzzle_id}/plays``: how a play ended and its seconds."""

    outcome: Outcome
    seconds: float = Field(description="from the task shown to solved or given up")


class Like(Strict):
    """``PUT /api/puzzles/{puzzle_id}/like``: like it, or take the like back."""

    liked: bool


class ReportPuzzle(Strict):
    """``POST /api/puzzles/{puzzle_id}/report``: to the moderators, saying why."""

    reason: str = Field(max_length=200)


class PuzzleStats(Sent):
    """What play made of a puzzle."""

    plays: int = Field(description="accounts that finished it, one play each")
    solves: int = Field(description="of them, solved without help")
    solve_rate: float | None = Field(description="solves / plays; null before any play")
    median_seconds: float | None = Field(description="of the solves; null before any")
    likes: int


class PuzzleSummary(Sent):
    """A saved puzzle as a list shows it."""

    id: str = Field(description="its link: /puzzle/{id}")
    edition: str
    title: str | None = Field(description="null: hidden by a moderator")
    author: int
    author_name: str
    pieces: int
    grade: str | None
    model_seconds: float = Field(description="the difficulty model's time of a median player")
    published: bool
    made_at: float = Field(description="seconds since the Unix epoch")
    stats: PuzzleStats
    rating: int | None = Field(
        description='learned from play (docs/editor.md, "Rated by play"): null until '
        f"{RATING_SHOWN_AFTER} plays taught it"
    )
    rated_plays: int = Field(description="the plays that taught the rating (one per address)")
    rating_after: int = Field(description="the rated plays after which the rating is shown")


class PuzzleList(Sent):
    """``GET /api/puzzles`` (the community list) and ``GET /api/puzzles/mine``."""

    puzzles: list[PuzzleSummary]
    more: bool = Field(description="the community list has a next page (``page`` + 1)")


class PuzzlePage(Sent):
    """``GET /api/puzzles/{puzzle_id}`` and what saving and publishing answer: the puzzle to
    play (no solution: that is ``GET .../solution``) and what this account did with it."""

    summary: PuzzleSummary
    area: list[list[int]] = Field(description="area cells in the edition's lattice coordinates")
    layers: int = Field(description="2 for Ubongo 3D, else 1")
    piece_ids: list[str]
    solutions: int = Field(description="counted up to the verdict's bound")
    mine: bool
    hidden: bool = Field(description="hidden by a moderator (only its author sees it then)")
    played: Outcome | None = Field(description="this account's counted play")
    liked: bool


class PuzzleSolution(Sent):
    """``GET /api/puzzles/{puzzle_id}/solution``: one solution (practice's hints, giving up)."""

    solution: list[Placement]


class PuzzleReported(Sent):
    """``POST /api/puzzles/{puzzle_id}/report``."""

    reported: bool = Field(description="false: this account had reported it already")


class PuzzleDeleted(Sent):
    """``DELETE /api/puzzles/{puzzle_id}``: the author's puzzle is gone."""

    deleted: str = Field(description="the id of the puzzle deleted")


#: each route's answer (merged into :data:`.answers.RESPONSES`)
RESPONSES: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/api/puzzles"): PuzzlePage,
    ("GET", "/api/puzzles"): PuzzleList,
    ("GET", "/api/puzzles/mine"): PuzzleList,
    ("GET", "/api/puzzles/{puzzle_id}"): PuzzlePage,
    ("PUT", "/api/puzzles/{puzzle_id}/published"): PuzzlePage,
    ("DELETE", "/api/puzzles/{puzzle_id}"): PuzzleDeleted,
    ("GET", "/api/puzzles/{puzzle_id}/solution"): PuzzleSolution,
    ("POST", "/api/puzzles/{puzzle_id}/plays"): PuzzleStats,
    ("PUT", "/api/puzzles/{puzzle_id}/like"): PuzzleStats,
    ("POST", "/api/puzzles/{puzzle_id}/report"): PuzzleReported,
    ("POST", "/api/puzzles/unique"): editor.UniqueProposal,
    **packs.RESPONSES,
}

#: the bodies the client sends (roots of the protocol's schema)
REQUESTS: dict[str, type[BaseModel]] = {
    model.__name__: model
    for model in (SavePuzzle, Publish, PlayReport, Like, ReportPuzzle, editor.UniqueRequest)
} | packs.REQUESTS
