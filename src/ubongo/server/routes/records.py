"""Solo records: the leaderboard of one kind of run, and a player's personal bests."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ubongo import editions as edition_data

from .. import bodies
from ..deps import StorageDep

router = APIRouter()


@router.get("/api/leaderboard", response_model=bodies.Leaderboard)
async def leaderboard(
    store: StorageDep,
    edition: str | None = None,
    goal: str = "time",
    amount: int = 5,
    side: str | None = None,
    limit: int = 20,
) -> list[dict[str, Any]]:
    """The best solo runs of one edition, goal, amount and side (default: the edition's)."""
    # the first edition by default; an unknown one simply has no records
    name = edition if edition is not None else edition_data.names()[0]
    if side is None:
        side = edition_data.record(name).default_side if name in edition_data.names() else ""
    return await asyncio.to_thread(
        store.leaderboard, name, goal, amount, side, max(1, min(limit, 100))
    )


@router.get("/api/records", response_model=bodies.PersonalBests)
async def records(name: str, store: StorageDep) -> list[dict[str, Any]]:
    """A player's personal bests."""
    return await asyncio.to_thread(store.personal_bests, name)
