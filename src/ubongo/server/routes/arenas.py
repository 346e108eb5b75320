"""Arenas (``docs/arenas.md``): the list, an arena made by a player, its view and results,
joining, pausing, the harder side, withdrawing, the arenas of a profile, and the arena
socket ``/ws/arenas/{arena_id}`` that an arena's page keeps open (its player is paired while
it is open)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ubongo import editions
from ubongo.arena import Format

from ..online.arena_live import Watcher
from ..online.names import check_name
from ..ops.ratelimit import RateLimited
from ..protocol import arenas as bodies
from ..protocol.incoming import MAX_MESSAGE_BYTES, ProtocolError
from .accounts import known_id
from .deps import AccountsDep, ConductDep, MaybeAccount, RoomServiceDep, SignedIn, StoreDep
from .rooms import client_address
from .websocket import CLOSE_NO_HELLO, admit, first_frame, next_frame, write_queue

router = APIRouter()

#: an arena's id in a path: what the director makes (10 hex digits), and no longer
MAX_ARENA_ID = 16


def _arena_id(arena_id: str) -> str:
    if not 0 < len(arena_id) <= MAX_ARENA_ID or not arena_id.isalnum():
        raise ProtocolError("no_arena", "no such arena")
    return arena_id


@router.get("/api/arenas", response_model=bodies.ArenaList)
async def arena_list(rooms: RoomServiceDep) -> dict[str, Any]:
    """The public arenas coming (the schedule's and players'), running, and over in the last
    hour, soonest first."""
    arenas = await rooms.arenas.listing()
    return {"arenas": arenas, "server_time": rooms.clock.now_ms()}


@router.post("/api/arenas", status_code=201, response_model=bodies.ArenaView)
async def make_arena(
    body: bodies.NewArena, rooms: RoomServiceDep, account: SignedIn, store: StoreDep
) -> dict[str, Any]:
    """A new arena made by the token's account (``--arenas-per-day`` a day: ``429``)."""
    now = rooms.clock.now()
    made = await asyncio.to_thread(store.arenas.made_since, account.id, now - 86400.0)
    if made >= rooms.config.arenas_per_day:
        raise RateLimited("this account has made as many arenas as it may today", 3600.0)
    title = check_name(body.title)
    side = body.side or editions.record(body.edition).default_side
    fmt = Format(body.edition, body.minutes, body.seats, side, f"{account.id}:{now}")
    arenas = rooms.arenas
    made_id = await arenas.make(title, fmt, now + body.starts_in * 60, account.id, body.private)
    return await arenas.page(made_id, account.id)


@router.get("/api/arenas/{arena_id}", response_model=bodies.ArenaView)
async def arena_view(arena_id: str, rooms: RoomServiceDep, account: MaybeAccount) -> dict[str, Any]:
    """An arena as its page shows the token's account (or a visitor)."""
    return await rooms.arenas.page(_arena_id(arena_id), account.id if account else None)


@router.get("/api/arenas/{arena_id}/results", response_model=bodies.ArenaResults)
async def arena_results(arena_id: str, rooms: RoomServiceDep) -> dict[str, Any]:
    """Every player's line in the standings' order (final once the arena is over)."""
    return await rooms.arenas.results(_arena_id(arena_id))


@router.post("/api/arenas/{arena_id}/join", response_model=bodies.ArenaView)
async def join_arena(
    arena_id: str,
    request: Request,
    rooms: RoomServiceDep,
    account: SignedIn,
    conduct: ConductDep,
) -> dict[str, Any]:
    """The token's account joins the arena (or comes back from a pause): it is paired while
    its arena page is open. ``429 playban`` for an account that left too many rated games."""
    arena_id = _arena_id(arena_id)
    addresses = await conduct.admit(account.id, client_address(request))
    await rooms.arenas.join(arena_id, account.id, account.name, list(addresses))
    return await rooms.arenas.page(arena_id, account.id)


