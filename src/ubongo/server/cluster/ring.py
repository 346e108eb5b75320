"""Which process nginx sends a room to: its ``hash $key consistent`` ring, computed here too.

nginx's consistent hash (``ngx_http_upstream_hash_module``, the Ketama scheme of the
Cache::Memcached::Fast client it names as its model) puts 160 points per server (weight 1) on a
32-bit circle: the server's points are the CRC-32 of ``HOST \\0 PORT`` followed by the previous
point (4 bytes, little-endian, 0 for the first). A key goes to the server of the first point at
or after the CRC-32 of the key, wrapping around; a server that is down passes its keys to the
next points' servers. The algorithm is the one its documentation and source describe; this is
our own code of it.

A process told the ring (``ubongo serve --upstreams``, the servers as nginx's ``upstream``
block names them, and ``--upstream-name``, its own) picks the join codes of the rooms it creates
among those nginx sends back to it: the room's later traffic (``/ws?room=CODE``,
``/api/rooms/CODE``) reaches its owner directly and forwarding between processes is left to
failover. A ring that does not match nginx's costs speed (forwarding), never correctness.

>>> ring = Ring(["127.0.0.1:8001", "127.0.0.1:8002"])
>>> sorted({ring.server(code) for code in ("BCDFG", "HJKMN", "PQRST", "VWXZ2", "34567")})
['127.0.0.1:8001', '127.0.0.1:8002']
>>> ring.server("BCDFG") == Ring(["127.0.0.1:8002", "127.0.0.1:8001"]).server("BCDFG")
True
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Sequence

#: points per server of weight 1 (nginx's constant)
POINTS = 160


class Ring:
    """The consistent-hash circle of ``servers`` (each ``host:port`` as nginx is told it)."""

    def __init__(self, servers: Sequence[str]) -> None:
        if not servers:
            raise ValueError("a ring needs at least one server")
        points: dict[int, str] = {}
        for server in servers:
            host, _, port = server.rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"not host:port, as nginx's upstream names it: {server!r}")
            base = zlib.crc32(host.encode() + b"\0" + port.encode())
            previous = 0
            for _ in range(POINTS):
                point = zlib.crc32(previous.to_bytes(4, "little"), base)
                # equal points: nginx keeps one of them (sorted, then deduplicated)
                points.setdefault(point, server)
                previous = point
        self.servers = tuple(servers)
        self._hashes = sorted(points)
        self._owners = [points[h] for h in self._hashes]

    def server(self, key: str) -> str:
        """The server nginx sends ``key`` to while every server is up."""
        i = bisect.bisect_left(self._hashes, zlib.crc32(key.encode()))
        return self._owners[i % len(self._owners)]
