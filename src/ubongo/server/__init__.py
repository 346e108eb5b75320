"""The game server: rooms, a real-time protocol, bots and stored results.

``ubongo serve`` runs :func:`create_app` under uvicorn. The layers, outermost first:

* :mod:`.app` - HTTP routes, the WebSocket, the web client's files;
* :mod:`.protocol` - every message, validated with pydantic (``docs/protocol.md``);
* :mod:`.rooms` - seats, tokens, the lobby, and a game run by :mod:`ubongo.rules`;
* :mod:`.bus` - where rooms live and how their events fan out (in memory);
* :mod:`.cluster` - several processes sharing rooms through Redis (``--redis-url``);
* :mod:`.bots`, :mod:`.clock`, :mod:`.ratelimit`, :mod:`.storage` (with Alembic migrations).
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
