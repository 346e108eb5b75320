"""The FastAPI application: HTTP routes, the room WebSocket, the web client's files.

>>> app = create_app(database_url="sqlite:///:memory:")
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/rooms"))
['/api/rooms', '/api/rooms/{code}', '/api/rooms/{code}/seats']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from ubongo import __version__, catalogue, rules
from ubongo import editions as edition_data
from ubongo.board import COVERED, Placement, Verdict

from . import protocol as p
from .bus import Event, MemoryHub, RoomHub, Subscription
from .clock import Clock
from .protocol import ProtocolError
from .ratelimit import TokenBucket
from .rooms import Room, Rooms, Seat, ServerConfig
from .saved_rooms import SavedRoomsHub
from .storage import Storage

if TYPE_CHECKING:
    from .cluster import Binding, Cluster

log = logging.getLogger("ubongo.server")

#: messages a second per connection, and the burst allowed
RATE, BURST = 20.0, 40
#: refused messages after which a connection is closed
MAX_REFUSED = 200
#: events waiting for a slow client before it is dropped (it reconnects and resyncs)
MAX_QUEUE = 1000

WEB_DIST = Path(__file__).resolve().parents[3] / "web" / "dist"

NO_CLIENT_PAGE = """<!doctype html><meta charset="utf-8"><title>Ubongo</title>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto">
<h1>Ubongo server is running</h1>
<p>The web client has not been built yet. Build it with <code>make run</code> (or
<code>cd web &amp;&amp; npm ci &amp;&amp; npm run build</code>) and reload this page.</p>
<p>The API is at <a href="/api/health">/api/health</a>; the protocol is described in
<code>docs/protocol.md</code>.</p></body>"""


def _error(status: int, e: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": e.code, "message": e.message}}, status_code=status)


HTTP_STATUS = {"no_room": 404, "room_full": 409, "game_running": 409, "unavailable": 503}


def options() -> dict[str, Any]:
    """What a client offers in its menus, and shows of each edition, per edition (its record)."""
    out: dict[str, Any] = {}
    for rec in edition_data.records():
        timer = rec.timer
        out[rec.name] = {
            "sides": list(rec.deck.side_names),
            "default_side": rec.default_side,
            "per_player_side": rec.own_sides,
            "players": list(rec.players),
            "variants": list(rec.variants),
            "rounds": rec.rounds,
            "hourglass_seconds": timer.hourglass,
            "countdown_seconds": dict(timer.countdown) or None,
            "solo_goals": ["time", "tasks"],
            "solo_amounts": list(rec.solo.amounts),
            **rec.web_json(),
        }
    return out


class Connection:
    """One WebSocket: its outgoing queue, its rate limit, and what it is attached to.

    With several processes (:mod:`.cluster`), ``bound`` is set while the connection's room is
    run by another process, and ``node`` names the process of a connection that is not here."""

    _ids = 0

    def __init__(self, ws: WebSocket | None, clock: Clock) -> None:
        Connection._ids += 1
        self.id = Connection._ids
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.bucket = TokenBucket(RATE, BURST, clock.now())
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.joined = False
        self.subscription: Subscription | None = None
        self.closing: int | None = None
        self.bound: Binding | None = None
        self.node: str | None = None

    def send(self, text: str) -> None:
        if self.queue.qsize() > MAX_QUEUE:
            self.close(1013)
            return
        self.queue.put_nowait(text)

    def send_json(self, data: dict[str, Any]) -> None:
        import json

        self.send(json.dumps(data, separators=(",", ":")))

    def on_event(self, event: Event) -> None:
        self.send(event.text)

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self.queue.put_nowait(None)


class Server:
    """The running server: rooms, storage, and the connections by seat token."""

    def __init__(
        self, storage: Storage | None, config: ServerConfig, hub: RoomHub[Room] | None = None
    ) -> None:
        self.clock = Clock()
        self.storage = storage
        self.hub: RoomHub[Room] = hub if hub is not None else MemoryHub()
        self.rooms = Rooms(self.hub, storage, self.clock, config)
        self.by_seat: dict[tuple[str, int], Connection] = {}
        #: the WebSockets open on this process
        self.connections: set[Connection] = set()
        #: set when several processes share rooms through Redis
        self.cluster: Cluster | None = None

    def connections_in(self, code: str) -> list[Connection]:
        return [c for c in self.connections if c.room is not None and c.room.code == code]

    # --- the WebSocket's messages -------------------------------------------------------------

    def handle(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from a client; every refusal becomes an error message."""
        kind: str | None = None
        try:
            if not conn.bucket.allow(received_at):
                if conn.bucket.refused >= MAX_REFUSED:
                    conn.close(4008)
                raise ProtocolError("rate_limited", f"more than {RATE:.0f} messages a second")
            msg = p.parse_client_message(raw)
            kind = msg.type
            self.dispatch(conn, msg, received_at)
        except ProtocolError as e:
            if e.ref is None:
                e.ref = kind
            conn.send_json(e.to_json())
        except rules.RuleError as e:
            conn.send_json(ProtocolError(e.code, str(e), kind).to_json())

    def dispatch(self, conn: Connection, msg: p.ClientMessage, now: float) -> None:
        rooms = self.rooms
        if isinstance(msg, p.Ping):
            conn.send_json(
                {"type": "pong", "id": msg.id, "t": msg.t, "server_time": self.clock.ms(now)}
            )
            return
        if isinstance(msg, p.Hello):
            self.hello(conn, msg)
            return
        if not conn.joined or conn.room is None:
            raise ProtocolError("not_joined", "send hello first")
        room, seat = conn.room, conn.seat
        if seat is not None and room.seats[seat.index] is not seat:
            raise ProtocolError("bad_token", "this seat is no longer yours")
        if isinstance(msg, p.Submit):
            placements = [
                Placement(pl.piece, pl.transform, tuple(pl.offset)) for pl in msg.placements
            ]

            def verdict(v: Verdict, code: str | None = None) -> None:
                conn.send_json(
                    {
                        "type": "verdict",
                        "round": msg.round,
                        "ok": v.ok,
                        "code": code or v.code,
                        "reason": v.reason,
                        "received_at": self.clock.ms(now),
                    }
                )

            try:
                wrong = rooms.submit(
                    room, seat, msg.round, placements, now, on_accept=lambda: verdict(COVERED)
                )
            except rules.RuleError as e:  # too late, already finished: no finish
                verdict(Verdict(False, e.code, str(e)))
                return
            if wrong is not None:
                verdict(wrong)
        elif isinstance(msg, p.ChangeSettings):
            rooms.change_settings(room, seat, msg.settings)
        elif isinstance(msg, p.ChooseSide):
            rooms.choose_side(room, seat, msg.side)
        elif isinstance(msg, p.AddBot):
            rooms.add_bot(room, seat, msg.level)
        elif isinstance(msg, p.RemoveBot):
            rooms.remove_bot(room, seat, msg.seat)
        elif isinstance(msg, p.BotLevel):
            rooms.bot_level(room, seat, msg.seat, msg.level)
        elif isinstance(msg, p.Ready):
            rooms.set_ready(room, seat, msg.ready)
        elif isinstance(msg, p.Start):
            rooms.start(room, seat)
        elif isinstance(msg, p.Skip):
            rooms.skip(room, seat, msg.round, now)
        elif isinstance(msg, p.Rematch):
            rooms.rematch(room, seat)
        elif isinstance(msg, p.Leave):
            rooms.leave(room, seat)
            self._drop_seat(conn)

    def hello(self, conn: Connection, msg: p.Hello) -> None:
        if conn.joined:
            raise ProtocolError("already_joined", "this connection has already joined a room")
        room = self.rooms.room(msg.room)
        seat = self.rooms.attach(room, msg.token, msg.spectate)
        conn.room, conn.seat, conn.joined = room, seat, True
        if seat is not None:
            key = (room.code, seat.index)
            older = self.by_seat.get(key)
            if older is not None and older is not conn:
                older.close(4001)
            self.by_seat[key] = conn
        # welcome, missed events and the subscription with no await in between: no event is
        # lost or doubled
        missed = self.hub.since(room.code, msg.last_seq) if msg.last_seq is not None else None
        conn.send_json(
            {
                "type": "welcome",
                "seat": None if seat is None else seat.index,
                "token_ok": seat is not None,
                "seq": self.hub.last_seq(room.code),
                "server_time": self.clock.now_ms(),
                "resumed": missed is not None,
                "room": self.rooms.snapshot(room),
            }
        )
        if missed:
            for ev in missed:
                conn.send(ev.text)
        conn.subscription = self.hub.subscribe(room.code, conn.on_event)

    def _drop_seat(self, conn: Connection) -> None:
        if conn.room is not None and conn.seat is not None:
            key = (conn.room.code, conn.seat.index)
            if self.by_seat.get(key) is conn:
                del self.by_seat[key]
        conn.seat = None

    def disconnected(self, conn: Connection) -> None:
        if conn.subscription is not None:
            conn.subscription.close()
        if conn.room is not None and conn.joined:
            seat = conn.seat
            self._drop_seat(conn)
            self.rooms.detach(conn.room, seat)


