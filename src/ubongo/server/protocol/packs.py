"""Packs in the protocol (docs/editor.md, "Packs"): an ordered set of saved puzzles, its
bodies, answers and refusals' codes (merged into the saved puzzles' by :mod:`.community`,
which the answers and the schema read).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .incoming import CellCoords, Strict
from .puzzles import PuzzleTask
from .snapshot import Sent

#: the refusals only these routes give: no such pack; a pack that may not be made (no
#: puzzle, too many, one twice, two editions, a puzzle neither the account's nor published)
PackCode = Literal["no_pack", "bad_pack"]


class MakePack(Strict):
    """``POST /api/packs``: a title and the saved puzzles' link ids, in the pack's order."""

    title: str = Field(max_length=200, description="under the rules of display names")
    puzzles: list[str] = Field(
        max_length=100, description="link ids of saved puzzles: the account's own or published"
    )


class PackPuzzle(Sent):
    """A puzzle of a pack, with what playing it needs (its solution is the puzzle's route's)."""

    id: str = Field(description="its link: /puzzle/{id}")
    title: str | None = Field(description="null: hidden by a moderator")
    author_name: str
    area: list[CellCoords] = Field(description="area cells (Trigo: both areas' cells)")
    layers: int = Field(description="2 for Ubongo 3D, else 1")
    piece_ids: list[str]
    grade: str | None
    model_seconds: float = Field(description="the difficulty model's time of a median player")


class PackView(Sent):
    """``GET /api/packs/{pack_id}`` and what making one answers."""

    id: str = Field(description="its link: /pack/{id}")
    edition: str
    title: str
    author: int
    author_name: str
    made_at: float = Field(description="seconds since the Unix epoch")
    mine: bool
    puzzles: list[PackPuzzle] = Field(description="in the pack's order")
    left_out: int = Field(
        description="puzzles no longer shown: hidden by a moderator, or taken back to their "
        "link by an author who is not the pack's"
    )


class PackSummary(Sent):
    """A pack as a list shows it."""

    id: str
    edition: str
    title: str
    puzzles: int
    made_at: float


class PackList(Sent):
    """``GET /api/packs/mine``."""

    packs: list[PackSummary]


class PackFile(Sent):
    """``GET /api/packs/{pack_id}/file``: the pack as a pack file (docs/puzzle-format.md,
    "Packs"): its title and each puzzle's file, in order."""

    name: str
    puzzles: list[PuzzleTask] = Field(description="each a puzzle file, its title its name")


#: each route's answer (merged into :data:`.answers.RESPONSES` through :mod:`.community`)
RESPONSES: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/api/packs"): PackView,
    ("GET", "/api/packs/mine"): PackList,
    ("GET", "/api/packs/{pack_id}"): PackView,
    ("GET", "/api/packs/{pack_id}/file"): PackFile,
}

#: the bodies the client sends (roots of the protocol's schema)
REQUESTS: dict[str, type[BaseModel]] = {"MakePack": MakePack}
