"""The room service: the one interface the HTTP routes and the WebSocket call.

:class:`RoomService` is what the routes (:mod:`..routes`) know of rooms: create one, look one
up, take a seat, open a connection, hand it each message, close it, and say whether the
service is healthy. Two implementations, chosen once by :func:`~..app.create_app`:

* :class:`LocalRoomService`: every room in this process, saved to the database so that rooms
  outlive a restart (:mod:`.saved`);
* :class:`~..cluster.service.ClusterRoomService`: several processes sharing rooms through
  Redis (``--redis-url``).

Both run rooms with the same parts, which each holds: a :class:`~.gateway.Gateway` (the rooms
and their connections), :class:`~.limits.AddressLimits` (what each client address may do),
:class:`~.housekeeping.Housekeeping` (idle rooms forgotten, the lag probe, the card worker)
and quick match (:class:`~..online.quickmatch.QuickMatch` seating groups in
:class:`~.quickrooms.QuickRooms`); arenas (:class:`~..online.arenas.ArenaDirector`, seating
their races in the same rooms; with several processes one process leads them,
``cluster.arenas``). They differ only in where a room lives and how a message reaches it.
Routes never ask which one they have.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..config import ServerConfig
from ..online.arena_live import Arenas
from ..online.arena_schedule import load_schedule
from ..online.arenas import ArenaDirector
from ..online.notices import LocalNotices, Notices
from ..online.quickmatch import LocalQueue, QuickMatch
from ..online.tasks_in_play import TasksInPlay
from ..ops.clock import Clock
from ..ops.metrics import Metrics
from ..protocol.incoming import SettingsPatch
from ..protocol.outgoing import encode
from ..store import Backoff, Store
from .connection import Connection
from .gateway import Gateway, seat_json
from .housekeeping import Housekeeping
from .limits import AddressLimits
from .quickrooms import QuickRooms
from .saved import SavedRoomsHub

if TYPE_CHECKING:
    from fastapi import WebSocket


class RoomService(Protocol):
    """Rooms as the routes see them. Seat answers are ``{"code", "seat", "token", "invite"}``;
    a room is its snapshot (``docs/protocol.md``); refusals are
    :class:`~..protocol.incoming.ProtocolError` (``no_room``, ``room_full``, ``game_running``,
    ``unavailable`` ...), which the app turns into HTTP errors.

    ``unreachable``: the exceptions that mean the rooms cannot be reached right now (the app
    answers them with ``503 unavailable``)."""

    unreachable: ClassVar[tuple[type[Exception], ...]]
    #: the rooms' time line (every verdict and clock is read from it)
    clock: Clock
    #: what the operator set (the routes read the WebSocket's limits)
    config: ServerConfig
    #: what ``/metrics`` shows
    metrics: Metrics
    #: the tasks dealt in the rooms, which the hint route refuses (docs/fair-play.md)
    tasks: TasksInPlay
    #: what each client address may do: make rooms, name rooms, hold WebSockets open
    #: (docs/server.md, "Rooms and limits")
    limits: AddressLimits
    #: quick match: players waiting for a rated game, seated together (docs/protocol.md)
    quick: QuickMatch
    #: the players' notice sockets: challenges reach every page, and who is online
    #: (docs/social.md)
    notices: Notices
    #: the arenas (docs/arenas.md): this process's director, or the cluster's leader's
    arenas: Arenas

    # --- start and stop ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving (reopen kept rooms, join the cluster ...) and the background work."""
        ...

    async def stop(self) -> None:
        """Stop serving, keeping what must outlive this process."""
        ...

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` adds about the rooms."""
        ...

    # --- HTTP ----------------------------------------------------------------------------------

    async def create_room(
        self, name: str, settings: SettingsPatch, account: int | None = None
    ) -> dict[str, Any]:
        """A new room with its creator (``name``, playing as ``account`` if given) in seat 0."""
        ...

    async def room_snapshot(self, code: str) -> dict[str, Any]:
        """Room ``code`` as it is now."""
        ...

    async def take_seat(self, code: str, name: str, account: int | None = None) -> dict[str, Any]:
        """The first free seat of room ``code`` for ``name`` (playing as ``account``)."""
        ...

    async def live(self) -> list[dict[str, Any]]:
        """The live games anybody may watch, newest first."""
        ...

    async def open_games(self) -> list[dict[str, Any]]:
        """The listed rooms waiting for players, which anybody may join."""
        ...

    # --- connections ---------------------------------------------------------------------------

    def connect(self, ws: WebSocket | None, address: str = "") -> Connection:
        """A new WebSocket of this process, from client ``address``."""
        ...

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from ``conn``, received at server time ``received_at``; answers and
        events go to ``conn``'s queue."""
        ...

    def disconnect(self, conn: Connection) -> None:
        """``conn`` has closed: its seat is held, its subscription ended."""
        ...


class LocalRoomService(RoomService):
    """Every room in this process; open rooms are saved to the database as they change and
    reopened at the next start."""

    unreachable: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, storage: Store, config: ServerConfig) -> None:
        retry = Backoff(config.store_retry_seconds, config.store_retry_max_seconds)
        self.saved = SavedRoomsHub(storage, encode=encode, retry=retry)
        self.gateway = Gateway(storage, config, self.saved)
        self.clock, self.config, self.metrics = self.gateway.clock, config, self.gateway.metrics
        self.tasks = self.gateway.tasks
        self.limits = self.gateway.limits
        self.housekeeping = Housekeeping(self.gateway)
        self.quick_rooms = QuickRooms(self.gateway)
        #: players waiting for a quick match, in this process
        self.quick = self.quick_rooms.matcher(LocalQueue())
        self.notices = LocalNotices()
        schedule = load_schedule(config.arena_schedule)
        self.arenas = ArenaDirector(
            storage, self.clock, config, self.quick_rooms.race, schedule, self.notices
        )
        self.gateway.rooms.game.results.race_over = self.arenas.race_over

    async def start(self) -> None:
        await self.saved.reopen(self.gateway.rooms)
        self.housekeeping.start()
        self.quick.start()
        await self.arenas.start()

    async def stop(self) -> None:
        await self.arenas.stop()
        await self.notices.stop()
        await self.quick.stop()
        self.quick_rooms.stop()
        await self.housekeeping.stop()
        await self.saved.stop()

    def health(self) -> dict[str, Any]:
        return {}  # nothing to add for one process

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

    async def live(self) -> list[dict[str, Any]]:
        return self.gateway.live()

    async def open_games(self) -> list[dict[str, Any]]:
        return self.gateway.open_games()

    def connect(self, ws: WebSocket | None, address: str = "") -> Connection:
        return self.gateway.connect(ws, address)

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        self.gateway.handle(conn, raw, received_at)

    def disconnect(self, conn: Connection) -> None:
        self.gateway.disconnected(conn)