@router.patch("/api/arenas/{arena_id}/me", response_model=bodies.ArenaView)
async def arena_me(
    arena_id: str, body: bodies.ArenaMe, rooms: RoomServiceDep, account: SignedIn
) -> dict[str, Any]:
    """Pause or come back; take the harder side in the next races or not."""
    arena_id = _arena_id(arena_id)
    if body.paused is not None:
        await rooms.arenas.pause(arena_id, account.id, body.paused)
    if body.harder is not None:
        await rooms.arenas.take_harder(arena_id, account.id, body.harder)
    return await rooms.arenas.page(arena_id, account.id)


@router.delete("/api/arenas/{arena_id}/join", response_model=bodies.ArenaView)
async def withdraw(arena_id: str, rooms: RoomServiceDep, account: SignedIn) -> dict[str, Any]:
    """Leave the arena: out of the standings before a first race, else paused with the points
    kept."""
    arena_id = _arena_id(arena_id)
    await rooms.arenas.withdraw(arena_id, account.id)
    return await rooms.arenas.page(arena_id, account.id)


@router.get("/api/accounts/{account_id}/arenas", response_model=bodies.ArenasPlayed)
async def arenas_played(account_id: int, store: StoreDep) -> list[dict[str, Any]]:
    """The arenas an account raced in, latest first, with its points and final place."""
    account_id = known_id(account_id)
    if await asyncio.to_thread(store.accounts.name_of, account_id) is None:
        raise ProtocolError("no_account", "no account with this id")
    played = await asyncio.to_thread(store.arenas.taken_part, account_id)
    return [
        {
            "id": t.arena.id,
            "title": t.arena.title,
            "edition": t.arena.format.edition,
            "starts_at": round(t.arena.starts_at * 1000),
            "points": t.points,
            "place": t.place,
        }
        for t in played
    ]


# --- the arena socket ---------------------------------------------------------------------------


@router.websocket("/ws/arenas/{arena_id}")
async def arena_socket(
    ws: WebSocket, arena_id: str, rooms: RoomServiceDep, accounts: AccountsDep
) -> None:
    """An arena page: ``hello`` with the account's token (or ``null``), then the arena's view
    whenever it changes. Counts among the address's sockets."""
    address = await admit(ws, rooms)
    if address is None:
        return
    watcher: Watcher | None = None
    try:
        await ws.accept()
        watcher = await _hello(ws, rooms, accounts, arena_id)
        if watcher is not None:
            await _serve(ws, watcher)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if watcher is not None:
            rooms.arenas.unwatch(watcher)
        rooms.limits.close_socket(address)
        with contextlib.suppress(Exception):
            await ws.close()


async def _error(ws: WebSocket, code: str, message: str) -> None:
    text = bodies.encode_arena_message({"type": "error", "code": code, "message": message})
    await ws.send_text(text)


async def _hello(
    ws: WebSocket, rooms: RoomServiceDep, accounts: AccountsDep, arena_id: str
) -> Watcher | None:
    """The page's account (or none), from its first message, watching the arena."""
    raw = await first_frame(ws, rooms.config.hello_seconds)
    if raw is None:
        return None
    try:
        hello = bodies.arena_client_message(raw[:MAX_MESSAGE_BYTES])
        account = await accounts.of_token(hello.token) if hello.token is not None else None
        return await rooms.arenas.watch(_arena_id(arena_id), account.id if account else None)
    except ValidationError:
        await _error(ws, "bad_message", "not an arena socket message (docs/arenas.md)")
    except ProtocolError as e:
        await _error(ws, e.code, e.message)
    await ws.close(CLOSE_NO_HELLO)
    return None


async def _serve(ws: WebSocket, watcher: Watcher) -> None:
    """Send the watcher's views until the page goes; a page says nothing after its hello, and
    one that does is closed."""
    writer = asyncio.create_task(write_queue(ws, watcher.queue))
    try:
        reading = asyncio.ensure_future(next_frame(ws))
        await asyncio.wait({reading, writer}, return_when=asyncio.FIRST_COMPLETED)
        if not reading.done():
            reading.cancel()
        elif reading.result() is not None:
            await _error(ws, "bad_message", "an arena page says only hello (docs/arenas.md)")
    finally:
        writer.cancel()
        await asyncio.wait({writer})
