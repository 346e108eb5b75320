"""This process's part in the cluster: the leases of its rooms, its writer, its listener and
its heartbeat (the design is in :mod:`ubongo.server.cluster`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from ..ops import strong_random
from ..protocol.incoming import ProtocolError
from ..rooms.bus import Encoder, Event, MemoryHub, json_text
from ..rooms.durable import durable, rebuilt
from ..rooms.gateway import Gateway
from ..rooms.live import LIVE_LIMIT
from ..rooms.room import CODE_ALPHABET, CODE_LENGTH, Room
from .keys import (
    HEARTBEAT,
    KEEP_MS,
    LEASE_MS,
    PROCESSES,
    Scripts,
    code_of,
    connect,
    live_key,
    log_key,
    node_channel,
    open_key,
    owner_key,
    room_channel,
    room_keys,
    snap_key,
)
from .relay import Relay
from .ring import Ring
from .wire import Command, Queued, Write, parse

log = logging.getLogger("ubongo.server.cluster")


class Listener(Protocol):
    """Who hears the kinds of command the rooms' relay does not."""

    def heard(self, kind: Command, data: str) -> None:
        """Command ``data`` of kind ``kind`` arrived on this process's channel."""
        ...


class ClusterHub(MemoryHub[Room]):
    """The rooms this process owns, in memory as in :class:`MemoryHub`; every event is also
    handed to the cluster to be written to Redis and fanned out to the other processes."""

    def __init__(self, log_size: int = 512, encode: Encoder = json_text) -> None:
        super().__init__(log_size, encode)
        self.node: Node | None = None

    def remove(self, code: str) -> None:
        known = code in self._rooms
        super().remove(code)
        if known and self.node is not None:
            self.node.enqueue(Queued(Write.CLOSED, code))

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        event = super().publish(code, data)
        if self.node is not None:
            self.node.enqueue(Queued(Write.EVENT, event.room, f"{event.seq} {event.text}"))
        return event

    def forget(self, code: str) -> Room | None:
        """Let go of a room without closing it (another process owns it now)."""
        room = self._rooms.get(code)
        super().remove(code)
        return room

    def local_codes(self) -> list[str]:
        """The codes of the rooms this process owns."""
        return list(self._rooms)


