"""The room service of a process in a cluster: rooms shared with other processes through
Redis (:mod:`ubongo.server.cluster`)."""

from __future__ import annotations

from typing import Any, ClassVar

from redis.exceptions import ConnectionError as RedisDown
from redis.exceptions import TimeoutError as RedisSlow

from ..config import ServerConfig
from ..protocol.incoming import SettingsPatch
from ..protocol.outgoing import encode
from ..rooms.connection import Connection
from ..rooms.gateway import Gateway, seat_json
from ..rooms.service import RoomService
from ..store import Store
from .node import ClusterHub, Node
from .queue import RedisQueue


class ClusterRoomService(RoomService):
    """Rooms owned by one process at a time, reachable from every process: a room is made
    here, and a request or a connection for a room owned elsewhere goes to its owner."""

    #: Redis away: the rooms this process runs go on; what needs Redis waits until it is back
    unreachable: ClassVar[tuple[type[Exception], ...]] = (RedisDown, RedisSlow)

    def __init__(self, storage: Store, config: ServerConfig, redis_url: str) -> None:
        hub = ClusterHub(encode=encode)
        super().__init__(Gateway(storage, config, hub))
        self.node = Node(self.gateway, hub, redis_url)
        # every process's matcher over one queue in Redis (a group is claimed atomically)
        self.quick.queue = RedisQueue(self.node.redis)

    async def start(self) -> None:
        await self.node.start()
        await super().start()

    async def stop(self) -> None:
        await super().stop()
        await self.node.stop()

    def health(self) -> dict[str, Any]:
        # a load balancer may keep sending players here: rooms on this process still run
        return {"redis": self.node.listening}

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

    async def live(self) -> list[dict[str, Any]]:
        # every process's list, as its last beat wrote it, and this process's as it is now
        return await self.node.live(self.local_live())

    async def _reserve_code(self) -> str | None:
        return await self.node.reserve_code()

    async def room_snapshot(self, code: str) -> dict[str, Any]:
        return await self.node.relay.request("snapshot", code)

    async def take_seat(self, code: str, name: str, account: int | None = None) -> dict[str, Any]:
        return await self.node.relay.request("take_seat", code, name=name, account=account)

    async def receive(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        await self.node.relay.on_message(conn, raw, received_at)

    def disconnect(self, conn: Connection) -> None:
        self.gateway.connections.discard(conn)
        self.node.relay.on_disconnect(conn)
        self.gateway.disconnected(conn)
