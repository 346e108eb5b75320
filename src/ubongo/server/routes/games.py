"""Stored games: the latest ones, one with its whole log, and one replayed by the rules."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ..online.analysis import analysis_json
from ..online.replays import ReplayCache, replay_json
from ..protocol import answers as bodies
from ..protocol.incoming import ProtocolError
from ..store import Store, StoredGame
from . import views
from .deps import StoreDep

router = APIRouter()

#: the largest id a stored game can have (a SQL BIGINT): past it there is no game, and the
#: database is not asked (it would refuse the number)
MAX_GAME_ID = 2**63 - 1


@router.get("/api/games", response_model=bodies.GameList)
async def games(
    store: StoreDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> list[dict[str, Any]]:
    """The latest finished games (1-100, default 20), newest first."""
    latest = await asyncio.to_thread(store.games.latest, limit)
    return [views.game_summary(g) for g in latest]


@router.get(
    "/api/games/{game_id}", response_model=bodies.StoredGame, response_model_exclude_unset=True
)
async def game(game_id: int, store: StoreDep) -> dict[str, Any]:
    """One stored game; ``no_game`` if there is none with this id (any integer: ids start
    at 1, so a negative or huge one simply has no game)."""
    return views.stored_game(await _stored(game_id, store))


async def _stored(game_id: int, store: Store) -> StoredGame:
    """The stored game with this id; ``no_game`` if there is none."""
    if not 0 < game_id <= MAX_GAME_ID:
        raise ProtocolError("no_game", "no game with this id")
    found = await asyncio.to_thread(store.games.get, game_id)
    if found is None:
        raise ProtocolError("no_game", f"no game {game_id}")
    return found


#: replays made lately (a fresh game's replay makes its cards again)
_replays = ReplayCache()


@router.get("/api/games/{game_id}/replay", response_model=bodies.GameReplay)
async def game_replay(game_id: int, store: StoreDep) -> dict[str, Any]:
    """One stored game rebuilt by the rules from its seed and actions, round by round (what
    the replay page shows); ``no_game`` if there is none with this id."""
    kept = _replays.get(game_id)
    if kept is not None:
        return kept
    stored = await _stored(game_id, store)

    def make() -> dict[str, Any]:
        made = replay_json(stored)
        _replays.put(game_id, made)
        return made

    return await asyncio.to_thread(make)


#: analyses made lately (each solves the game's tasks again)
_analyses = ReplayCache()


@router.get("/api/games/{game_id}/analysis", response_model=bodies.GameAnalysis)
async def game_analysis(game_id: int, store: StoreDep) -> dict[str, Any]:
    """Every task of a stored game analysed: solutions, one of them, the median player's time
    and each seat's own (``no_game`` if there is none with this id)."""
    kept = _analyses.get(game_id)
    if kept is not None:
        return kept
    replay = await game_replay(game_id, store)

    def make() -> dict[str, Any]:
        made = analysis_json(replay)
        _analyses.put(game_id, made)
        return made

    return await asyncio.to_thread(make)
