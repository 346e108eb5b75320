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
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .clock import Clock
from .connection import Connection
from .gateway import Gateway, seat_json
from .live import live_rooms
from .messages import encode
from .protocol import ProtocolError, SettingsPatch
from .rooms import ServerConfig
from .saved_rooms import SavedRoomsHub
from .storage import Backoff, Storage

if TYPE_CHECKING:
    from fastapi import WebSocket

#: seconds between two looks for idle rooms to forget (less when rooms are kept less long)
SWEEP_SECONDS = 60.0

T = TypeVar("T")


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
        self._lag: asyncio.Task[None] | None = None

    # --- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving (reopen kept rooms, join the cluster ...) and forget idle rooms
        every :data:`SWEEP_SECONDS`."""
        self._sweeper = asyncio.create_task(self._sweep())
        self._lag = asyncio.create_task(self.gateway.metrics.watch_loop())
        self.gateway.rooms.game.cards.start()

    async def stop(self) -> None:
        """Stop serving, keeping what must outlive this process."""
        for task in (self._sweeper, self._lag):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.gateway.rooms.game.cards.close()

    async def _sweep(self) -> None:
        config = self.gateway.config
        every = min(SWEEP_SECONDS, config.unjoined_room_seconds / 4, config.idle_room_seconds / 4)
        while True:
            await asyncio.sleep(max(0.05, every))
            self.gateway.rooms.sweep()

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` adds about the rooms (nothing for one process)."""
        return {}

    # --- HTTP ----------------------------------------------------------------------------------

    @abstractmethod
    async def create_room(
        self, name: str, settings: SettingsPatch, account: int | None = None
    ) -> dict[str, Any]:
        """A new room with its creator (``name``, playing as ``account`` if given) in seat 0."""

    @abstractmethod
    async def room_snapshot(self, code: str) -> dict[str, Any]:
        """Room ``code`` as it is now."""

    @abstractmethod
    async def take_seat(self, code: str, name: str, account: int | None = None) -> dict[str, Any]:
        """The first free seat of room ``code`` for ``name`` (playing as ``account``)."""

    def local_live(self) -> list[dict[str, Any]]:
        """The live games anybody may watch (:mod:`.live`) among the rooms this process runs."""
        rooms = self.gateway.rooms
        running = [r for c in rooms.hub.codes() if (r := rooms.hub.get(c)) is not None]
        return live_rooms(running, self.gateway.config, self.clock.ms)

    async def live(self) -> list[dict[str, Any]]:
        """The live games anybody may watch, newest first."""
        return self.local_live()

    # --- limits per client address (docs/server.md, "Rooms and limits") -------------------------

    def may_create(self, address: str) -> None:
        """Count a room creation of ``address``; ``RateLimited`` past ``rooms_per_minute``."""
        self.gateway.room_creations.spend(address, self.clock.now())

    async def looked_up(self, address: str, lookup: Callable[[], Awaitable[T]]) -> T:
        """Run ``lookup`` (an HTTP request naming a room) for ``address``: refused while the
        address has made too many failed lookups, and counted as one if it finds no room."""
        gateway = self.gateway
        gateway.failed_lookups.check(address, self.clock.now())
        try:
            return await lookup()
        except ProtocolError as e:
            if e.code == "no_room":
                gateway.failed_lookups.take(address, self.clock.now())
            raise

    # --- connections ---------------------------------------------------------------------------

    def open_socket(self, address: str) -> bool:
        """Count a new WebSocket of ``address`` (``False``: it has as many open as allowed)."""
        return self.gateway.sockets.add(address)

    def close_socket(self, address: str) -> None:
        """One WebSocket of ``address`` has closed."""
        self.gateway.sockets.remove(address)

    def connect(self, ws: WebSocket | None, address: str = "") -> Connection:
        """A new WebSocket of this process, from client ``address``."""
        config = self.gateway.config
        conn = Connection(
            ws, self.clock, address, config.max_queued_messages, config.messages_per_second
        )
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
        retry = Backoff(config.store_retry_seconds, config.store_retry_max_seconds)
        self.saved = SavedRoomsHub(storage, encode=encode, retry=retry)
        super().__init__(Gateway(storage, config, self.saved))

    async def start(self) -> None:
        await self.saved.reopen(self.gateway.rooms)
        await super().start()

    async def stop(self) -> None:
        await super().stop()
        await self.saved.stop()

    async def create_room(
        self, name: str, settings: SettingsPatch, account: int | None = None
    ) -> dict[str, Any]:
        room, seat = self.gateway.rooms.lobby.create_room(name, settings, account=account)
        return seat_json(room, seat)

    async def room_snapshot(self, code: str) -> dict[str, Any]:
        rooms = self.gateway.rooms
        return rooms.feed.snapshot(rooms.lobby.find(code))

    async def take_seat(self, code: str, name: str, account: int | None = None) -> dict[str, Any]:
        room, seat = self.gateway.rooms.lobby.take_seat(code, name, account)
        return seat_json(room, seat, code)

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        self.gateway.handle(conn, raw, received_at)