class Node:
    """Owns this process's Redis connection, its node id, the leases of the rooms it runs,
    the one ordered queue of its writes and the listener of its channels; what concerns
    connections across processes is its :class:`~.relay.Relay`."""

    def __init__(self, gateway: Gateway, hub: ClusterHub, url: str, log_size: int = 512) -> None:
        self.gateway = gateway
        self.hub = hub
        self.url = url
        self.log_size = log_size
        self.node = strong_random.token_hex(6)
        self.redis: aioredis.Redis = connect(url)
        self.pubsub = self.redis.pubsub()
        self.scripts = Scripts(self.redis)
        self.queue: asyncio.Queue[Queued] = asyncio.Queue()
        hub.node = self
        self.relay = Relay(self)
        #: hears the arenas' commands (:class:`~.arenas.ClusterArenas`), once it is made
        self.arenas: Listener | None = None
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[Any]] = set()
        self.flushing = False
        #: subscribed to this process's channel (false while Redis is away)
        self.listening = False
        config = gateway.config
        #: nginx's ring, when this process is told it: new rooms get codes nginx sends here
        self.ring = Ring(config.upstreams) if config.upstreams else None
        self.name = config.upstream_name
        if self.ring is not None and self.name not in self.ring.servers:
            # no code would ever be this process's: reserve_code would look for one forever
            raise ValueError(f"{self.name!r} is not among the upstreams {config.upstreams}")

    # --- start and stop ----------------------------------------------------------------------

    async def start(self) -> None:
        """Join the cluster: load the scripts, listen on this process's channel, start the
        writer and the heartbeat. Raises ``RuntimeError`` if Redis cannot be reached."""
        try:
            await self.redis.ping()
        except (aioredis.ConnectionError, OSError) as e:
            raise RuntimeError(f"cannot reach Redis at {self.url}: {e}") from None
        await self.scripts.load()
        await self.pubsub.subscribe(node_channel(self.node))
        self.listening = True
        self.tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._write()),
            asyncio.create_task(self._heartbeat()),
        ]
        log.info("cluster node %s on %s", self.node, self.url)

    async def stop(self) -> None:
        """Write what is queued, then give up this process's leases: the next process that
        needs one of its rooms takes it over at once."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._drain(), 5)
        for task in self.tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.delete(live_key(self.node), open_key(self.node))
        with contextlib.suppress(Exception):
            for code in self.hub.local_codes():
                await self.scripts.run("release", [owner_key(code)], [self.node])
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def spawn(self, work: Awaitable[Any]) -> None:
        """Run ``work`` in the background (kept referenced until it ends)."""

        async def run() -> None:
            await work

        task = asyncio.create_task(run())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _drain(self) -> None:
        while not self.queue.empty() or self.flushing:
            await asyncio.sleep(0.01)

    # --- the writer: every write of this process, in order ------------------------------------

    def enqueue(self, item: Queued) -> None:
        """Queue one write; they reach Redis in the order queued."""
        self.queue.put_nowait(item)

    def send(self, node: str, text: str) -> None:
        """Queue a command to process ``node`` that nobody waits for."""
        self.enqueue(Queued(Write.REPLY, node, text))

    async def _write(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            self.flushing = True
            try:
                await self._flush(batch)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: a write to Redis failed")
                await asyncio.sleep(0.5)
            finally:
                self.flushing = False

    async def _flush(self, batch: list[Queued]) -> None:
        last = {item.target: i for i, item in enumerate(batch) if item.kind is Write.EVENT}
        pipe = self.redis.pipeline(transaction=False)
        for i, item in enumerate(batch):
            if item.kind is Write.EVENT:
                self._queue_event(pipe, item, with_snapshot=last[item.target] == i)
            elif item.kind is Write.CLOSED:
                self.scripts.queue(pipe, "drop", room_keys(item.target), [self.node])
            else:
                pipe.publish(node_channel(item.target), item.text)
        results = await pipe.execute(raise_on_error=False)
        for item, result in zip(batch, results, strict=True):
            if isinstance(result, NoScriptError):
                await self.scripts.load()  # Redis restarted: its rooms are gone anyway
            if isinstance(result, Exception):
                log.error("cluster: %s to %s failed: %s", item.kind.name, item.target, result)
            elif item.kind is Write.EVENT and result == 0:
                self.lost(item.target)
            elif item.kind is Write.FORWARD and result == 0:
                # nobody listens on the owner's channel: it is gone
                self.relay.undelivered(item.text, item.code)

    def _queue_event(self, pipe: Any, item: Queued, with_snapshot: bool) -> None:
        """An event's write: checked against the lease, with the room's snapshot if it is the
        room's last event in this batch."""
        code = item.target
        snap = ""
        room = self.hub.get(code)
        if with_snapshot and room is not None:
            seq = int(item.text.split(" ", 1)[0])
            snap = json.dumps(durable(room, seq), separators=(",", ":"))
        args = [self.node, item.text, self.log_size, KEEP_MS, snap, room_channel(code)]
        self.scripts.queue(pipe, "write_event", room_keys(code), args)

    # --- the listener: this node's channel and the rooms it watches ----------------------------

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                if self.listening:
                    log.exception("cluster: reading from Redis failed")
                self.listening = False
                await asyncio.sleep(0.1)
                continue
            if message is None:
                continue
            mine = message["channel"] == node_channel(self.node)
            if message["type"] == "subscribe" and mine and not self.listening:
                await self._listening_again()
            self._heard(message)

    async def _listening_again(self) -> None:
        """Subscribed again after Redis went away (it may have restarted): other processes see
        this one alive again, and its answers reach it."""
        # the pool's idle connections were opened to the Redis that went away and would each
        # fail one request at their next use: they open afresh instead, before the requests
        # that need Redis are let through again
        with contextlib.suppress(Exception):
            await self.redis.connection_pool.disconnect(inuse_connections=False)
        log.warning("cluster: listening on Redis again")
        self.listening = True

    def _heard(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        mine = channel == node_channel(self.node)
        if message["type"] == "subscribe":
            self.relay.subscribed_to(code_of(channel))
            return
        if message["type"] != "message":
            return
        try:
            if mine:
                self._on_command(message["data"])
            else:
                self.relay.room_event(code_of(channel), message["data"])
        except Exception:
            log.exception("cluster: a message could not be handled")

    def _on_command(self, data: str) -> None:
        kind = Command(data[0])
        relay = self.relay
        if kind is Command.REPLY:  # an answer to one of this process's connections
            _, (conn_id, text) = parse(data, 2)
            relay.reply(int(conn_id), text)
        elif kind is Command.CLOSE:
            _, (conn_id, code) = parse(data, 2)
            relay.close(int(conn_id), int(code))
        elif kind is Command.MESSAGE:  # a message to a room this process owns
            _, (node, conn_id, raw) = parse(data, 3)
            relay.forwarded(node, int(conn_id), raw)
        elif kind is Command.GONE:
            _, (node, conn_id) = parse(data, 2)
            relay.gone(node, int(conn_id))
        elif kind is Command.REQUEST:
            relay.request_here(json.loads(data[2:]))
        elif kind is Command.ANSWER:
            relay.answered(json.loads(data[2:]))
        elif self.arenas is not None:  # the arenas' kinds
            self.arenas.heard(kind, data)

    # --- ownership ---------------------------------------------------------------------------

    async def alive(self, node: str) -> bool:
        """Whether process ``node`` listens on its channel (a killed one does not)."""
        if node == self.node:
            return True
        got = await self.redis.pubsub_numsub(node_channel(node))
        return bool(got and int(got[0][1]) > 0)

    async def locate(self, code: str) -> str | None:
        """The node that runs room ``code`` (taking it over if its owner is gone), or ``None``
        if there is no such room."""
        self.need_redis()
        lock = self.locks.setdefault(code, asyncio.Lock())
        async with lock:
            for _ in range(20):
                owner = cast(str | None, await self.redis.get(owner_key(code)))
                if owner == self.node and self.hub.get(code) is not None:
                    return owner
                if owner is not None and owner != self.node and await self.alive(owner):
                    return owner
                if owner is not None:
                    await self.scripts.run("release", [owner_key(code)], [owner])
                if not await self.redis.get(snap_key(code)):
                    return None
                if await self.redis.set(owner_key(code), self.node, nx=True, px=LEASE_MS):
                    if await self._take_over(code):
                        return self.node
                    return None
                await asyncio.sleep(0.02)
        raise ProtocolError("unavailable", f"room {code} could not be reached; try again")

    async def _take_over(self, code: str) -> bool:
        pipe = self.redis.pipeline(transaction=True)
        pipe.get(snap_key(code))
        pipe.lrange(log_key(code), 0, -1)
        snap, entries = await pipe.execute()
        if not snap:
            await self.scripts.run("release", [owner_key(code)], [self.node])
            return False
        data = json.loads(snap)
        room = rebuilt(data)
        seq = int(data["seq"])
        events = []
        for entry in entries:
            n, text = entry.split(" ", 1)
            if int(n) <= seq:
                events.append(Event(code, int(n), text))
        self.gateway.rooms.reopen(room, seq, events)
        log.warning("took over room %s at event %d", code, seq)
        return True

    def need_redis(self) -> None:
        """Refuse work that needs the other processes while this one cannot hear them."""
        if not self.listening:
            raise ProtocolError("unavailable", "rooms are unreachable; try again")

    async def reserve_code(self) -> str:
        """A new join code, unique across the cluster, leased to this process (behind nginx,
        one that nginx's ring sends here: about one in as many codes as processes)."""
        self.need_redis()
        while True:
            code = "".join(strong_random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.ring is not None and self.ring.server(code) != self.name:
                continue
            keys = [owner_key(code), snap_key(code)]
            if await self.scripts.run("reserve", keys, [self.node, LEASE_MS, KEEP_MS]):
                return code

    async def release_code(self, code: str) -> None:
        """Give back a reserved code whose room could not be made."""
        await self.scripts.run("drop", room_keys(code), [self.node])

    def lost(self, code: str) -> None:
        """Another process holds this room's lease now: stop running it here."""
        room = self.hub.forget(code)
        if room is None:
            return
        log.warning("lost the lease of room %s", code)
        self.gateway.rooms.let_go(room)
        for conn in list(self.gateway.connections_in(code)):
            conn.close(1012)  # they reconnect and reach the new owner
        self.relay.close_proxies(room)

    # --- the heartbeat ----------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self._beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: heartbeat failed")

    async def _beat(self) -> None:
        owned = self.hub.local_codes()
        if owned:
            pipe = self.redis.pipeline(transaction=False)
            for code in owned:
                self.scripts.queue(pipe, "renew", [owner_key(code)], [self.node, LEASE_MS])
            try:
                renewed = await pipe.execute()
            except NoScriptError:
                await self.scripts.load()  # Redis restarted; renew at the next beat
                return
            for code, kept in zip(owned, renewed, strict=True):
                if not kept:
                    self.lost(code)
        await self.relay.check_owners()
        await self.relay.check_senders()
        live = json.dumps(self.gateway.live(), separators=(",", ":"))
        listed = json.dumps(self.gateway.open_games(), separators=(",", ":"))
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(live_key(self.node), live, px=LEASE_MS)
        pipe.set(open_key(self.node), listed, px=LEASE_MS)
        pipe.sadd(PROCESSES, self.node)
        await pipe.execute()

    async def processes(self) -> list[str]:
        """The processes alive (their ``live`` list written within a lease), in order; the
        others are taken off the set of processes."""
        members = sorted(str(m) for m in await self.redis.smembers(PROCESSES))
        found = await self.redis.mget([live_key(m) for m in members]) if members else []
        gone = [m for m, text in zip(members, found, strict=True) if text is None]
        if gone:
            await self.redis.srem(PROCESSES, *gone)
        return [m for m, text in zip(members, found, strict=True) if text is not None]

    # --- live games to watch, across the processes ---------------------------------------------

    async def live(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``local`` (this process's live games now) and every other process's, as its last
        beat wrote them (at most a second old), newest first; Redis away: ``local`` alone."""
        merged = await self._merged(local, live_key)
        merged.sort(key=lambda r: (-(r["started_at"] or 0), r["code"]))
        return merged[:LIVE_LIMIT]

    async def open_games(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``local`` (this process's open games now) and every other process's, as its last
        beat wrote them, the fullest first; Redis away: ``local`` alone."""
        merged = await self._merged(local, open_key)
        merged.sort(key=lambda r: (r["free"], r["code"]))
        return merged[:LIVE_LIMIT]

    async def _merged(
        self, local: list[dict[str, Any]], key: Callable[[str], str]
    ) -> list[dict[str, Any]]:
        """``local``, and the rooms of the other processes' lists (at ``key(process)``), each
        room once. A process gone has no list left (the lists live one lease): its member of
        the set is read as nothing here, and taken off by the arenas' leader's beat."""
        texts: list[Any] = []
        try:
            others = sorted(str(n) for n in await self.redis.smembers(PROCESSES) if n != self.node)
            if others:
                texts = await self.redis.mget([key(n) for n in others])
        except (aioredis.ConnectionError, aioredis.TimeoutError, OSError):
            texts = []
        seen = {r["code"] for r in local}
        merged = list(local)
        for text in texts:
            # a room just taken over may still be on its old owner's list: shown once
            for r in json.loads(text) if text else []:
                if r["code"] not in seen:
                    seen.add(r["code"])
                    merged.append(r)
        return merged
