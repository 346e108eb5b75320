"""Solo records: the leaderboard of one kind of run, and a player's personal bests."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ubongo import editions as edition_data

from ..protocol import answers as bodies
from ..protocol.incoming import ProtocolError
from . import views
from .deps import StoreDep

router = APIRouter()


@router.get("/api/leaderboard", response_model=bodies.Leaderboard)
async def leaderboard(
    store: StoreDep,
    edition: Annotated[str | None, Query(max_length=32)] = None,
    goal: Annotated[str, Query(max_length=16)] = "time",
    amount: Annotated[int, Query(ge=1, le=1000)] = 5,
    side: Annotated[str | None, Query(max_length=16)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> list[dict[str, Any]]:
    """The best solo runs of one edition, goal, amount and side (default: the edition's)."""
    # the first edition by default; an unknown one simply has no records
    name = edition if edition is not None else edition_data.names()[0]
    if side is None:
        side = edition_data.record(name).default_side if name in edition_data.names() else ""
    runs = await asyncio.to_thread(store.records.leaderboard, name, goal, amount, side, limit)
    return views.ranked_runs(runs)


@router.get("/api/records", response_model=bodies.PersonalBests)
async def records(
    store: StoreDep,
    name: Annotated[str | None, Query(min_length=1, max_length=32)] = None,
    account: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
) -> list[dict[str, Any]]:
    """A player's personal bests: an account's (``account``), or those kept by a display
    name without an account (``name``: runs from before accounts, or played without one)."""
    if (name is None) == (account is None):
        raise ProtocolError("bad_message", "give a name or an account, one of them")
    bests = await asyncio.to_thread(store.records.personal_bests, name, account)
    return views.personal_bests(bests)
