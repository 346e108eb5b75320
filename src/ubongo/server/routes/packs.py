"""Packs (docs/editor.md, "Packs"): making one of saved puzzles, reading it by its link, an
account's own, and the pack as a pack file. What each may do is :mod:`..online.packs`'."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query

from ..online.packs import PackDesk
from ..protocol import packs as k
from ..protocol.community import LAST_PAGE
from ..protocol.packs import PackOrder
from .community import known_edition
from .deps import MaybeAccount, PuzzleDeskDep, SignedIn

router = APIRouter()

#: a link's id as the path gives it (ids are 12 characters; longer ones are no pack's)
PackId = Annotated[str, Path(min_length=1, max_length=16)]


def pack_desk(desk: PuzzleDeskDep) -> PackDesk:
    """The packs' desk, over the saved puzzles' store, clock and settings."""
    return PackDesk(desk.store, desk.clock, desk.config)


PackDeskDep = Annotated[PackDesk, Depends(pack_desk)]


@router.post("/api/packs", response_model=k.PackView, status_code=201)
async def make(body: k.MakePack, account: SignedIn, desk: PackDeskDep) -> dict[str, Any]:
    """Make a pack of saved puzzles (the account's own or published), in the order given."""
    found = await desk.make(account.id, body.title, body.puzzles, body.published)
    return await desk.view(found, account.id)


@router.get("/api/packs", response_model=k.ListedPacks)
async def community(
    desk: PackDeskDep,
    edition: str | None = None,
    sort: PackOrder = "newest",
    page: Annotated[int, Query(ge=0, le=LAST_PAGE)] = 0,
) -> dict[str, Any]:
    """One page of an edition's listed packs (default: the first edition), newest first, or
    by their puzzles' plays or likes added up (most first)."""
    found, more = await desk.listed(known_edition(edition), sort, page)
    return {"packs": found, "more": more}


@router.patch("/api/packs/{pack_id}", response_model=k.PackView)
async def edit(
    pack_id: PackId, body: k.EditPack, account: SignedIn, desk: PackDeskDep
) -> dict[str, Any]:
    """The maker renames the pack, changes its puzzles (reordered, added, removed: the same
    rules as making one) or lists it; anyone else: ``403 not_your_pack``."""
    found = await desk.edit(pack_id, account.id, body.title, body.puzzles, body.published)
    return await desk.view(found, account.id)


@router.delete("/api/packs/{pack_id}", response_model=k.PackDeleted)
async def delete(pack_id: PackId, account: SignedIn, desk: PackDeskDep) -> dict[str, Any]:
    """The maker deletes the pack (its puzzles stay); anyone else: ``403 not_your_pack``."""
    await desk.delete(pack_id, account.id)
    return {"deleted": pack_id[:16]}


@router.get("/api/packs/mine", response_model=k.PackList)
async def mine(account: SignedIn, desk: PackDeskDep) -> dict[str, Any]:
    """The account's own packs, newest first."""
    found = await asyncio.to_thread(desk.store.packs.of_account, account.id)
    return {
        "packs": [
            {
                "id": p.id,
                "edition": p.edition,
                "title": p.title,
                "puzzles": len(p.puzzle_ids),
                "made_at": p.made_at,
                "published": p.published,
            }
            for p in found
        ]
    }


@router.get("/api/packs/{pack_id}", response_model=k.PackView)
async def one(pack_id: PackId, account: MaybeAccount, desk: PackDeskDep) -> dict[str, Any]:
    """The pack of a link, its puzzles in order (``404 no_pack``; a pack a moderator hid too,
    but to its maker)."""
    viewer = account.id if account else None
    return await desk.view(await desk.get(pack_id, viewer), viewer)


@router.get("/api/packs/{pack_id}/file", response_model=k.PackFile)
async def file(pack_id: PackId, account: MaybeAccount, desk: PackDeskDep) -> dict[str, Any]:
    """The pack as a pack file (docs/puzzle-format.md, "Packs"), which ``ubongo solve`` and
    the editor read."""
    return await desk.file(await desk.get(pack_id, account.id if account else None))
