"""Rooms over HTTP: create one, look at one, take a seat in one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .. import bodies
from .. import protocol as p
from ..deps import RoomServiceDep
from ..messages import RoomSnapshot

router = APIRouter()


def _room_code(code: str) -> str:
    """A code no room can have (longer than ``hello`` takes) is ``no_room`` at once; the
    message never quotes it."""
    if len(code) > p.MAX_CODE_CHARS:
        raise p.ProtocolError("no_room", "no room with this code")
    return code


@router.post("/api/rooms", status_code=201, response_model=bodies.SeatTicket)
async def create_room(body: p.CreateRoom, rooms: RoomServiceDep) -> dict[str, Any]:
    """A new room with its creator in seat 0: its code, the seat, its token, the invite."""
    return await rooms.create_room(body.name, body.settings)


@router.get("/api/rooms/{code}", response_model=RoomSnapshot)
async def get_room(code: str, rooms: RoomServiceDep) -> dict[str, Any]:
    """The room's snapshot."""
    return await rooms.room_snapshot(_room_code(code))


@router.post("/api/rooms/{code}/seats", status_code=201, response_model=bodies.SeatTicket)
async def take_seat(code: str, body: p.TakeSeat, rooms: RoomServiceDep) -> dict[str, Any]:
    """The first free seat, with its token."""
    return await rooms.take_seat(_room_code(code), body.name)
