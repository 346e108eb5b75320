"""Solo records: the leaderboard of one kind of run, and a player's personal bests."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ubongo.rules.settings import DEFAULT_SIDE

from ..deps import StorageDep

router = APIRouter()


@router.get("/api/leaderboard")
async def leaderboard(
    store: StorageDep,
    edition: str = "classic",
    goal: str = "time",
    amount: int = 5,
    side: str | None = None,
    limit: int = 20,
) -> list[dict[str, Any]]:
    """The best solo runs of one edition, goal, amount and side (default: the edition's)."""
    side = side or DEFAULT_SIDE.get(edition, "A")
    return await asyncio.to_thread(
        store.leaderboard, edition, goal, amount, side, max(1, min(limit, 100))
    )


@router.get("/api/records")
async def records(name: str, store: StorageDep) -> list[dict[str, Any]]:
    """A player's personal bests."""
    return await asyncio.to_thread(store.personal_bests, name)
