"""The HTTP and WebSocket surface, one :class:`fastapi.APIRouter` per concern.

* :mod:`.websocket` - the room WebSocket ``/ws`` (and ``/ws/echo``; first: an arena race opens
  four room sockets, and each is matched against the routers before its own);
* :mod:`.health` - ``/api/health``;
* :mod:`.metrics` - ``/metrics``, the server's figures for an operator's scraper;
* :mod:`.editions` - the editions, their drawing catalogues and the menus' options;
* :mod:`.rooms` - creating a room, a room's snapshot, taking a seat;
* :mod:`.accounts` - accounts: a new one, the token's own, renaming, public profiles;
* :mod:`.games` - stored games;
* :mod:`.records` - solo records: the leaderboard and personal bests;
* :mod:`.ratings` - ratings of rated games: an edition's leaderboard;
* :mod:`.quickmatch` - quick match: waiting for a seat in a rated game, leaving the queue;
* :mod:`.puzzles` - the daily challenge's tasks and hints for any puzzle;
* :mod:`.community` - saved puzzles: their links, plays, likes, reports, the community list;
* :mod:`.packs` - packs: ordered sets of saved puzzles, by their links, and as pack files;
* :mod:`.practice` - the practice bundle the web client keeps for playing offline;
* :mod:`.social` - following, friends, challenges, and the notice socket ``/ws/notices``;
* :mod:`.web` - the web client's files (last: it answers every other path).

Routes get their services from :mod:`.deps`, shape what the store gives into the answers'
JSON with :mod:`.views`, and every refusal is one shape (:mod:`.errors`); the protocol is
``docs/protocol.md``.

May import every other sub-package of the server but :mod:`..app`.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import (
    accounts,
    arenas,
    community,
    editions,
    games,
    health,
    metrics,
    packs,
    practice,
    printed,
    puzzles,
    quickmatch,
    ratings,
    records,
    rooms,
    social,
    web,
    websocket,
)

#: in the order they are matched (the web client's catch-all last). The room socket first: an
#: arena race opens four, and each is matched against the routers before its own, which took
#: 97 us a socket when it came sixteenth and takes 3 us now (bench/routes.py)
ROUTERS: tuple[APIRouter, ...] = (
    websocket.router,
    health.router,
    metrics.router,
    editions.router,
    rooms.router,
    accounts.router,
    games.router,
    records.router,
    ratings.router,
    quickmatch.router,
    puzzles.router,
    community.router,
    packs.router,
    printed.router,
    practice.router,
    social.router,
    arenas.router,
    web.router,
)

__all__ = ["ROUTERS"]
