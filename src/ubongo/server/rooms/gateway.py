"""A connection's messages to the rooms this process runs: parsed, checked and handled.

:class:`Gateway` is the WebSocket protocol's side of :class:`~.runner.Rooms`: it joins a
connection to a room (``hello``: the welcome, the missed events, the subscription), turns each
client message into a room command, and every refusal into an ``error`` message. The same
code answers the connections of this process and, on a room's owner, those of other processes
(:mod:`..cluster`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog

from ubongo import rules
from ubongo.board import COVERED, Placement, Verdict

from ..config import ServerConfig
from ..ops.clock import Clock
from ..ops.metrics import Metrics
from ..ops.ratelimit import AddressCount, AddressLimit
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from ..store import Store
from .bus import RoomHub
from .connection import MAX_REFUSED, Connection
from .room import Room, Seat
from .runner import Rooms

#: a room command, given the room, the sender's seat (``None``: a spectator), the message and
#: the time it was received
Command = Callable[[Rooms, Room, Seat | None, Any, float], None]

#: the client messages that are plain room commands (``hello``, ``ping``, ``submit``,
#: ``hint`` and ``leave`` are handled by :class:`Gateway` itself)
COMMANDS: dict[type[p.Strict], Command] = {
    p.ChangeSettings: lambda rooms, room, seat, m, _t: rooms.lobby.change_settings(
        room, seat, m.settings
    ),
    p.ChooseSide: lambda rooms, room, seat, m, _t: rooms.lobby.choose_side(room, seat, m.side),
    p.AddBot: lambda rooms, room, seat, m, _t: rooms.lobby.add_bot(room, seat, m.level),
    p.RemoveBot: lambda rooms, room, seat, m, _t: rooms.lobby.remove_bot(room, seat, m.seat),
    p.BotLevel: lambda rooms, room, seat, m, _t: rooms.lobby.bot_level(room, seat, m.seat, m.level),
    p.Ready: lambda rooms, room, seat, m, _t: rooms.lobby.set_ready(room, seat, m.ready),
    p.Start: lambda rooms, room, seat, _m, _t: rooms.game.start(room, seat),
    p.Skip: lambda rooms, room, seat, m, now: rooms.game.skip(room, seat, m.round, now),
    p.Stop: lambda rooms, room, seat, m, now: rooms.game.stop(room, seat, m.round, now),
    p.GiveUp: lambda rooms, room, seat, m, now: rooms.game.give_up(room, seat, m.round, now),
    p.Rematch: lambda rooms, room, seat, _m, _t: rooms.lobby.rematch(room, seat),
    p.Lock: lambda rooms, room, seat, m, _t: rooms.lobby.lock(room, seat, m.locked),
}


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
    ) -> None:
        self.clock = clock or Clock()
        self.storage = storage
        self.hub = hub
        self.config = config
        self.rooms = Rooms(hub, storage, self.clock, config)
        self.by_seat: dict[tuple[str, int], Connection] = {}
        #: the WebSockets open on this process
        self.connections: set[Connection] = set()
        # what each client address may do on this process (docs/server.md, "Rooms and limits")
        self.room_creations = AddressLimit(
            "rooms created", config.rooms_per_minute / 60, config.rooms_per_minute
        )
        self.failed_lookups = AddressLimit(
            "failed room lookups",
            config.failed_lookups_per_hour / 3600,
            config.failed_lookup_burst,
        )
        self.sockets = AddressCount(config.connections_per_address)
        self.metrics = metrics or Metrics()
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
        for code in list(self.hub.codes()):
            room = self.hub.get(code)
            if room is not None:
                counts[room.phase] = counts.get(room.phase, 0.0) + 1
        return counts

    def connections_in(self, code: str) -> list[Connection]:
        """The connections of this process joined to room ``code``."""
        return [c for c in self.connections if c.room is not None and c.room.code == code]

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
            if not conn.bucket.allow(received_at):
                if conn.bucket.refused >= MAX_REFUSED:
                    conn.close(4008)
                rate = conn.bucket.rate
                raise ProtocolError("rate_limited", f"more than {rate:g} messages a second")
            msg = p.parse_client_message(raw)
            kind = msg.type
            self.metrics.messages_in.labels(type=kind).inc()
            self._dispatch(conn, msg, received_at)
        except ProtocolError as e:
            if e.ref is None:
                e.ref = kind
            self.metrics.errors.labels(code=e.code).inc()
            conn.send_json(e.to_json())
        except rules.RuleError as e:
            self.metrics.errors.labels(code=e.code).inc()
            conn.send_json(ProtocolError(e.code, str(e), kind).to_json())

    def _dispatch(self, conn: Connection, msg: p.ClientMessage, now: float) -> None:
        if isinstance(msg, p.Ping):
            conn.send_json(
                {"type": "pong", "id": msg.id, "t": msg.t, "server_time": self.clock.ms(now)}
            )
            return
        if isinstance(msg, p.Hello):
            self._hello(conn, msg)
            return
        if not conn.joined or conn.room is None:
            raise ProtocolError("not_joined", "send hello first")
        room, seat = conn.room, conn.seat
        if seat is not None and room.seats[seat.index] is not seat:
            raise ProtocolError("bad_token", "this seat is no longer yours")
        if isinstance(msg, p.Submit):
            self._submit(conn, room, seat, msg, now)
        elif isinstance(msg, p.Hint):
            placements = [
                Placement(pl.piece, pl.transform, tuple(pl.offset)) for pl in msg.placements
            ]
            self.rooms.game.hint(room, seat, msg.round, placements, now, conn.send_json)
        elif isinstance(msg, p.Leave):
            self.rooms.lobby.leave(room, seat)
            self._drop_seat(conn)
        elif isinstance(msg, p.Kick):
            self._kick(room, seat, msg.seat)
        else:
            COMMANDS[type(msg)](self.rooms, room, seat, msg, now)

    def _submit(
        self, conn: Connection, room: Room, seat: Seat | None, msg: p.Submit, now: float
    ) -> None:
        """An "Ubongo!": the sender hears its verdict before the events it causes."""
        placements = [Placement(pl.piece, pl.transform, tuple(pl.offset)) for pl in msg.placements]

        def verdict(v: Verdict, code: str | None = None) -> None:
            # an accepted one is sent once the room is stored: what a player waits for
            self.metrics.verdict_seconds.observe(max(0.0, self.clock.now() - now))
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
            wrong = self.rooms.game.submit(
                room, seat, msg.round, placements, now, on_accept=lambda: verdict(COVERED)
            )
        except rules.RuleError as e:  # too late, already finished: no finish
            verdict(Verdict(False, e.code, str(e)))
            return
        if wrong is not None:
            verdict(wrong)

    def _kick(self, room: Room, seat: Seat | None, index: int) -> None:
        """The host removes a person from the lobby: their connection is closed (code 4003;
        its token no longer holds a seat, so reconnecting says ``bad_token``)."""
        self.rooms.lobby.kick(room, seat, index)
        removed = self.by_seat.pop((room.code, index), None)
        if removed is not None:
            if removed.subscription is not None:
                removed.subscription.close()
            # not in the room any more: its end frees nothing and counts no spectator
            removed.joined, removed.seat, removed.room = False, None, None
            removed.close(4003)

    def lookup(self, conn: Connection, name: str) -> Room:
        """The room a client of this process names, under the failed-lookup limit of its
        address (``rate_limited`` once it has guessed too often)."""
        if not conn.address:  # another process's client: its own process limits its lookups
            return self.rooms.lobby.find(name)
        now = self.clock.now()
        self.failed_lookups.check(conn.address, now)
        try:
            return self.rooms.lobby.find(name)
        except ProtocolError:
            self.failed_lookups.take(conn.address, now)
            raise

    def _hello(self, conn: Connection, msg: p.Hello) -> None:
        if conn.joined:
            raise ProtocolError("already_joined", "this connection has already joined a room")
        room = self.lookup(conn, msg.room)
        seat = self.rooms.lobby.attach(room, msg.token, msg.spectate)
        conn.room, conn.seat, conn.joined = room, seat, True
        if seat is not None:
            key = (room.code, seat.index)
            older = self.by_seat.get(key)
            if older is not None and older is not conn:
                older.close(4001)
            self.by_seat[key] = conn
        # after what the room holds until it is saved (store, then answer), so that the
        # welcome's snapshot is the room as of its seq
        self.hub.then(room.code, lambda: self._welcome(conn, room, seat, msg.last_seq))

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
                "room": self.rooms.feed.snapshot(room),
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
        """``conn`` has closed: it hears nothing more, and its seat's hold starts."""
        if conn.subscription is not None:
            conn.subscription.close()
        if conn.room is not None and conn.joined:
            seat = conn.seat
            self._drop_seat(conn)
            conn.joined = False  # (a welcome still waiting for a save is not sent)
            self.rooms.lobby.detach(conn.room, seat)


def seat_json(room: Room, seat: Seat, named: str | None = None) -> dict[str, Any]:
    """The answer to creating a room or taking a seat: where, which seat, and its token.

    ``code`` is the room as the client named it (``named``: its short code, or the invite
    key it was given), upper-cased: what it uses again, in ``hello`` and its addresses."""
    code = room.code if named is None else named.upper()
    return {"code": code, "seat": seat.index, "token": seat.token, "invite": room.invite}
