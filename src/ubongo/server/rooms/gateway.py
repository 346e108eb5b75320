"""A connection's messages to the rooms this process runs: parsed, checked and handled.

:class:`Gateway` is the WebSocket protocol's side of :class:`~.runner.Rooms`: it joins a
connection to a room (``hello``: the welcome, the missed events, the subscription), hands each
client message to its handler in :data:`HANDLERS`, and turns every refusal into an ``error``
message. The same code answers the connections of this process and, on a room's owner, those
of other processes (:mod:`..cluster`).

Every client message type (:data:`~..protocol.incoming.ClientMessage`) has exactly one
handler, of one of two kinds: :class:`OnConnection` for what a connection may send before it
has joined a room (``ping``, ``hello``), :class:`InRoom` for a command in the room it joined
(refused with ``not_joined`` before that). A new message type is its model, one entry in
:data:`HANDLERS`, and the web client's side.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import structlog

from ubongo import rules
from ubongo.board import COVERED, Placement, Verdict

from ..config import ServerConfig
from ..online.tasks_in_play import LocalTasksInPlay, TasksInPlay
from ..online.traces import Step
from ..ops.clock import Clock
from ..ops.metrics import Metrics
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from ..store import Store
from .bus import RoomHub
from .chat import RoomChat
from .connection import MAX_REFUSED, Connection
from .limits import AddressLimits
from .live import live_rooms, open_rooms
from .room import Room, Seat
from .runner import Rooms

log = logging.getLogger("ubongo.server")

if TYPE_CHECKING:
    from fastapi import WebSocket

M = TypeVar("M", bound=p.Strict)


class Gateway:
    """Owns the rooms of this process (:class:`~.runner.Rooms` over ``hub``) and the
    connections to them: every open WebSocket here, and which one holds each seat."""

    def __init__(
        self,
        storage: Store | None,
        config: ServerConfig,
        hub: RoomHub[Room],
        clock: Clock | None = None,
        metrics: Metrics | None = None,
        tasks: TasksInPlay | None = None,
    ) -> None:
        self.clock = clock or Clock()
        self.storage = storage
        #: store writes running off the event loop (kept, so that they are not collected)
        self._writes: set[asyncio.Future[object]] = set()
        self.hub = hub
        self.config = config
        #: the tasks dealt here that the hint route refuses (docs/fair-play.md)
        self.tasks: TasksInPlay = tasks or LocalTasksInPlay(self.clock)
        self.rooms = Rooms(hub, storage, self.clock, config, self.tasks)
        self.by_seat: dict[tuple[str, int], Connection] = {}
        #: the WebSockets open on this process
        self.connections: set[Connection] = set()
        #: what each client address may do on this process
        self.limits = AddressLimits(config, self.clock)
        self.metrics = metrics or Metrics()
        wait = self.metrics.card_wait_seconds  # (rounds that waited for the card worker)
        self.rooms.game.cards.on_wait = lambda first, s: wait.labels(
            round="first" if first else "later"
        ).observe(s)
        #: the rooms' chat (docs/social.md): who hears a spectator, the games' lines kept
        self.chat = RoomChat(self.rooms.feed, self.keep)
        self._watch(self.metrics)

    def _watch(self, m: Metrics) -> None:
        """The gauges of /metrics, read from what owns them when scraped."""
        m.gauge(
            "ubongo_connections",
            "WebSockets open on this process",
            lambda: {"": float(len(self.connections))},
        )
        m.gauge(
            "ubongo_queued_messages",
            "messages waiting to be sent to clients of this process",
            lambda: {"": float(sum(c.queue.qsize() for c in self.connections))},
        )
        m.gauge(
            "ubongo_rooms", "rooms run by this process, by phase", self._rooms_by_phase, "phase"
        )

    def _rooms_by_phase(self) -> dict[str, float]:
        counts = {"lobby": 0.0, "playing": 0.0, "over": 0.0}
        for room in self.running():
            counts[room.phase] = counts.get(room.phase, 0.0) + 1
        return counts

    def keep(self, write: Callable[[Store], object]) -> None:
        """Run a write of the store off the event loop (a report, a line of chat); a failure
        is logged, never raised into the room (no store: nothing kept)."""
        storage = self.storage
        if storage is None:
            return
        done = asyncio.get_running_loop().run_in_executor(None, write, storage)
        self._writes.add(done)

        def finished(f: asyncio.Future[object]) -> None:
            self._writes.discard(f)
            if not f.cancelled() and f.exception() is not None:
                log.error("a write was not stored: %s", f.exception())

        done.add_done_callback(finished)

    def running(self) -> list[Room]:
        """The rooms this process runs."""
        return [r for c in list(self.hub.codes()) if (r := self.hub.get(c)) is not None]

    def live(self) -> list[dict[str, Any]]:
        """The live games anybody may watch (:mod:`.live`) among the rooms this process runs."""
        return live_rooms(self.running(), self.config, self.clock.ms)

    def open_games(self) -> list[dict[str, Any]]:
        """The open games anybody may join (:mod:`.live`) among the rooms this process runs."""
        return open_rooms(self.running())

    def connections_in(self, code: str) -> list[Connection]:
        """The connections of this process joined to room ``code``."""
        return [c for c in self.connections if c.room is not None and c.room.code == code]

    # --- a connection's life ---------------------------------------------------------------

    def connect(self, ws: WebSocket | None, address: str = "") -> Connection:
        """A new WebSocket of this process, from client ``address``."""
        config = self.config
        conn = Connection(
            ws, self.clock, address, config.max_queued_messages, config.messages_per_second
        )
        self.connections.add(conn)
        return conn

    def handle(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from a client; every refusal becomes an error message. Log lines while
        it is handled name the connection's room and account."""
        with structlog.contextvars.bound_contextvars(
            room=conn.room.code if conn.room is not None else None,
            account=conn.seat.account if conn.seat is not None else None,
        ):
            self._handle(conn, raw, received_at)

    def _handle(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        kind: str | None = None
        try:
            self._take_turn(conn, received_at)
            msg = p.parse_client_message(raw)
            kind = msg.type
            self.metrics.messages_in.labels(type=kind).inc()
            HANDLERS[type(msg)].handle(self, conn, msg, received_at)
        except ProtocolError as e:
            if e.ref is None:
                e.ref = kind
            self.metrics.errors.labels(code=e.code).inc()
            conn.send_json(e.to_json())
        except rules.RuleError as e:
            self.metrics.errors.labels(code=e.code).inc()
            conn.send_json(ProtocolError(e.code, str(e), kind).to_json())

    @staticmethod
    def _take_turn(conn: Connection, received_at: float) -> None:
        """Spend one of the connection's messages a second (``rate_limited`` when it has none
        left; closed once it has been refused too often)."""
        if conn.bucket.allow(received_at):
            return
        if conn.bucket.refused >= MAX_REFUSED:
            conn.close(4008)
        rate = conn.bucket.rate
        raise ProtocolError("rate_limited", f"more than {rate:g} messages a second")

    def sender(self, conn: Connection, received_at: float) -> Sender:
        """Who sent an in-room message: ``not_joined`` before a ``hello``, ``bad_token`` if
        the seat has been given to somebody else since."""
        if not conn.joined or conn.room is None:
            raise ProtocolError("not_joined", "send hello first")
        room, seat = conn.room, conn.seat
        if seat is not None and room.seats[seat.index] is not seat:
            raise ProtocolError("bad_token", "this seat is no longer yours")
        return Sender(conn, room, seat, received_at)

    def lookup(self, conn: Connection, name: str) -> Room:
        """The room a client of this process names, under the failed-lookup limit of its
        address (``rate_limited`` once it has guessed too often)."""
        if not conn.address:  # another process's client: its own process limits its lookups
            return self.rooms.lobby.find(name)
        return self.limits.found(conn.address, lambda: self.rooms.lobby.find(name))

    def join(self, conn: Connection, hello: p.Hello) -> None:
        """``hello``: ``conn`` takes its seat in the room it names (or watches it); the
        welcome follows once the room is saved."""
        if conn.joined:
            raise ProtocolError("already_joined", "this connection has already joined a room")
        room = self.lookup(conn, hello.room)
        seat = self.rooms.lobby.attach(room, hello.token, hello.spectate)
        conn.room, conn.seat, conn.joined = room, seat, True
        self.chat.joined(room, conn)
        if seat is not None:
            key = (room.code, seat.index)
            older = self.by_seat.get(key)
            if older is not None and older is not conn:
                older.close(4001)
            self.by_seat[key] = conn
        # after what the room holds until it is saved (store, then answer), so that the
        # welcome's snapshot is the room as of its seq
        self.hub.then(room.code, lambda: self._welcome(conn, room, seat, hello.last_seq))

    def _welcome(self, conn: Connection, room: Room, seat: Seat | None, last: int | None) -> None:
        if not conn.joined or conn.closing is not None or conn.room is not room:
            return  # gone (or closed) while the room was being saved
        # welcome, missed events and the subscription with no await in between: no event is
        # lost or doubled
        missed = self.hub.since(room.code, last) if last is not None else None
        conn.send_json(
            {
                "type": "welcome",
                "seat": None if seat is None else seat.index,
                "token_ok": seat is not None,
                "seq": self.hub.last_seq(room.code),
                "server_time": self.clock.now_ms(),
                "resumed": missed is not None,
                "room": self.rooms.feed.snapshot(room, checked=True),
            }
        )
        if missed:
            for ev in missed:
                conn.send(ev.text)
        conn.subscription = self.hub.subscribe(room.code, conn.on_event)

    def leave(self, conn: Connection) -> None:
        """``conn`` no longer holds its seat (it left the room; it hears the room still)."""
        if conn.room is not None and conn.seat is not None:
            key = (conn.room.code, conn.seat.index)
            if self.by_seat.get(key) is conn:
                del self.by_seat[key]
        conn.seat = None

    def kicked(self, room: Room, index: int) -> None:
        """The person in seat ``index`` was removed from the lobby: their connection is closed
        (code 4003; its token no longer holds a seat, so reconnecting says ``bad_token``)."""
        removed = self.by_seat.pop((room.code, index), None)
        if removed is not None:
            if removed.subscription is not None:
                removed.subscription.close()
            # not in the room any more: its end frees nothing and counts no spectator
            self.chat.left(room, removed)
            removed.joined, removed.seat, removed.room = False, None, None
            removed.close(4003)

    def disconnected(self, conn: Connection) -> None:
        """``conn`` has closed: it hears nothing more, and its seat's hold starts."""
        self.connections.discard(conn)
        if conn.subscription is not None:
            conn.subscription.close()
        if conn.room is not None and conn.joined:
            self.chat.left(conn.room, conn)
            seat = conn.seat
            self.leave(conn)
            conn.joined = False  # (a welcome still waiting for a save is not sent)
            self.rooms.lobby.detach(conn.room, seat)


# --- the handlers: one per client message type ----------------------------------------------


@dataclass(frozen=True)
class Sender:
    """Who sent a message in a room: the connection, its room, its seat (``None``: a
    spectator) and when the message was received (server time)."""

    conn: Connection
    room: Room
    seat: Seat | None
    at: float


class Handler(Protocol):
    """What the gateway does with one type of client message."""

    def handle(self, gateway: Gateway, conn: Connection, msg: Any, received_at: float) -> None:
        """Act on ``msg`` from ``conn``; refusals raise :class:`ProtocolError` or
        :class:`~ubongo.rules.RuleError`."""


@dataclass(frozen=True)
class OnConnection(Generic[M]):
    """A message any connection may send, joined to a room or not (``ping``, ``hello``)."""

    run: Callable[[Gateway, Connection, M, float], None]

    def handle(self, gateway: Gateway, conn: Connection, msg: M, received_at: float) -> None:
        self.run(gateway, conn, msg, received_at)


@dataclass(frozen=True)
class InRoom(Generic[M]):
    """A command in the room the connection has joined (refused before its ``hello``)."""

    run: Callable[[Gateway, Sender, M], None]

    def handle(self, gateway: Gateway, conn: Connection, msg: M, received_at: float) -> None:
        self.run(gateway, gateway.sender(conn, received_at), msg)


#: a message type and its handler, as the table lists them
Entry = tuple[type[p.Strict], Handler]


def on_connection(kind: type[M], run: Callable[[Gateway, Connection, M, float], None]) -> Entry:
    """The table's entry of ``kind``, a message any connection may send."""
    return kind, OnConnection(run)


def in_room(kind: type[M], run: Callable[[Gateway, Sender, M], None]) -> Entry:
    """The table's entry of ``kind``, a command in the sender's room."""
    return kind, InRoom(run)


def handler_table(entries: Iterable[Entry]) -> dict[type[p.Strict], Handler]:
    """The entries as a table, each message type at most once."""
    table: dict[type[p.Strict], Handler] = {}
    for kind, handler in entries:
        if kind in table:
            raise ValueError(f"two handlers for {kind.__name__}")
        table[kind] = handler
    return table


def _pong(gateway: Gateway, conn: Connection, msg: p.Ping, received_at: float) -> None:
    conn.send_json(
        {"type": "pong", "id": msg.id, "t": msg.t, "server_time": gateway.clock.ms(received_at)}
    )


def _hello(gateway: Gateway, conn: Connection, msg: p.Hello, _received_at: float) -> None:
    gateway.join(conn, msg)


def _submit(gateway: Gateway, by: Sender, msg: p.Submit) -> None:
    """An "Ubongo!": the sender hears its verdict before the events it causes."""

    def verdict(v: Verdict, code: str | None = None) -> None:
        # an accepted one is sent once the room is stored: what a player waits for
        gateway.metrics.verdict_seconds.observe(max(0.0, gateway.clock.now() - by.at))
        by.conn.send_json(
            {
                "type": "verdict",
                "round": msg.round,
                "ok": v.ok,
                "code": code or v.code,
                "reason": v.reason,
                "received_at": gateway.clock.ms(by.at),
            }
        )

    def accepted() -> None:
        verdict(COVERED)

    game = gateway.rooms.game
    placements = _placements(msg.placements)
    trace = None if msg.trace is None else [_step(s) for s in msg.trace]
    try:
        wrong = game.submit(
            by.room, by.seat, msg.round, placements, by.at, on_accept=accepted, trace=trace
        )
    except rules.RuleError as e:  # too late, already finished: no finish
        verdict(Verdict(False, e.code, str(e)))
        return
    if wrong is not None:
        verdict(wrong)


def _hint(gateway: Gateway, by: Sender, msg: p.Hint) -> None:
    placements = _placements(msg.placements)
    gateway.rooms.game.hint(by.room, by.seat, msg.round, placements, by.at, by.conn.send_json)


def _leave(gateway: Gateway, by: Sender, _msg: p.Leave) -> None:
    gateway.rooms.lobby.leave(by.room, by.seat)
    gateway.leave(by.conn)


def _kick(gateway: Gateway, by: Sender, msg: p.Kick) -> None:
    """The host removes a person from the lobby, and their connection with them."""
    gateway.rooms.lobby.kick(by.room, by.seat, msg.seat)
    gateway.kicked(by.room, msg.seat)


def _step(step: p.TraceStep) -> Step:
    offset = None if step.offset is None else tuple(step.offset)
    return Step(round(step.t, 3), step.op, step.piece, step.transform, offset)


def _placements(placed: Iterable[p.Placement]) -> list[Placement]:
    return [Placement(pl.piece, pl.transform, tuple(pl.offset)) for pl in placed]


#: every client message type and its handler
HANDLERS: dict[type[p.Strict], Handler] = handler_table(
    [
        on_connection(p.Ping, _pong),
        on_connection(p.Hello, _hello),
        in_room(
            p.ChangeSettings,
            lambda g, by, m: g.rooms.lobby.change_settings(by.room, by.seat, m.settings),
        ),
        in_room(p.ChooseSide, lambda g, by, m: g.rooms.lobby.choose_side(by.room, by.seat, m.side)),
        in_room(p.AddBot, lambda g, by, m: g.rooms.lobby.add_bot(by.room, by.seat, m.level)),
        in_room(p.RemoveBot, lambda g, by, m: g.rooms.lobby.remove_bot(by.room, by.seat, m.seat)),
        in_room(
            p.BotLevel, lambda g, by, m: g.rooms.lobby.bot_level(by.room, by.seat, m.seat, m.level)
        ),
        in_room(p.Ready, lambda g, by, m: g.rooms.lobby.set_ready(by.room, by.seat, m.ready)),
        in_room(p.Lock, lambda g, by, m: g.rooms.lobby.lock(by.room, by.seat, m.locked)),
        in_room(p.Kick, _kick),
        in_room(p.Say, lambda g, by, m: g.chat.say(by.room, by.conn, by.seat, m, by.at)),
        in_room(p.Report, lambda g, by, m: g.chat.report(by.room, by.seat, m, by.at)),
        in_room(p.Leave, _leave),
        in_room(p.Rematch, lambda g, by, _m: g.rooms.lobby.rematch(by.room, by.seat)),
        in_room(p.Start, lambda g, by, _m: g.rooms.game.start(by.room, by.seat)),
        in_room(p.Submit, _submit),
        in_room(p.Hint, _hint),
        in_room(p.Skip, lambda g, by, m: g.rooms.game.skip(by.room, by.seat, m.round, by.at)),
        in_room(p.Stop, lambda g, by, m: g.rooms.game.stop(by.room, by.seat, m.round, by.at)),
        in_room(p.GiveUp, lambda g, by, m: g.rooms.game.give_up(by.room, by.seat, m.round, by.at)),
    ]
)


def seat_json(room: Room, seat: Seat, named: str | None = None) -> dict[str, Any]:
    """The answer to creating a room or taking a seat: where, which seat, and its token.

    ``code`` is the room as the client named it (``named``: its short code, or the invite
    key it was given), upper-cased: what it uses again, in ``hello`` and its addresses."""
    code = room.code if named is None else named.upper()
    return {"code": code, "seat": seat.index, "token": seat.token, "invite": room.invite}
