"""Rooms over HTTP: create one, look at one, take a seat in one; the live games to watch.

What costs the server or could guess a room is limited per client address (``docs/server.md``,
"Rooms and limits"): creating rooms, and failed lookups of a room by its code or invite (the
answer is ``429 rate_limited`` with ``Retry-After``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ubongo import editions as edition_data
from ubongo.puzzles.daily import daily_deck

from ..online.daily import check_day, today
from ..online.packs import pack_tasks
from ..ops.ratelimit import address_key
from ..protocol import answers as bodies
from ..protocol import incoming as p
from ..protocol.outgoing import RoomSnapshot
from ..rooms.room import PackPatch
from .deps import MaybeAccount, RoomServiceDep, StoreDep

router = APIRouter()


def _room_code(code: str) -> str:
    """A code no room can have (longer than ``hello`` takes) is ``no_room`` at once; the
    message never quotes it."""
    if len(code) > p.MAX_CODE_CHARS:
        raise p.ProtocolError("no_room", "no room with this code")
    return code


def client_address(request: Request) -> str:
    """The client's address as the limits count it (behind a proxy on this machine: the
    address it forwards, as uvicorn's proxy headers say)."""
    return address_key(request.client.host if request.client else None)


@router.post("/api/rooms", status_code=201, response_model=bodies.SeatTicket)
async def create_room(
    body: p.CreateRoom,
    request: Request,
    rooms: RoomServiceDep,
    account: MaybeAccount,
    store: StoreDep,
) -> dict[str, Any]:
    """A new room with its creator in seat 0 (playing as the request's account, if it has
    one): its code, the seat, its token, the invite. With a pack, its puzzles are read now
    (docs/editor.md, "Packs")."""
    rooms.limits.may_create(client_address(request))
    settings = body.settings
    if settings.pack is not None:
        edition, title, tasks = await pack_tasks(store, settings.pack)
        given = settings.model_dump(exclude_unset=True)
        settings = PackPatch(**{**given, "edition": edition}, pack_title=title, pack_tasks=tasks)
    if settings.puzzles == "daily":
        # the day's tasks are made now, off the event loop (3D: up to a second), so that the
        # run's start finds them made; a day to come or a malformed one is refused here
        day = check_day(settings.day)
        edition = settings.edition or edition_data.names()[0]
        await asyncio.to_thread(daily_deck, edition, day)
        if settings.day is None and today() != day:  # pragma: no cover - midnight
            await asyncio.to_thread(daily_deck, edition, today())
    return await rooms.create_room(body.name, settings, None if account is None else account.id)


@router.get("/api/live", response_model=bodies.LiveRooms)
async def live_rooms(rooms: RoomServiceDep) -> list[dict[str, Any]]:
    """The games being played now that anybody may watch (``docs/protocol.md``, "Live
    games"): never a token or an invite; watching is ``hello`` with ``spectate: true``."""
    return await rooms.live()


@router.get("/api/open-games", response_model=bodies.OpenGames)
async def open_games(rooms: RoomServiceDep) -> list[dict[str, Any]]:
    """The rooms waiting for players that their hosts listed (docs/social.md, "Open games"):
    anybody may take a free seat; never a token or an invite."""
    return await rooms.open_games()


@router.get("/api/rooms/{code}", response_model=RoomSnapshot)
async def get_room(code: str, request: Request, rooms: RoomServiceDep) -> dict[str, Any]:
    """The room's snapshot (``code``: its short code or its invite key)."""
    code = _room_code(code)
    return await rooms.limits.looked_up(client_address(request), lambda: rooms.room_snapshot(code))


@router.post("/api/rooms/{code}/seats", status_code=201, response_model=bodies.SeatTicket)
async def take_seat(
    code: str, body: p.TakeSeat, request: Request, rooms: RoomServiceDep, account: MaybeAccount
) -> dict[str, Any]:
    """The first free seat, with its token (``code``: the room's short code or invite key),
    played as the request's account, if it has one."""
    code = _room_code(code)
    return await rooms.limits.looked_up(
        client_address(request),
        lambda: rooms.take_seat(code, body.name, None if account is None else account.id),
    )
