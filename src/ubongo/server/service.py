"""The room service: the one interface the HTTP routes and the WebSocket call.

:class:`RoomService` is what the routes (:mod:`.routes`) know of rooms: create one, look one
up, take a seat, open a connection, hand it each message, close it, and say whether the
service is healthy. Two implementations, chosen once by :func:`~.app.create_app`:

* :class:`LocalRoomService`: every room in this process, saved to the database so that rooms
  outlive a restart (:mod:`.saved_rooms`);
* :class:`~.cluster.service.ClusterRoomService`: several processes sharing rooms through
  Redis (``--redis-url``).

Both run rooms with the same :class:`~.gateway.Gateway`; they differ only in where a room
lives and how a message reaches it. Routes never ask which one they have.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from .clock import Clock
from .connection import Connection
from .gateway import Gateway, seat_json
from .messages import encode
from .protocol import SettingsPatch
from .rooms import ServerConfig
from .saved_rooms import SavedRoomsHub
from .storage import Storage

if TYPE_CHECKING:
    from fastapi import WebSocket

#: seconds between two looks for idle rooms to forget
SWEEP_SECONDS = 60.0


class RoomService(ABC):
    """Rooms as the routes see them. Seat answers are ``{"code", "seat", "token", "invite"}``;
    a room is its snapshot (``docs/protocol.md``); refusals are
    :class:`~.protocol.ProtocolError` (``no_room``, ``room_full``, ``game_running``,
    ``unavailable`` ...), which the app turns into HTTP errors.

    ``unreachable``: the exceptions that mean the rooms cannot be reached right now (the app
    answers them with ``503 unavailable``)."""

    unreachable: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.clock: Clock = gateway.clock
        self._sweeper: asyncio.Task[None] | None = None

    # --- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving (reopen kept rooms, join the cluster ...) and forget idle rooms
        every :data:`SWEEP_SECONDS`."""
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        """Stop serving, keeping what must outlive this process."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        self.gateway.rooms.game.cards.close()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.gateway.rooms.sweep()

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` adds about the rooms (nothing for one process)."""
        return {}

    # --- HTTP ----------------------------------------------------------------------------------

    @abstractmethod
    async def create_room(self, name: str, settings: SettingsPatch) -> dict[str, Any]:
        """A new room with its creator (``name``) in seat 0."""

    @abstractmethod
    async def room_snapshot(self, code: str) -> dict[str, Any]:
        """Room ``code`` as it is now."""

    @abstractmethod
    async def take_seat(self, code: str, name: str) -> dict[str, Any]:
        """The first free seat of room ``code`` for ``name``."""

    # --- connections ---------------------------------------------------------------------------

    def connect(self, ws: WebSocket | None) -> Connection:
        """A new WebSocket of this process."""
        conn = Connection(ws, self.clock)
        self.gateway.connections.add(conn)
        return conn

    @abstractmethod
    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from ``conn``, received at server time ``received_at``; answers and
        events go to ``conn``'s queue."""

    def disconnect(self, conn: Connection) -> None:
        """``conn`` has closed: its seat is held, its subscription ended."""
        self.gateway.connections.discard(conn)
        self.gateway.disconnected(conn)


class LocalRoomService(RoomService):
    """Every room in this process; open rooms are saved to the database as they change and
    reopened at the next start."""

    def __init__(self, storage: Storage, config: ServerConfig) -> None:
        self.saved = SavedRoomsHub(storage, encode=encode)
        super().__init__(Gateway(storage, config, self.saved))

    async def start(self) -> None:
        await self.saved.reopen(self.gateway.rooms)
        await super().start()

    async def stop(self) -> None:
        await super().stop()
        await self.saved.stop()

    async def create_room(self, name: str, settings: SettingsPatch) -> dict[str, Any]:
        room, seat = self.gateway.rooms.lobby.create_room(name, settings)
        return seat_json(room, seat)

    async def room_snapshot(self, code: str) -> dict[str, Any]:
        feed = self.gateway.rooms.feed
        return feed.snapshot(feed.room(code))

    async def take_seat(self, code: str, name: str) -> dict[str, Any]:
        room, seat = self.gateway.rooms.lobby.take_seat(code, name)
        return seat_json(room, seat)

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        self.gateway.handle(conn, raw, received_at)