def create_app(
    database_url: str | None = None,
    config: ServerConfig | None = None,
    storage: Storage | None = None,
    web_dist: Path | None = None,
    redis_url: str | None = None,
) -> FastAPI:
    """The app; storage is opened and migrated when it starts (``lifespan``). With
    ``redis_url``, this process shares rooms with the others on the same Redis
    (:mod:`.cluster`)."""
    config = config or ServerConfig()
    dist = web_dist or WEB_DIST
    state: dict[str, Server] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = storage or Storage(database_url)
        await asyncio.to_thread(store.migrate)
        cluster = None
        if redis_url:
            from .cluster import Cluster, ClusterHub

            server = Server(store, config, ClusterHub())
            cluster = server.cluster = Cluster(server, redis_url)
            await cluster.start()
            saved = None
        else:
            # one process: its open rooms are saved in the database and outlive a restart
            saved = SavedRoomsHub(store)
            server = Server(store, config, saved)
            await saved.reopen(server.rooms)
        state["server"] = server
        # everything loaded so far (code, decks) lives as long as the process: keep it out of
        # the collector's walks, and collect less often (games make many short-lived objects)
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 50)

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(60)
                server.rooms.sweep()

        task = asyncio.create_task(sweeper())
        log.info("ubongo server ready; database %s", _safe_url(store.url))
        try:
            yield
        finally:
            task.cancel()
            if cluster is not None:
                await cluster.stop()
            if saved is not None:
                await saved.stop()
            store.close()

    app = FastAPI(title="Ubongo", version=__version__, lifespan=lifespan)

    def server() -> Server:
        return state["server"]

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, e: ProtocolError) -> Response:
        return _error(HTTP_STATUS.get(e.code, 422), e)

    @app.exception_handler(ValidationError)
    async def validation_error(_request: Request, e: ValidationError) -> Response:
        return _error(422, ProtocolError("bad_message", str(e.errors()[0]["msg"])))

    if redis_url:
        from redis.exceptions import ConnectionError as RedisDown
        from redis.exceptions import TimeoutError as RedisSlow

        async def redis_away(_request: Request, e: Exception) -> Response:
            # the rooms this process runs go on; what needs Redis waits until it is back
            log.warning("Redis is unreachable: %s", e)
            return _error(503, ProtocolError("unavailable", "rooms are unreachable; try again"))

        app.add_exception_handler(RedisDown, redis_away)
        app.add_exception_handler(RedisSlow, redis_away)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        srv = server()
        health = {"ok": True, "server_time": srv.clock.now_ms(), "version": __version__}
        if srv.cluster is not None:
            # a load balancer may keep sending players here: rooms on this process still run
            health["redis"] = srv.cluster.listening
        return health

    @app.get("/api/editions")
    async def editions() -> list[str]:
        return list(edition_data.names())

    @app.get("/api/editions/{name}")
    async def edition_catalogue(name: str) -> Any:
        if name not in edition_data.names():
            raise ProtocolError("no_edition", f"no edition {name!r}")
        return catalogue.edition_catalogue(name)

    @app.get("/api/options")
    async def get_options() -> dict[str, Any]:
        return options()

    @app.post("/api/rooms", status_code=201)
    async def create_room(body: p.CreateRoom) -> dict[str, Any]:
        cluster = server().cluster
        if cluster is not None:
            code = await cluster.reserve_code()
            try:
                room, seat = server().rooms.create_room(body.name, body.settings, code)
            except Exception:
                await cluster.release_code(code)
                raise
            return {
                "code": room.code,
                "seat": seat.index,
                "token": seat.token,
                "invite": room.invite,
            }
        room, seat = server().rooms.create_room(body.name, body.settings)
        return {"code": room.code, "seat": seat.index, "token": seat.token, "invite": room.invite}

    @app.get("/api/rooms/{code}")
    async def get_room(code: str) -> dict[str, Any]:
        cluster = server().cluster
        if cluster is not None:
            return await cluster.request("snapshot", code)
        rooms = server().rooms
        return rooms.snapshot(rooms.room(code))

    @app.post("/api/rooms/{code}/seats", status_code=201)
    async def take_seat(code: str, body: p.TakeSeat) -> dict[str, Any]:
        cluster = server().cluster
        if cluster is not None:
            return await cluster.request("take_seat", code, name=body.name)
        room, seat = server().rooms.take_seat(code, body.name)
        return {"code": room.code, "seat": seat.index, "token": seat.token, "invite": room.invite}

    @app.get("/api/games")
    async def games(limit: int = 20) -> list[dict[str, Any]]:
        store = server().storage
        assert store is not None
        return await asyncio.to_thread(store.games, max(1, min(limit, 100)))

    @app.get("/api/games/{game_id}")
    async def game(game_id: int) -> dict[str, Any]:
        store = server().storage
        assert store is not None
        found = await asyncio.to_thread(store.game, game_id)
        if found is None:
            raise ProtocolError("no_game", f"no game {game_id}")
        return found

    @app.get("/api/leaderboard")
    async def leaderboard(
        edition: str | None = None,
        goal: str = "time",
        amount: int = 5,
        side: str | None = None,
        limit: int = 20,
    ) -> list[dict[str, Any]]:
        store = server().storage
        assert store is not None
        # the first edition by default; an unknown one simply has no records
        name = edition if edition is not None else edition_data.names()[0]
        if side is None:
            side = edition_data.record(name).default_side if name in edition_data.names() else ""
        return await asyncio.to_thread(
            store.leaderboard, name, goal, amount, side, max(1, min(limit, 100))
        )

    @app.get("/api/records")
    async def records(name: str) -> list[dict[str, Any]]:
        store = server().storage
        assert store is not None
        return await asyncio.to_thread(store.personal_bests, name)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        srv = server()
        conn = Connection(ws, srv.clock)
        srv.connections.add(conn)
        cluster = srv.cluster

        async def writer() -> None:
            while True:
                text = await conn.queue.get()
                if text is None:
                    break
                await ws.send_text(text)
            with contextlib.suppress(Exception):
                await ws.close(conn.closing or 1000)

        writer_task = asyncio.create_task(writer())
        try:
            while conn.closing is None:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                received_at = srv.clock.now()
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if cluster is None:
                    srv.handle(conn, raw, received_at)
                else:
                    await cluster.on_message(conn, raw, received_at)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception:  # the server never goes down because of one connection
            log.exception("websocket handler failed")
        finally:
            srv.connections.discard(conn)
            if cluster is not None:
                cluster.on_disconnect(conn)
            srv.disconnected(conn)
            conn.close(conn.closing or 1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer_task, 2.0)
            writer_task.cancel()
            if ws.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await ws.close()

    @app.websocket("/ws/echo")
    async def echo(ws: WebSocket) -> None:
        """Sends every text frame back: the baseline bench/server.py measures against, and a
        quick check that WebSockets get through a proxy."""
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await ws.receive_text()
                await ws.send_text(text[: p.MAX_MESSAGE_BYTES])

    # --- the web client ----------------------------------------------------------------------

    @app.get("/{path:path}", include_in_schema=False)
    async def web(path: str) -> Response:
        if path.startswith("api/"):
            return _error(404, ProtocolError("not_found", f"no route /{path}"))
        index = dist / "index.html"
        if not index.is_file():
            return HTMLResponse(NO_CLIENT_PAGE)
        if path:
            target = (dist / path).resolve()
            if target.is_file() and dist.resolve() in target.parents:
                return FileResponse(target)
        return FileResponse(index)  # the client routes /room/CODE and the like itself

    return app


def _safe_url(url: str) -> str:
    """A database URL without its password, for logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        user = creds.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
