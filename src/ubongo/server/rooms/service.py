"""The room service: the one interface the HTTP routes and the WebSocket call.

:class:`RoomService` is what the routes (:mod:`..routes`) know of rooms: create one, look one
up, take a seat, open a connection, hand it each message, close it, and say whether the
service is healthy. Two implementations, chosen once by :func:`~..app.create_app`:

* :class:`LocalRoomService`: every room in this process, saved to the database so that rooms
  outlive a restart (:mod:`.saved`);
* :class:`~..cluster.service.ClusterRoomService`: several processes sharing rooms through
  Redis (``--redis-url``).

Both run rooms with the same :class:`~.gateway.Gateway`; they differ only in where a room
lives and how a message reaches it. Routes never ask which one they have.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ubongo import editions

from ..config import ServerConfig
from ..online.quickmatch import START_GRACE_SECONDS, LocalQueue, Queue, QuickMatch, Waiting
from ..ops.clock import Clock
from ..protocol.incoming import ProtocolError, SettingsPatch
from ..protocol.outgoing import encode
from ..store import Backoff, Store
from .connection import Connection
from .gateway import Gateway, seat_json
from .live import live_rooms
from .room import Room
from .saved import SavedRoomsHub

if TYPE_CHECKING:
    from fastapi import WebSocket

log = logging.getLogger("ubongo.server")

#: seconds between two looks for idle rooms to forget (less when rooms are kept less long)
SWEEP_SECONDS = 60.0

T = TypeVar("T")


class RoomService(ABC):
    """Rooms as the routes see them. Seat answers are ``{"code", "seat", "token", "invite"}``;
    a room is its snapshot (``docs/protocol.md``); refusals are
    :class:`~..protocol.incoming.ProtocolError` (``no_room``, ``room_full``, ``game_running``,
    ``unavailable`` ...), which the app turns into HTTP errors.

    ``unreachable``: the exceptions that mean the rooms cannot be reached right now (the app
    answers them with ``503 unavailable``)."""

    unreachable: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, gateway: Gateway, queue: Queue | None = None) -> None:
        self.gateway = gateway
        self.clock: Clock = gateway.clock
        self._sweeper: asyncio.Task[None] | None = None
        self._lag: asyncio.Task[None] | None = None
        #: players waiting for a quick match (one process: here; a cluster: in Redis)
        self.quick = QuickMatch(
            queue or LocalQueue(),
            gateway.storage,
            gateway.config.quickmatch_wait,
            self._quick_room,
        )
        gateway.metrics.gauge(
            "ubongo_quickmatch_waiting",
            "players waiting for a quick match, by edition (the queue all processes share)",
            lambda: {
                edition: float(self.quick.waiting.get(edition, 0)) for edition in editions.names()
            },
            "edition",
        )
        self._starting: set[asyncio.Task[None]] = set()

    # --- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving (reopen kept rooms, join the cluster ...) and forget idle rooms
        every :data:`SWEEP_SECONDS`."""
        self._sweeper = asyncio.create_task(self._sweep())
        self._lag = asyncio.create_task(self.gateway.metrics.watch_loop())
        self.gateway.rooms.game.cards.start()
        self.quick.start()

    async def stop(self) -> None:
        """Stop serving, keeping what must outlive this process."""
        await self.quick.stop()
        for task in list(self._starting):
            task.cancel()
        for background in (self._sweeper, self._lag):
            if background is not None:
                background.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await background
        await self.gateway.rooms.game.cards.close()

    async def _sweep(self) -> None:
        config = self.gateway.config
        every = min(
            SWEEP_SECONDS,
            config.unjoined_room_seconds / 4,
            config.idle_room_seconds / 4,
            config.finished_room_seconds / 4,
        )
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

    # --- quick match (docs/protocol.md, "Quick match") ----------------------------------------

    async def quick_match(
        self, account: int, name: str, edition: str, players: int
    ) -> dict[str, Any]:
        """Wait for a seat in a rated game of ``edition`` for ``players``; the seat."""
        return await self.quick.join(account, name, edition, players)

    async def leave_queue(self, account: int) -> bool:
        """Take ``account`` out of the quick-match queue; whether it was waiting."""
        return await self.quick.leave(account)

    async def _reserve_code(self) -> str | None:
        """A join code for a new room (one process: the lobby picks one)."""
        return None

    async def _quick_room(
        self, group: Sequence[Waiting], levels: Sequence[str]
    ) -> list[dict[str, Any]]:
        """A rated, locked room of this process for a quick-match group (the oldest waiting
        player is the host) and bots of ``levels``; everyone ready, its game starts by itself.
        Each person's seat, in the group's order."""
        lobby = self.gateway.rooms.lobby
        first = group[0]
        code = await self._reserve_code()
        chosen = {**self.gateway.config.quickmatch_settings, "edition": first.edition}
        try:
            patch = SettingsPatch.model_validate({**chosen, "rated": True})
            room, host = lobby.create_room(first.name, patch, code, first.account)
        except (ProtocolError, ValueError):
            # the operator's settings do not suit this edition: its own defaults
            patch = SettingsPatch(edition=first.edition, rated=True)
            room, host = lobby.create_room(first.name, patch, code, first.account)
        seats = [host]
        for w in group[1:]:
            seats.append(lobby.take_seat(room.code, w.name, w.account)[1])
        for level in levels:
            lobby.add_bot(room, host, level)
        lobby.lock(room, host, True)
        for seat in seats[1:]:
            lobby.set_ready(room, seat, True)
        task = asyncio.create_task(self._start_quick_game(room))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)
        return [seat_json(room, s) for s in seats]

    async def _start_quick_game(self, room: Room) -> None:
        """Start a quick match's game once its people have connected (or after a grace)."""
        until = self.clock.now() + START_GRACE_SECONDS
        while self.clock.now() < until:
            people = [s for s in room.occupied() if s.kind == "person"]
            if people and all(s.connections > 0 for s in people):
                break
            await asyncio.sleep(0.05)
        host = room.seats[room.host] if room.host is not None else None
        if (
            room.phase != "lobby"
            or host is None
            or self.gateway.rooms.hub.get(room.code) is not room
        ):
            return  # closed, or taken over by another process
        try:
            self.gateway.rooms.game.start(room, host)
        except ProtocolError as e:
            log.warning("room %s: the quick match could not start: %s", room.code, e.message)

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

    def __init__(self, storage: Store, config: ServerConfig) -> None:
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
