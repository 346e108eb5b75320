"""Rooms over HTTP: create one, look at one, take a seat in one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .. import bodies
from .. import protocol as p
from ..deps import RoomServiceDep
from ..messages import RoomSnapshot

router = APIRouter()


@router.post("/api/rooms", status_code=201, response_model=bodies.SeatTicket)
async def create_room(body: p.CreateRoom, rooms: RoomServiceDep) -> dict[str, Any]:
    """A new room with its creator in seat 0: its code, the seat, its token, the invite."""
    return await rooms.create_room(body.name, body.settings)


@router.get("/api/rooms/{code}", response_model=RoomSnapshot)
async def get_room(code: str, rooms: RoomServiceDep) -> dict[str, Any]:
    """The room's snapshot."""
    return await rooms.room_snapshot(code)


@router.post("/api/rooms/{code}/seats", status_code=201, response_model=bodies.SeatTicket)
async def take_seat(code: str, body: p.TakeSeat, rooms: RoomServiceDep) -> dict[str, Any]:
    """The first free seat, with its token."""
    return await rooms.take_seat(code, body.name)
