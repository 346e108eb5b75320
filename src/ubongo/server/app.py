"""The FastAPI application, assembled: configuration, start and stop, routers, errors.

The routes are in :mod:`.routes` (one router per concern), the rooms behind one
:class:`~.rooms.service.RoomService` (one process, or several through Redis).

>>> app = create_app(database_url="sqlite:///:memory:")
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/rooms"))
['/api/rooms', '/api/rooms/{code}', '/api/rooms/{code}/seats']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from fastapi import FastAPI

from ubongo import __version__

from .config import ServerConfig
from .online.accounts import Accounts
from .online.conduct import Conduct
from .online.editor import EditorDesk
from .online.help import HintDesk
from .online.puzzles import PuzzleDesk
from .online.social import Social
from .ops import collector
from .ops.logs import RequestLog
from .ops.security import (
    BodyLimit,
    SecurityHeaders,
    content_security_policy,
    origin_of,
    websocket_origins,
)
from .protocol import answers as bodies
from .rooms.service import LocalRoomService, RoomService
from .routes import ROUTERS, errors
from .store import Store

log = logging.getLogger("ubongo.server")

WEB_DIST = Path(__file__).resolve().parents[3] / "web" / "dist"


def create_app(
    database_url: str | None = None,
    config: ServerConfig | None = None,
    store: Store | None = None,
    web_dist: Path | None = None,
) -> FastAPI:
    """The app; the store is opened and migrated when it starts (``lifespan``). ``config``
    (default: ``ServerConfig()``, the defaults and the ``UBONGO_*`` environment) has the
    database (unless ``database_url`` names one), Redis (several processes sharing rooms:
    :mod:`.cluster`), the body limit, allowed origins, production or dev mode, the limits."""
    config = config or ServerConfig()
    rooms_for, unreachable = _room_service(config, config.redis_url)

    def open_store() -> Store:
        return store or Store(database_url or config.database_url, timeout=config.store_timeout)

    lifespan = _lifespan(config, open_store, rooms_for)

    # production by default: the interactive API pages only with --dev (the schema,
    # /openapi.json, stays: it documents the protocol and is what the fuzz tests read)
    docs = ("/docs", "/redoc") if config.dev else (None, None)
    app = FastAPI(
        title="Ubongo",
        version=__version__,
        lifespan=lifespan,
        docs_url=docs[0],
        redoc_url=docs[1],
        swagger_ui_oauth2_redirect_url="/docs/oauth2-redirect" if config.dev else None,
        # every route's refusals, in the schema as they are sent (not FastAPI's own 422 shape)
        responses={
            "4XX": {"model": bodies.ApiError, "description": "refused: see docs/protocol.md"},
            503: {"model": bodies.ApiError, "description": "rooms unreachable (Redis)"},
        },
    )
    app.state.web_dist = web_dist or WEB_DIST
    app.state.dev = config.dev
    # a page may open the WebSocket from this host, the public URL's, and the operator's list
    app.state.allowed_origins = (
        origin_of(config.public_url),
        *(origin_of(o) for o in config.allowed_origins),
    )
    errors.install(app, unreachable)
    for router in ROUTERS:
        app.include_router(router)
    _add_middleware(app, config, relaxed=tuple(path for path in docs if path is not None))
    return app


def _lifespan(
    config: ServerConfig,
    open_store: Callable[[], Store],
    rooms_for: Callable[[Store], RoomService],
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """What the app does when it starts, undone when it stops: the store opened and migrated,
    the rooms started, accounts and metrics in ``app.state``, the collector's schedule."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store()
        await asyncio.to_thread(store.migrate)
        rooms = rooms_for(store)
        await rooms.start()
        app.state.store, app.state.rooms = store, rooms
        app.state.accounts = Accounts(store, rooms.clock, config.accounts_per_hour)
        app.state.hint_desk = HintDesk(rooms.tasks, rooms.clock, config)
        editor = app.state.editor_desk = EditorDesk(rooms.tasks, rooms.clock, config)
        # saving proves the puzzle again: one budget with the editor's verdicts
        app.state.puzzle_desk = PuzzleDesk(store, rooms.tasks, rooms.clock, config, editor.limits)
        app.state.conduct = Conduct(store, rooms.clock, config)
        app.state.social = Social(store, rooms.clock, config, rooms.notices)
        metrics = app.state.metrics = rooms.metrics
        db_seconds = metrics.db_seconds
        store.database.on_write = lambda what, s: db_seconds.labels(what=what).observe(s)
        # the collector's schedule: short young collections, full ones on a clock (see .collector)
        thresholds = collector.tune()
        full_collections = asyncio.create_task(
            collector.collect_fully_every(config.full_collection_seconds)
        )
        gc.callbacks.append(metrics.gc_callback)
        # verdicts wait for the room's save (store, then answer), which runs in a thread: the
        # thread takes the interpreter lock back after each database call, and with the
        # default 5 ms switch interval a busy event loop makes it wait that long each time
        # (p99 submission-to-verdict 300+ ms in bench/server.py; 1 ms: under 20 ms)
        sys.setswitchinterval(0.001)
        log.info("ubongo server ready; database %s", _safe_url(store.url))
        try:
            yield
        finally:
            gc.callbacks.remove(metrics.gc_callback)
            full_collections.cancel()
            collector.restore(thresholds)
            await rooms.stop()
            store.close()

    return lifespan


def _add_middleware(app: FastAPI, config: ServerConfig, relaxed: tuple[str, ...]) -> None:
    """What every request passes through: the body limit, the security headers (``relaxed``:
    the paths of the interactive API pages, which load their own scripts), the request log."""
    # the last added runs first: the headers go on every answer, the limit's 413 included
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    csp = content_security_policy(websocket_origins(config.public_url))
    app.add_middleware(SecurityHeaders, csp=csp, relaxed=relaxed)
    # outermost: every answer is counted and logged with its request id, refusals included
    app.add_middleware(RequestLog)


def _room_service(
    config: ServerConfig, redis_url: str | None
) -> tuple[Callable[[Store], RoomService], tuple[type[Exception], ...]]:
    """How the rooms are run (in this process, saved in the database; or with the other
    processes on the same Redis), and the exceptions that mean they are out of reach."""
    if not redis_url:
        return (lambda store: LocalRoomService(store, config)), LocalRoomService.unreachable
    from .cluster import ClusterRoomService

    def cluster(store: Store) -> RoomService:
        return ClusterRoomService(store, config, redis_url)

    return cluster, ClusterRoomService.unreachable


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
