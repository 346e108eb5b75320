"""The game server: rooms, a real-time protocol, bots and stored results.

``ubongo serve`` runs :func:`create_app` under uvicorn. The server is a few sub-packages, each
importing only those listed before it (``tests/test_layers.py`` checks it):

* :mod:`.protocol` - every message and HTTP body, typed once with pydantic (``docs/protocol.md``);
* :mod:`.config` - what an operator may tune, every setting declared once (``ubongo serve``'s
  options, the ``UBONGO_*`` variables and docs/server.md's tables are made from it);
* :mod:`.ops` - what keeps the server up and observable: clock, metrics, logs, rate limits,
  security headers, the collector's schedule, the request deadline;
* :mod:`.store` - the database (SQLAlchemy; SQLite or PostgreSQL) and its migrations;
* :mod:`.online` - what outlives a game: accounts, names, ratings, quick match, the daily
  challenge, replays;
* :mod:`.rooms` - rooms in play: the room service, the gateway, lobby, driver, timers, feed;
* :mod:`.cluster` - the room service over Redis, for several processes;
* :mod:`.routes` - the HTTP and WebSocket surface, one router per concern;
* :mod:`.app` - assembles the app;
* :mod:`.webclient` - what ``make protocol`` writes for the web client from the app besides
  its types: the table of ``/api`` routes and the schema its checker reads.

``docs/architecture.md`` has the same map, and where a new route, message, table or setting goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # the app (FastAPI, every router) is imported when it is asked for, not by whoever
    # imports a sub-package: `ubongo review` needs the store, not the web framework
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
