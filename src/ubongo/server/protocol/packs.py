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
#: puzzle, too many, one twice, two editions, a puzzle neither the account's nor published);
#: a change to a pack by an account that is not its maker's
PackCode = Literal["no_pack", "bad_pack", "not_your_pack"]
#: the community list's orders of packs: newest first, or by their shown puzzles' plays or
#: likes added up
PackOrder = Literal["newest", "played", "liked"]


class MakePack(Strict):
    """``POST /api/packs``: a title and the saved puzzles' link ids, in the pack's order."""

    title: str = Field(max_length=200, description="under the rules of display names")
    puzzles: list[str] = Field(
        max_length=100, description="link ids of saved puzzles: the account's own or published"
    )
    published: bool = Field(default=False, description="listed in the community list")


class EditPack(Strict):
    """``PATCH /api/packs/{pack_id}``, its maker's only: a new title, puzzles (the whole list,
    in the new order: reordered, added, removed) or listing; what is not sent is unchanged."""

    title: str | None = Field(default=None, max_length=200)
    puzzles: list[str] | None = Field(
        default=None, max_length=100, description="held to the same rules as making a pack"
    )
    published: bool | None = Field(default=None, description="listed in the community list")


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


class PackHead(Sent):
    """What a pack's page and its row in the community list both say of it."""

    id: str = Field(description="its link: /pack/{id}")
    edition: str
    title: str
    author: int
    author_name: str


class PackView(PackHead):
    """``GET /api/packs/{pack_id}`` and what making one answers."""

    made_at: float = Field(description="seconds since the Unix epoch")
    mine: bool
    published: bool = Field(description="listed in the community list")
    hidden: bool = Field(description="hidden by a moderator (only its maker sees it then)")
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
    published: bool


class PackList(Sent):
    """``GET /api/packs/mine``."""

    packs: list[PackSummary]


class ListedPack(PackHead):
    """A pack as the community list shows it: its puzzles still shown, and their plays and
    likes added up (a pack's own plays are not counted: a run counts none)."""

    puzzles: int = Field(description="its puzzles that may be shown")
    plays: int = Field(description="the counted plays of its puzzles, added up")
    likes: int = Field(description="the likes of its puzzles, added up")
    published_at: float = Field(description="when first listed, seconds since the Unix epoch")


class ListedPacks(Sent):
    """``GET /api/packs``: an edition's listed packs, in the order asked for, one page."""

    packs: list[ListedPack]
    more: bool = Field(description="there is a next page (``page`` + 1)")


class PackFile(Sent):
    """``GET /api/packs/{pack_id}/file``: the pack as a pack file (docs/puzzle-format.md,
    "Packs"): its title and each puzzle's file, in order."""

    name: str
    puzzles: list[PuzzleTask] = Field(description="each a puzzle file, its title its name")


class PackDeleted(Sent):
    """``DELETE /api/packs/{pack_id}``: the maker's pack is gone (its puzzles stay)."""

    deleted: str = Field(description="the id of the pack deleted")


#: each route's answer (merged into :data:`.answers.RESPONSES` through :mod:`.community`)
RESPONSES: dict[tuple[str, str], type[BaseModel]] = {
    ("POST", "/api/packs"): PackView,
    ("GET", "/api/packs"): ListedPacks,
    ("PATCH", "/api/packs/{pack_id}"): PackView,
    ("DELETE", "/api/packs/{pack_id}"): PackDeleted,
    ("GET", "/api/packs/mine"): PackList,
    ("GET", "/api/packs/{pack_id}"): PackView,
    ("GET", "/api/packs/{pack_id}/file"): PackFile,
}

#: the bodies the client sends (roots of the protocol's schema)
REQUESTS: dict[str, type[BaseModel]] = {"MakePack": MakePack, "EditPack": EditPack}
