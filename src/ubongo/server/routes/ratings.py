"""Ratings of rated games: an edition's leaderboard (``docs/online-ratings.md``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ubongo import editions as edition_data

from ..online.ratings import LEADERBOARD_GAMES, ranked
from ..ops.security import quote
from ..protocol import answers as bodies
from ..protocol.incoming import ProtocolError
from . import views
from .deps import StoreDep

router = APIRouter()


@router.get("/api/ratings", response_model=bodies.RatingsBoard)
async def ratings_board(
    store: StoreDep,
    edition: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    min_games: Annotated[int, Query(ge=1, le=1000)] = LEADERBOARD_GAMES,
) -> dict[str, Any]:
    """The accounts with at least ``min_games`` rated games in ``edition`` (default: the
    first edition; 5 games), best shown rating first, and the bot levels' ratings."""
    name = edition if edition is not None else edition_data.names()[0]
    if name not in edition_data.names():
        raise ProtocolError("no_edition", f"no edition {quote(name)}")
    players, bots = await asyncio.gather(
        asyncio.to_thread(store.ratings.accounts, name, min_games),
        asyncio.to_thread(store.ratings.bots, name),
    )
    return {
        "edition": name,
        "min_games": min_games,
        "players": views.rated_players(ranked(players, limit)),
        "bots": views.rated_bots(bots),
    }
