"""The game server: rooms, a real-time protocol, bots and stored results.

``ubongo serve`` runs :func:`create_app` under uvicorn. The parts, outermost first:

* :mod:`.app` - assembles the app; :mod:`.routes` - one router per concern (health, editions,
  rooms, games, records, the WebSocket, the web client), given their services by :mod:`.deps`;
* :mod:`.service` - the one room-service interface the routes call, and its single-process
  implementation; :mod:`.cluster` - the Redis one (several processes, ``--redis-url``);
* :mod:`.gateway` - a connection's messages as room commands; :mod:`.connection`;
* :mod:`.protocol` - every message, validated with pydantic (``docs/protocol.md``);
* :mod:`.runner` - the rooms of a process: :mod:`.lobby` (seats, tokens, host, holds),
  :mod:`.driver` (the game run by :mod:`ubongo.rules`), :mod:`.timers` (clock, bots, holds),
  :mod:`.feed` (snapshots and events), over :mod:`.rooms` (what a room is);
* :mod:`.bus` - where rooms live and how their events fan out (in memory);
* :mod:`.durable`, :mod:`.saved_rooms`, :mod:`.table`, :mod:`.clock`, :mod:`.ratelimit`,
  :mod:`.storage` (with Alembic migrations).

``docs/server.md`` ("Where each concern lives") has the same map with the files.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
