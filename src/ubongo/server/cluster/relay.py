"""Connections and HTTP requests across processes: a client on one process, its room on
another (the design is in :mod:`ubongo.server.cluster`).

A connection here whose room another process owns is *bound* to it: its frames are forwarded
to the owner, the owner's answers come back on this process's channel and the room's events on
the room's channel. On the owner, each such connection is a :class:`RemoteConnection` that the
room code treats like any other.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable
from typing import Any, Protocol, cast

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub

from ..ops import strong_random
from ..protocol import incoming as p
from ..protocol.incoming import ProtocolError
from ..rooms.bus import Event, RoomHub
from ..rooms.connection import Binding, Connection
from ..rooms.gateway import Gateway, seat_json
from ..rooms.room import Room, room_code
from .keys import node_channel, owner_key, room_channel
from .wire import Command, Queued, Write, command

log = logging.getLogger("ubongo.server.cluster")

#: how long an HTTP request waits for the owner's answer before trying again
REQUEST_SECONDS = 5.0


class ClusterNode(Protocol):
    """What the relay needs of this process's part in the cluster (:class:`~.node.Node`):
    its id, its rooms and Redis connections, its writer, and who owns a room."""

    @property
    def node(self) -> str:
        """This process's node id."""
        ...

    @property
    def gateway(self) -> Gateway:
        """The rooms this process runs, and its connections."""
        ...

    @property
    def hub(self) -> RoomHub[Room]:
        """The rooms this process owns."""
        ...

    @property
    def redis(self) -> aioredis.Redis:
        """This process's Redis connection (its pool)."""
        ...

    @property
    def pubsub(self) -> PubSub:
        """The connection this process listens on (its channel, the rooms it watches)."""
        ...

    def enqueue(self, item: Queued) -> None:
        """Queue one write; they reach Redis in the order queued."""
        ...

    def send(self, node: str, text: str) -> None:
        """Queue a command to process ``node`` that nobody waits for."""
        ...

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in the background."""
        ...

    async def alive(self, node: str) -> bool:
        """Whether process ``node`` listens on its channel."""
        ...

    async def locate(self, code: str) -> str | None:
        """The node that runs room ``code`` (taking it over if its owner is gone), or
        ``None`` if there is no such room."""
        ...


class RemoteConnection(Connection):
    """On the owner: a client connected to process ``node`` (its connection ``conn_id``).

    What the room's code sends it goes back on that process's channel; room events do not
    (that process hears them on the room's channel)."""

    def __init__(self, owner: ClusterNode, node: str, conn_id: int) -> None:
        super().__init__(None, owner.gateway.clock)
        self.owner = owner
        self.node = node
        self.remote_id = conn_id

    def send(self, text: str) -> None:
        self.owner.send(self.node, command(Command.REPLY, self.remote_id, text))

    def on_event(self, event: Event) -> None:
        pass

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self.owner.send(self.node, command(Command.CLOSE, self.remote_id, code))


class Relay:
    """Owns, for this process: its connections bound to rooms elsewhere (by connection id and
    by room watched), the stand-ins of other processes' connections to its rooms, the messages
    held for a room whose owner died, and the HTTP requests waiting for an owner's answer."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node
        self.gateway = node.gateway
        #: on the owner: (node, connection id) -> the stand-in of a connection there
        self.proxies: dict[tuple[str, int], Connection] = {}
        #: connections here bound to rooms elsewhere, by id
        self.bound: dict[int, Connection] = {}
        #: by room code, the connections here bound to it
        self.watched: dict[str, set[Connection]] = {}
        #: room channels subscribed to, done when Redis confirmed the subscription
        self.subscribed: dict[str, asyncio.Future[None]] = {}
        self.requests: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.recovering: set[str] = set()
        #: per room, the messages (connection id, text) its dead owner did not receive
        self.held: dict[str, list[tuple[int, str]]] = {}

    # --- a connection of this process ------------------------------------------------------------

    async def on_message(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from a client of this process."""
        if conn.bound is not None:
            binding: Binding = conn.bound
            text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            self._forward(
                binding.owner, binding.code, command(Command.MESSAGE, self.node.node, conn.id, text)
            )
            return
        if conn.joined:
            self.gateway.handle(conn, raw, received_at)
            return
        try:
            msg = p.parse_client_message(raw)
        except ProtocolError:
            self.gateway.handle(conn, raw, received_at)  # answers the error
            return
        if (
            not isinstance(msg, p.Hello)
            or self.gateway.limits.failed_lookups.wait(conn.address, received_at) is not None
        ):
            self.gateway.handle(conn, raw, received_at)  # answers (rate_limited for a guesser)
            return
        await self._rehello(conn, json.loads(raw))

    def _forward(self, owner: str, code: str, text: str) -> None:
        self.node.enqueue(Queued(Write.FORWARD, owner, text, code))

    async def _rehello(self, conn: Connection, hello: dict[str, Any], delay: float = 0) -> None:
        """Attach ``conn`` to the room of ``hello``, wherever it is run."""
        if delay:
            await asyncio.sleep(delay)
        code = room_code(str(hello.get("room", "")))
        owner = await self.node.locate(code)
        text = json.dumps(hello)
        if owner is None or owner == self.node.node:
            self.gateway.handle(conn, text, self.gateway.clock.now())
            return
        conn.bound = Binding(code, owner, hello)
        self.bound[conn.id] = conn
        self.watched.setdefault(code, set()).add(conn)
        await self._subscribe(code)
        self._forward(owner, code, command(Command.MESSAGE, self.node.node, conn.id, text))

    def on_disconnect(self, conn: Connection) -> None:
        """A connection of this process closed: its room's owner hears it."""
        binding: Binding | None = conn.bound
        if binding is not None:
            gone = command(Command.GONE, self.node.node, conn.id)
            self._forward(binding.owner, binding.code, gone)
            self._unbind(conn)

    def _unbind(self, conn: Connection) -> None:
        binding: Binding | None = conn.bound
        conn.bound = None
        self.bound.pop(conn.id, None)
        if binding is None:
            return
        watchers = self.watched.get(binding.code)
        if watchers is not None:
            watchers.discard(conn)
            if not watchers:
                del self.watched[binding.code]
                self.subscribed.pop(binding.code, None)
                self.node.spawn(self.node.pubsub.unsubscribe(room_channel(binding.code)))

    async def _subscribe(self, code: str) -> None:
        done = self.subscribed.get(code)
        if done is None:
            done = self.subscribed[code] = asyncio.get_running_loop().create_future()
            await self.node.pubsub.subscribe(room_channel(code))
        # confirmed before the hello is forwarded: no event after the welcome is missed
        await asyncio.wait_for(asyncio.shield(done), 5)

    def subscribed_to(self, code: str) -> None:
        """Redis confirmed the subscription to a room's channel."""
        done = self.subscribed.get(code)
        if done is not None and not done.done():
            done.set_result(None)

    # --- what the owner sends back ------------------------------------------------------------

    def reply(self, conn_id: int, text: str) -> None:
        """The owner's answer to connection ``conn_id`` of this process."""
        conn = self.bound.get(conn_id)
        binding = None if conn is None else conn.bound
        if conn is None or binding is None:
            return
        if not binding.welcomed:
            msg = json.loads(text)
            if msg.get("type") == "moved":  # that process no longer runs the room: look again
                self._unbind(conn)
                self.node.spawn(self._rehello(conn, binding.hello, delay=0.05))
                return
            if msg.get("type") == "welcome":
                binding.welcomed = True
                binding.floor = int(msg["seq"])
            elif msg.get("type") == "error" and msg.get("ref") == "hello":
                self._unbind(conn)
                if msg.get("code") == "no_room":  # a wrong invite: counts as a failed lookup
                    self.gateway.limits.failed_lookups.take(conn.address, self.gateway.clock.now())
        conn.send(text)

    def close(self, conn_id: int, code: int) -> None:
        """The owner closes connection ``conn_id`` of this process."""
        conn = self.bound.get(conn_id)
        if conn is not None:
            conn.close(code)

    def room_event(self, code: str, data: str) -> None:
        """An event of a room this process's connections watch (``"seq text"``)."""
        seq_text, text = data.split(" ", 1)
        seq = int(seq_text)
        for conn in list(self.watched.get(code, ())):
            binding: Binding | None = conn.bound
            if binding is None or not binding.welcomed or seq <= binding.floor:
                continue
            if seq != binding.floor + 1:  # a gap (should not happen): make it resync
                conn.close(1012)
                continue
            binding.floor = seq
            conn.send(text)

    # --- on the owner: other processes' connections -------------------------------------------

    def forwarded(self, node: str, conn_id: int, raw: str) -> None:
        """A frame of connection ``conn_id`` of process ``node``, for a room owned here."""
        key = (node, conn_id)
        proxy = self.proxies.get(key)
        if proxy is None:
            proxy = self.proxies[key] = RemoteConnection(self.node, node, conn_id)
        code = _hello_room(raw) if not proxy.joined else None
        if code is not None and self.node.hub.get(code) is None:
            # not ours (any more): the sender looks again
            proxy.send(json.dumps({"type": "moved", "room": code}))
            del self.proxies[key]
            return
        # judged by the owner's clock on arrival: the one time line of the room's rules
        self.gateway.handle(proxy, raw, self.gateway.clock.now())
        if not proxy.joined:
            self.proxies.pop(key, None)

    def gone(self, node: str, conn_id: int) -> None:
        """Connection ``conn_id`` of process ``node`` has closed."""
        proxy = self.proxies.pop((node, conn_id), None)
        if proxy is not None:
            self.gateway.disconnected(proxy)

    def close_proxies(self, room: Room) -> None:
        """This process no longer runs ``room``: the other processes' connections to it
        reconnect."""
        for key, proxy in list(self.proxies.items()):
            if proxy.room is room:
                proxy.close(1012)
                del self.proxies[key]

    async def check_senders(self) -> None:
        """The stand-ins of connections on processes that died are disconnected."""
        for node in {n for n, _ in self.proxies}:
            if not await self.node.alive(node):
                for key in [k for k in self.proxies if k[0] == node]:
                    proxy = self.proxies.pop(key)
                    self.gateway.disconnected(proxy)

    # --- an owner that died ---------------------------------------------------------------------

    def undelivered(self, text: str, code: str) -> None:
        """Nobody heard a command forwarded for room ``code``: its owner is gone. A client's
        message is kept, and sent to the new owner once the connection is attached there."""
        if text.startswith(Command.MESSAGE.value + " "):
            _node, conn_id, raw = text[2:].split(" ", 2)
            self.held.setdefault(code, []).append((int(conn_id), raw))
        self.recover_soon(code)

    async def check_owners(self) -> None:
        """The owners of the rooms this process's connections are in: a room whose owner
        changed or died is recovered."""
        watched = list(self.watched)
        if not watched:
            return
        redis = self.node.redis
        owners = cast(list[str | None], await redis.mget([owner_key(c) for c in watched]))
        living = {n: await self.node.alive(n) for n in set(owners) if n is not None}
        for code, owner in zip(watched, owners, strict=True):
            bindings = [c.bound for c in self.watched.get(code, ()) if c.bound is not None]
            moved = owner is None or any(b.owner != owner for b in bindings)
            if moved or owner is None or not living.get(owner, False):
                self.recover_soon(code)

    def recover_soon(self, code: str) -> None:
        """Recover room ``code`` in the background (once at a time)."""
        if code in self.recovering:
            return
        self.recovering.add(code)
        self.node.spawn(self._recover(code))

    async def _recover(self, code: str) -> None:
        """The owner of a room this process's connections watch is gone: find (or become) the
        new one and attach them there."""
        try:
            owner = await self.node.locate(code)
            for conn in list(self.watched.get(code, ())):
                await self._reattach(conn, owner)
            for conn_id, raw in self.held.pop(code, []):
                await self._deliver_held(code, conn_id, raw)
        except Exception:
            log.exception("cluster: room %s could not be recovered", code)
        finally:
            self.recovering.discard(code)

    async def _reattach(self, conn: Connection, owner: str | None) -> None:
        binding: Binding | None = conn.bound
        if binding is None or binding.owner == owner:
            return
        hello = dict(binding.hello)
        if binding.welcomed:
            hello["last_seq"] = binding.floor
        self._unbind(conn)
        if owner is None:
            conn.close(4004)
        else:
            await self._rehello(conn, hello)

    async def _deliver_held(self, code: str, conn_id: int, raw: str) -> None:
        held_by = self.bound.get(conn_id)
        now = self.gateway.clock.now()
        if held_by is not None and held_by.bound is not None:
            await self.on_message(held_by, raw, now)
            return
        for c in self.gateway.connections_in(code):
            if c.id == conn_id:
                self.gateway.handle(c, raw, now)

    # --- HTTP ---------------------------------------------------------------------------------

    async def request(self, what: str, named: str, **body: Any) -> dict[str, Any]:
        """Run an HTTP request about the room a client ``named`` (its code or invite key) on
        its owner: ``snapshot`` or ``take_seat``."""
        code = room_code(named)
        body["room"] = named
        for _ in range(3):
            owner = await self.node.locate(code)
            if owner is None:
                raise ProtocolError("no_room", f"no room {code!r}")
            if owner == self.node.node:
                return self.answer(what, code, body)
            answer = await self._ask(owner, what, code, body)
            if answer is not None:
                return answer
        raise ProtocolError("unavailable", f"room {code} could not be reached; try again")

    async def _ask(
        self, owner: str, what: str, code: str, body: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The owner's answer, or ``None`` if it did not answer (in time) or had moved."""
        rid = strong_random.token_hex(8)
        waiting = self.requests[rid] = asyncio.get_running_loop().create_future()
        ask = {"id": rid, "from": self.node.node, "what": what, "code": code, "body": body}
        text = command(Command.REQUEST, json.dumps(ask))
        try:
            with self.gateway.metrics.timed(self.gateway.metrics.redis_seconds):
                if not await self.node.redis.publish(node_channel(owner), text):
                    return None
                answer = await asyncio.wait_for(waiting, REQUEST_SECONDS)
        except TimeoutError:
            return None
        finally:
            self.requests.pop(rid, None)
        if "error" in answer:
            err = answer["error"]
            if err["code"] != "moved":
                raise ProtocolError(err["code"], err["message"])
            return None
        return dict(answer["result"])

    def answer(self, what: str, code: str, body: dict[str, Any]) -> dict[str, Any]:
        """A request about a room this process runs."""
        rooms = self.gateway.rooms
        named = str(body.get("room", code))
        if what == "snapshot":
            return rooms.feed.snapshot(rooms.lobby.find(named))
        if what == "take_seat":
            account = body.get("account")
            room, seat = rooms.lobby.take_seat(
                named, str(body.get("name", "")), account if isinstance(account, int) else None
            )
            return seat_json(room, seat, named)
        raise ProtocolError("bad_message", f"no request {what!r}")

    def request_here(self, ask: dict[str, Any]) -> None:
        """Another process asks about a room (it believes) this one runs."""
        out: dict[str, Any] = {"id": ask["id"]}
        try:
            if self.node.hub.get(ask["code"]) is None:
                raise ProtocolError("moved", "not run here")
            out["result"] = self.answer(ask["what"], ask["code"], ask["body"])
        except ProtocolError as e:
            out["error"] = {"code": e.code, "message": e.message}
        self.node.send(ask["from"], command(Command.ANSWER, json.dumps(out)))

    def answered(self, answer: dict[str, Any]) -> None:
        """The owner's answer to one of this process's requests."""
        waiting = self.requests.pop(answer["id"], None)
        if waiting is not None and not waiting.done():
            waiting.set_result(answer)


def _hello_room(raw: str) -> str | None:
    """The room a ``hello`` names (``None`` for any other message)."""
    try:
        msg = json.loads(raw)
    except ValueError:
        return None
    if isinstance(msg, dict) and msg.get("type") == "hello" and isinstance(msg.get("room"), str):
        return room_code(str(msg["room"]))
    return None
