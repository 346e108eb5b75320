"""What each client address may do with the rooms of this process (``docs/server.md``,
"Rooms and limits"): create rooms, name rooms that do not exist, hold WebSockets open.

The limits are per process: with several processes each counts the clients it serves (a
connection forwarded from another process is that process's to limit).

>>> from ..ops.clock import Clock
>>> limits = AddressLimits(ServerConfig(connections_per_address=1), Clock())
>>> limits.open_socket("10.0.0.1"), limits.open_socket("10.0.0.1")
(True, False)
>>> limits.close_socket("10.0.0.1"); limits.open_socket("10.0.0.1")
True
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from ..config import ServerConfig
from ..ops.clock import Clock
from ..ops.ratelimit import AddressCount, AddressLimit
from ..protocol.incoming import ProtocolError

T = TypeVar("T")


class AddressLimits:
    """Per client address: the rooms it created (``rooms_per_minute``), its failed room
    lookups (``failed_lookups_per_hour``, a guesser of codes is slowed down) and its open
    WebSockets (``connections_per_address``)."""

    def __init__(self, config: ServerConfig, clock: Clock) -> None:
        self.clock = clock
        self.room_creations = AddressLimit(
            "rooms created", config.rooms_per_minute / 60, config.rooms_per_minute
        )
        self.failed_lookups = AddressLimit(
            "failed room lookups",
            config.failed_lookups_per_hour / 3600,
            config.failed_lookup_burst,
        )
        self.sockets = AddressCount(config.connections_per_address)

    def may_create(self, address: str) -> None:
        """Count a room creation of ``address``; ``RateLimited`` past ``rooms_per_minute``."""
        self.room_creations.spend(address, self.clock.now())

    async def looked_up(self, address: str, lookup: Callable[[], Awaitable[T]]) -> T:
        """Run ``lookup`` (an HTTP request naming a room) for ``address``: refused while the
        address has made too many failed lookups, and counted as one if it finds no room."""
        self.failed_lookups.check(address, self.clock.now())
        try:
            return await lookup()
        except ProtocolError as e:
            if e.code == "no_room":
                self.failed_lookups.take(address, self.clock.now())
            raise

    def found(self, address: str, find: Callable[[], T]) -> T:
        """``find`` (a ``hello`` naming a room) for ``address``, under the same limit as
        :meth:`looked_up`: refused while the address has guessed too often, and every
        refusal of ``find`` counted as a failed lookup."""
        now = self.clock.now()
        self.failed_lookups.check(address, now)
        try:
            return find()
        except ProtocolError:
            self.failed_lookups.take(address, now)
            raise

    def open_socket(self, address: str) -> bool:
        """Count a new WebSocket of ``address`` (``False``: it has as many open as allowed)."""
        return self.sockets.add(address)

    def close_socket(self, address: str) -> None:
        """One WebSocket of ``address`` has closed."""
        self.sockets.remove(address)
