"""The shared services the routes are given (FastAPI dependencies).

:func:`~.app.create_app` puts them on ``app.state`` when the app starts (``lifespan``); a
route names what it needs with one of the ``Annotated`` types here, e.g.
``async def games(storage: StorageDep)``, and never builds or looks one up itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from .clock import Clock
from .service import RoomService
from .storage import Storage


def room_service(conn: HTTPConnection) -> RoomService:
    """The rooms (one process, or a cluster: the routes do not ask which)."""
    service: RoomService = conn.app.state.rooms
    return service


def storage(conn: HTTPConnection) -> Storage:
    """Stored games and records."""
    store: Storage = conn.app.state.storage
    return store


def clock(conn: HTTPConnection) -> Clock:
    """The server's clock (the rooms' time line)."""
    return room_service(conn).clock


def web_dist(conn: HTTPConnection) -> Path:
    """The built web client's folder."""
    dist: Path = conn.app.state.web_dist
    return dist


RoomServiceDep = Annotated[RoomService, Depends(room_service)]
StorageDep = Annotated[Storage, Depends(storage)]
ClockDep = Annotated[Clock, Depends(clock)]
WebDistDep = Annotated[Path, Depends(web_dist)]
