"""Accounts: a new one for a first visit, the token's own account, a new name, and any
account's public profile (``docs/accounts.md``)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from ..protocol import answers as bodies
from ..protocol import incoming as p
from . import views
from .deps import AccountsDep, ConductDep, SignedIn, StoreDep
from .rooms import client_address

router = APIRouter()

#: an account id is a database row id (an SQL integer: larger ones cannot exist)
MAX_ID = 2**31 - 1


def known_id(account_id: int) -> int:
    """An account id from a path, if one can exist (``no_account`` otherwise: ids start at 1
    and are SQL integers, which the database would refuse past ``MAX_ID``)."""
    if not 0 < account_id <= MAX_ID:
        raise p.ProtocolError("no_account", "no account with this id")
    return account_id


@router.post("/api/accounts", status_code=201, response_model=bodies.AccountTicket)
async def create_account(
    request: Request, accounts: AccountsDep, conduct: ConductDep, body: p.NewAccount | None = None
) -> dict[str, Any]:
    """A new account (a random pronounceable name unless one is given) and its token; the
    address it was made from is noted (quick match keeps it apart from the others made
    there: docs/fair-play.md)."""
    address = client_address(request)
    account, token = await accounts.create(address, body.name if body is not None else None)
    await conduct.seen(account.id, address)
    return {"id": account.id, "name": account.name, "token": token}


@router.get("/api/accounts/me", response_model=bodies.AccountView)
async def me(account: SignedIn) -> dict[str, Any]:
    """The account of the request's token."""
    return {"id": account.id, "name": account.name}


@router.patch("/api/accounts/me", response_model=bodies.AccountView)
async def rename(body: p.Rename, account: SignedIn, accounts: AccountsDep) -> dict[str, Any]:
    """A new name for the token's account (records and profiles show it from now on)."""
    renamed = await accounts.rename(account, body.name)
    return {"id": renamed.id, "name": renamed.name}


@router.get(
    "/api/accounts/{account_id}", response_model=bodies.Profile, response_model_exclude_unset=True
)
async def profile(account_id: int, store: StoreDep) -> dict[str, Any]:
    """An account's public profile: name, joined, games by edition, solo bests, recent
    games, ratings and their history by edition (``no_account`` if there is none; any
    integer: ids start at 1)."""
    account_id = known_id(account_id)
    found, bests, rated = await asyncio.gather(
        asyncio.to_thread(store.accounts.profile, account_id),
        asyncio.to_thread(store.records.personal_bests, None, account_id),
        asyncio.to_thread(store.ratings.of_account, account_id),
    )
    if found is None:
        raise p.ProtocolError("no_account", "no account with this id")
    return views.profile(found, bests, rated)


@router.get("/api/accounts/{account_id}/games", response_model=bodies.ProfileGames)
async def account_games(
    account_id: int,
    store: StoreDep,
    edition: Annotated[str | None, Query(max_length=32)] = None,
    rated: bool | None = None,
    with_account: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> list[dict[str, Any]]:
    """An account's games, newest first: of one ``edition``, ``rated`` (or not) for it,
    played ``with_account`` (``no_account`` if there is no such account)."""
    if await asyncio.to_thread(store.accounts.name_of, known_id(account_id)) is None:
        raise p.ProtocolError("no_account", "no account with this id")
    found = await asyncio.to_thread(
        store.accounts.games, account_id, edition, rated, with_account, limit
    )
    return [{**views.game_summary(g.game), "seat": g.seat} for g in found]


@router.get("/api/accounts/{account_id}/versus/{other_id}", response_model=bodies.HeadToHead)
async def head_to_head(account_id: int, other_id: int, store: StoreDep) -> dict[str, int]:
    """How ``account_id`` finished against ``other_id`` in the games they played together."""
    shared = await asyncio.to_thread(
        store.accounts.seats_together, known_id(account_id), known_id(other_id)
    )
    standings = [g.standing() for g in shared]
    return {
        "games": len(standings),
        "ahead": standings.count(1),
        "behind": standings.count(-1),
        "level": standings.count(0),
    }
