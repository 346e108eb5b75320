"""``GET /api/health``: whether this process serves, its time and version."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ubongo import __version__

from ..protocol import answers as bodies
from .deps import RoomServiceDep

router = APIRouter()


# every answer is validated by its model (bodies.py); one that does not match is a 500
@router.get("/api/health", response_model=bodies.Health, response_model_exclude_unset=True)
async def health(rooms: RoomServiceDep) -> dict[str, Any]:
    """Always ``ok`` while the process runs; with Redis, also whether it is reachable."""
    return {
        "ok": True,
        "server_time": rooms.clock.now_ms(),
        "version": __version__,
        **rooms.health(),
    }
