"""The room service of a process in a cluster: rooms shared with other processes through
Redis (:mod:`ubongo.server.cluster`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from redis.exceptions import ConnectionError as RedisDown
from redis.exceptions import TimeoutError as RedisSlow

from ..config import ServerConfig
from ..online.arena_schedule import load_schedule
from ..online.arenas import ArenaDirector
from ..protocol.incoming import SettingsPatch
from ..protocol.outgoing import encode
from ..rooms.connection import Connection
from ..rooms.gateway import Gateway, seat_json
from ..rooms.housekeeping import Housekeeping
from ..rooms.quickrooms import QuickRooms
from ..rooms.service import RoomService
from ..store import Store
from .arenas import ClusterArenas
from .node import ClusterHub, Node
from .notices import RedisNotices
from .queue import RedisQueue
from .tasks import RedisTasksInPlay

if TYPE_CHECKING:
    from fastapi import WebSocket


class ClusterRoomService(RoomService):
    """Rooms owned by one process at a time, reachable from every process: a room is made
    here, and a request or a connection for a room owned elsewhere goes to its owner."""

    #: Redis away: the rooms this process runs go on; what needs Redis waits until it is back
    unreachable: ClassVar[tuple[type[Exception], ...]] = (RedisDown, RedisSlow)

    def __init__(self, storage: Store, config: ServerConfig, redis_url: str) -> None:
        hub = ClusterHub(encode=encode)
        #: the tasks in play, noted in Redis for every process's hint route
        self.tasks = RedisTasksInPlay(redis_url)
        self.gateway = Gateway(storage, config, hub, tasks=self.tasks)
        self.clock, self.config, self.metrics = self.gateway.clock, config, self.gateway.metrics
        self.limits = self.gateway.limits
        self.node = Node(self.gateway, hub, redis_url)
        self.housekeeping = Housekeeping(self.gateway)
        # a quick match's room gets a code unique across the cluster, as any room made here
        self.quick_rooms = QuickRooms(self.gateway, self.node.reserve_code)
        #: every process's matcher over one queue in Redis (a group is claimed atomically)
        self.quick = self.quick_rooms.matcher(RedisQueue(self.node.redis))
        #: every page's notices and presence, through Redis
        self.notices = RedisNotices(redis_url)
        #: the arenas, led by one process of the cluster (:mod:`.arenas`)
        schedule = load_schedule(config.arena_schedule)
        self.arenas = ClusterArenas(
            self.node,
            self.quick_rooms.race,
            lambda: ArenaDirector(
                storage,
                self.clock,
                config,
                self.arenas.make_race,
                schedule,
                self.notices,
                leads=self.arenas.holds_lease,
            ),
        )
        self.gateway.rooms.game.results.race_over = self.arenas.race_over

    async def start(self) -> None:
        await self.node.start()
        await self.notices.start()
        self.housekeeping.start()
        self.quick.start()
        await self.arenas.start()

    async def stop(self) -> None:
        await self.arenas.stop()
        await self.notices.stop()
        await self.quick.stop()
        self.quick_rooms.stop()
        await self.housekeeping.stop()
        await self.node.stop()
        await self.tasks.close()

    def health(self) -> dict[str, Any]:
        # a load balancer may keep sending players here: rooms on this process still run
        return {"redis": self.node.listening, "leads_arenas": self.arenas.director is not None}

    async def create_room(
        self, name: str, settings: SettingsPatch, account: int | None = None
    ) -> dict[str, Any]:
        code = await self.node.reserve_code()
        try:
            room, seat = self.gateway.rooms.lobby.create_room(name, settings, code, account)
        except Exception:
            await self.node.release_code(code)
            raise
        return seat_json(room, seat)

    async def room_snapshot(self, code: str) -> dict[str, Any]:
        return await self.node.relay.request("snapshot", code)

    async def take_seat(self, code: str, name: str, account: int | None = None) -> dict[str, Any]:
        return await self.node.relay.request("take_seat", code, name=name, account=account)

    async def live(self) -> list[dict[str, Any]]:
        # every process's list, as its last beat wrote it, and this process's as it is now
        return await self.node.live(self.gateway.live())

    async def open_games(self) -> list[dict[str, Any]]:
        # as the live games: every process's list as its last beat wrote it, and this one's now
        return await self.node.open_games(self.gateway.open_games())

    def connect(self, ws: WebSocket | None, address: str = "") -> Connection:
        return self.gateway.connect(ws, address)

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        await self.node.relay.on_message(conn, raw, received_at)

    def disconnect(self, conn: Connection) -> None:
        self.node.relay.on_disconnect(conn)
        self.gateway.disconnected(conn)
