"""Stored games: the latest ones, and one with its whole log."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from .. import bodies
from ..deps import StorageDep
from ..protocol import ProtocolError

router = APIRouter()


@router.get("/api/games", response_model=bodies.GameList)
async def games(store: StorageDep, limit: int = 20) -> list[dict[str, Any]]:
    """The latest finished games (1-100, default 20), newest first."""
    return await asyncio.to_thread(store.games, max(1, min(limit, 100)))


@router.get(
    "/api/games/{game_id}", response_model=bodies.StoredGame, response_model_exclude_unset=True
)
async def game(game_id: int, store: StorageDep) -> dict[str, Any]:
    """One stored game; ``no_game`` if there is none with this id."""
    found = await asyncio.to_thread(store.game, game_id)
    if found is None:
        raise ProtocolError("no_game", f"no game {game_id}")
    return found
