"""Several server processes sharing rooms through Redis (``ubongo serve --redis-url``).

Any process accepts any connection and any HTTP request for any room; each room is run by
exactly one **owner** process at a time, with the same code as a single process (its clock,
bots, dice and verdicts). Redis holds, per room (keys ``ubongo:room:<CODE>:...``):

* ``owner``: the owner's node id, a lease with a TTL that the owner renews every second;
* ``snap``: the room's durable snapshot (seats and tokens, settings, the game's settings, seed
  and the rules' action log, the event number): enough to rebuild it with ``rules.replay``.
  Written with each event, in the same Lua call, so that it always matches the event log;
* ``log``: the latest numbered events (capped), for reconnects on any process;
* ``events`` (a pub/sub channel): each event, to the processes with connections in the room.

And per process a command channel, ``ubongo:node:<id>``: another process forwards there the
messages of its connections to rooms this one owns (``m``), their disconnections (``g``) and
HTTP requests (``q``); the owner answers each connection on the sender's channel (``r``:
welcome, errors, verdicts, pongs, missed events; ``c``: close) and each request (``a``).

Every write of an owner goes through one queue, flushed in order by one task in a pipeline,
and each event's write checks in Lua that this process still holds the lease (a process that
lost it writes nothing more, and drops the room). Because a process reads all its channels
on one connection, a connection on another process hears its verdict before the event it
caused, and its ``welcome`` before the next events, exactly as on the owner.

A process is alive while its command channel has a subscriber (Redis sees a killed process's
connection close at once); the lease TTL covers a process that hangs. When the owner of a room
is dead, the first process that needs the room (a ``hello``, an HTTP request, or its own
connections' watch, checked every second) takes the lease, rebuilds the room from ``snap``
and ``log``, re-arms the clock from the stored deadlines and the bots, and re-attaches its
connections, which get a fresh ``welcome`` (``resumed``) and the events they missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from . import protocol as p
from .app import Connection, Server
from .bus import Event, MemoryHub
from .durable import durable, rebuilt
from .protocol import ProtocolError
from .rooms import CODE_ALPHABET, CODE_LENGTH, Room

log = logging.getLogger("ubongo.server.cluster")

PREFIX = "ubongo:"
#: the owner's lease; renewed every HEARTBEAT seconds
LEASE_MS = 5000
HEARTBEAT = 1.0
#: a room's keys outlive their last write by this long (then a dead room is forgotten)
KEEP_MS = 24 * 3600 * 1000
#: how long an HTTP request waits for the owner's answer before trying again
REQUEST_SECONDS = 5.0

# KEYS owner, log, snap; ARGV node, "seq text", log size, keep ms, snapshot or "", channel
WRITE_EVENT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[5], 'PX', ARGV[4]) end
redis.call('PUBLISH', ARGV[6], ARGV[2])
return 1
"""
# KEYS owner; ARGV node, lease ms
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
"""
# KEYS owner; ARGV node: give up a lease only if it is still this node's (or a dead one's)
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0
"""
# KEYS owner, log, snap; ARGV node: a room closed by its owner
DROP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""
# KEYS owner, snap; ARGV node, lease ms, keep ms: a new join code, unique across processes
RESERVE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], '', 'PX', ARGV[3])
return 1
"""

SCRIPTS = {
    "write_event": WRITE_EVENT,
    "renew": RENEW,
    "release": RELEASE,
    "drop": DROP,
    "reserve": RESERVE,
}


def owner_key(code: str) -> str:
    return f"{PREFIX}room:{code}:owner"


def snap_key(code: str) -> str:
    return f"{PREFIX}room:{code}:snap"


def log_key(code: str) -> str:
    return f"{PREFIX}room:{code}:log"


def room_channel(code: str) -> str:
    return f"{PREFIX}room:{code}:events"


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


# --- the hub -------------------------------------------------------------------------------


class ClusterHub(MemoryHub[Room]):
    """The rooms this process owns, in memory as in :class:`MemoryHub`; every event is also
    handed to the cluster to be written to Redis and fanned out to the other processes."""

    def __init__(self, log_size: int = 512) -> None:
        super().__init__(log_size)
        self.cluster: Cluster | None = None

    def add(self, code: str, room: Room) -> None:
        super().add(code, room)

    def remove(self, code: str) -> None:
        known = code in self._rooms
        super().remove(code)
        if known and self.cluster is not None:
            self.cluster.dropped(code)

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        event = super().publish(code, data)
        if self.cluster is not None:
            self.cluster.published(event)
        return event

    def forget(self, code: str) -> Room | None:
        """Let go of a room without closing it (another process owns it now)."""
        room = self._rooms.get(code)
        super().remove(code)
        return room

    def local_codes(self) -> Iterator[str]:
        return iter(list(self._rooms))


# --- connections across processes ----------------------------------------------------------


@dataclass
class Binding:
    """A connection here attached to a room another process owns."""

    code: str
    owner: str
    hello: dict[str, Any]
    welcomed: bool = False
    #: the last event number this connection was sent
    floor: int = 0


class RemoteConnection(Connection):
    """On the owner: a client connected to process ``node`` (its connection ``conn_id``).

    What the room's code sends it goes back on that process's channel; room events do not
    (that process hears them on the room's channel)."""

    def __init__(self, cluster: Cluster, node: str, conn_id: int) -> None:
        super().__init__(None, cluster.server.clock)
        self.cluster = cluster
        self.node = node
        self.remote_id = conn_id

    def send(self, text: str) -> None:
        self.cluster.enqueue(("r", self.node or "", f"r {self.remote_id} {text}", ""))

    def on_event(self, event: Event) -> None:
        pass

    def close(self, code: int) -> None:
        if self.closing is None:
            self.closing = code
            self.cluster.enqueue(("r", self.node or "", f"c {self.remote_id} {code}", ""))


@dataclass
class Cluster:
    """This process's part in a cluster: leases, the writer, the listener, the heartbeat."""

    server: Server
    url: str
    node: str = field(default_factory=lambda: secrets.token_hex(6))
    log_size: int = 512

    def __post_init__(self) -> None:
        self.redis: aioredis.Redis = aioredis.from_url(self.url, decode_responses=True)
        self.pubsub = self.redis.pubsub()
        self.queue: asyncio.Queue[tuple[str, str, str, str]] = asyncio.Queue()
        self.hub: ClusterHub = self.server.hub  # type: ignore[assignment]
        self.hub.cluster = self
        self.proxies: dict[tuple[str, int], Connection] = {}
        self.bound: dict[int, Connection] = {}
        self.watched: dict[str, set[Connection]] = {}
        self.subscribed: dict[str, asyncio.Future[None]] = {}
        self.requests: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.recovering: set[str] = set()
        #: per room, the messages (connection id, text) its dead owner did not receive
        self.held: dict[str, list[tuple[int, str]]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[Any]] = set()
        self.flushing = False
        self.sha: dict[str, str] = {}
        #: subscribed to this process's channel (false while Redis is away)
        self.listening = False

    # --- start and stop ----------------------------------------------------------------------

    async def start(self) -> None:
        try:
            await self.redis.ping()
        except (aioredis.ConnectionError, OSError) as e:
            raise RuntimeError(f"cannot reach Redis at {self.url}: {e}") from None
        await self._load_scripts()
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
            for code in self.hub.local_codes():
                await self._eval("release", [owner_key(code)], [self.node])
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            await work

        task = asyncio.create_task(run())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _load_scripts(self) -> None:
        for name, source in SCRIPTS.items():
            self.sha[name] = await self.redis.script_load(source)

    def _script(self, pipe: Any, name: str, keys: list[str], args: list[Any]) -> Any:
        """Queue one of :data:`SCRIPTS` (loaded at start) on a pipeline."""
        return pipe.evalsha(self.sha[name], len(keys), *keys, *args)

    async def _eval(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run one of :data:`SCRIPTS` now. A Redis that restarted has forgotten them (NOSCRIPT):
        they are loaded again and the call repeated."""
        try:
            return await self.redis.evalsha(self.sha[name], len(keys), *keys, *args)
        except NoScriptError:
            await self._load_scripts()
            return await self.redis.evalsha(self.sha[name], len(keys), *keys, *args)

    async def _drain(self) -> None:
        while not self.queue.empty() or self.flushing:
            await asyncio.sleep(0.01)

    # --- the writer: every write of this process, in order ------------------------------------

    def enqueue(self, item: tuple[str, str, str, str]) -> None:
        """``(kind, target, text, code)``: ``e`` an event of room ``target``, ``r`` a reply to
        node ``target``, ``f`` a message forwarded to node ``target`` for room ``code``,
        ``x`` room ``target`` closed."""
        self.queue.put_nowait(item)

    def published(self, event: Event) -> None:
        self.enqueue(("e", event.room, f"{event.seq} {event.text}", ""))

    def dropped(self, code: str) -> None:
        self.enqueue(("x", code, "", ""))

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

    async def _flush(self, batch: list[tuple[str, str, str, str]]) -> None:
        last = {item[1]: i for i, item in enumerate(batch) if item[0] == "e"}
        pipe = self.redis.pipeline(transaction=False)
        for i, (kind, target, text, _code) in enumerate(batch):
            if kind == "e":
                snap = ""
                room = self.hub.get(target)
                if last[target] == i and room is not None:
                    seq = int(text.split(" ", 1)[0])
                    snap = json.dumps(durable(room, seq), separators=(",", ":"))
                keys = [owner_key(target), log_key(target), snap_key(target)]
                args = [self.node, text, self.log_size, KEEP_MS, snap, room_channel(target)]
                self._script(pipe, "write_event", keys, args)
            elif kind in ("r", "f"):
                pipe.publish(node_channel(target), text)
            elif kind == "x":
                keys = [owner_key(target), log_key(target), snap_key(target)]
                self._script(pipe, "drop", keys, [self.node])
        results = await pipe.execute(raise_on_error=False)
        for (kind, target, _text, code), result in zip(batch, results, strict=True):
            if isinstance(result, NoScriptError):
                await self._load_scripts()  # Redis restarted: its rooms are gone anyway
            if isinstance(result, Exception):
                log.error("cluster: %s to %s failed: %s", kind, target, result)
            elif kind == "e" and result == 0:
                self.lost(target)
            elif kind == "f" and result == 0:
                # nobody listens on the owner's channel: it is gone. A client's message is
                # kept, and sent to the new owner once the connection is attached there
                if _text.startswith("m "):
                    _node, conn_id, raw = _text[2:].split(" ", 2)
                    self.held.setdefault(code, []).append((int(conn_id), raw))
                self.recover_soon(code)

    # --- the listener: this node's channel and the rooms it watches ----------------------------

    async def _listen(self) -> None:
        mine = node_channel(self.node)
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
            channel = message["channel"]
            if message["type"] == "subscribe":
                if channel == mine and not self.listening:
                    # (re)subscribed, e.g. after Redis restarted: other processes see this one
                    # alive again, and its answers reach it
                    log.warning("cluster: listening on Redis again")
                    self.listening = True
                done = self.subscribed.get(_code_of(channel))
                if done is not None and not done.done():
                    done.set_result(None)
                continue
            if message["type"] != "message":
                continue
            try:
                if channel == mine:
                    self._on_command(message["data"])
                else:
                    self._on_room_event(_code_of(channel), message["data"])
            except Exception:
                log.exception("cluster: a message could not be handled")

    def _on_command(self, data: str) -> None:
        kind, rest = data[0], data[2:]
        if kind == "r":  # an answer to one of this process's connections
            conn_id, text = rest.split(" ", 1)
            conn = self.bound.get(int(conn_id))
            if conn is not None:
                self._reply(conn, text)
        elif kind == "c":
            conn_id, code = rest.split(" ", 1)
            conn = self.bound.get(int(conn_id))
            if conn is not None:
                conn.close(int(code))
        elif kind == "m":  # a message to a room this process owns
            node, conn_id, raw = rest.split(" ", 2)
            self._on_forwarded(node, int(conn_id), raw)
        elif kind == "g":
            node, conn_id = rest.split(" ", 1)
            proxy = self.proxies.pop((node, int(conn_id)), None)
            if proxy is not None:
                self.server.disconnected(proxy)
        elif kind == "q":
            self._on_request(json.loads(rest))
        elif kind == "a":
            answer = json.loads(rest)
            waiting = self.requests.pop(answer["id"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(answer)

    def _on_forwarded(self, node: str, conn_id: int, raw: str) -> None:
        key = (node, conn_id)
        proxy = self.proxies.get(key)
        if proxy is None:
            proxy = self.proxies[key] = RemoteConnection(self, node, conn_id)
        code = _hello_room(raw) if not proxy.joined else None
        if code is not None and self.hub.get(code) is None:
            # not ours (any more): the sender looks again
            proxy.send(json.dumps({"type": "moved", "room": code}))
            del self.proxies[key]
            return
        # judged by the owner's clock on arrival: the one time line of the room's rules
        self.server.handle(proxy, raw, self.server.clock.now())
        if not proxy.joined:
            self.proxies.pop(key, None)

    def _reply(self, conn: Connection, text: str) -> None:
        binding: Binding | None = conn.bound
        if binding is None:
            return
        if not binding.welcomed:
            msg = json.loads(text)
            if msg.get("type") == "moved":  # that process no longer runs the room: look again
                self._unbind(conn)
                self._spawn(self._rehello(conn, binding.hello, delay=0.05))
                return
            if msg.get("type") == "welcome":
                binding.welcomed = True
                binding.floor = int(msg["seq"])
            elif msg.get("type") == "error" and msg.get("ref") == "hello":
                self._unbind(conn)
        conn.send(text)

    def _on_room_event(self, code: str, data: str) -> None:
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

    # --- connections here, rooms elsewhere -----------------------------------------------------

    async def on_message(self, conn: Connection, raw: str | bytes, received_at: float) -> None:
        """One frame from a client of this process."""
        if conn.bound is not None:
            binding: Binding = conn.bound
            text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
            self.enqueue(("f", binding.owner, f"m {self.node} {conn.id} {text}", binding.code))
            return
        if conn.joined:
            self.server.handle(conn, raw, received_at)
            return
        try:
            msg = p.parse_client_message(raw)
        except ProtocolError:
            self.server.handle(conn, raw, received_at)  # answers the error
            return
        if not isinstance(msg, p.Hello):
            self.server.handle(conn, raw, received_at)
            return
        await self._rehello(conn, json.loads(raw))

    async def _rehello(self, conn: Connection, hello: dict[str, Any], delay: float = 0) -> None:
        """Attach ``conn`` to the room of ``hello``, wherever it is run."""
        if delay:
            await asyncio.sleep(delay)
        code = str(hello.get("room", "")).upper()
        owner = await self.locate(code)
        text = json.dumps(hello)
        if owner is None or owner == self.node:
            self.server.handle(conn, text, self.server.clock.now())
            return
        conn.bound = Binding(code, owner, hello)
        self.bound[conn.id] = conn
        self.watched.setdefault(code, set()).add(conn)
        await self._subscribe(code)
        self.enqueue(("f", owner, f"m {self.node} {conn.id} {text}", code))

    def on_disconnect(self, conn: Connection) -> None:
        binding: Binding | None = conn.bound
        if binding is not None:
            self.enqueue(("f", binding.owner, f"g {self.node} {conn.id}", binding.code))
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
                self._spawn(self.pubsub.unsubscribe(room_channel(binding.code)))

    async def _subscribe(self, code: str) -> None:
        done = self.subscribed.get(code)
        if done is None:
            done = self.subscribed[code] = asyncio.get_running_loop().create_future()
            await self.pubsub.subscribe(room_channel(code))
        # confirmed before the hello is forwarded: no event after the welcome is missed
        await asyncio.wait_for(asyncio.shield(done), 5)

    # --- ownership ---------------------------------------------------------------------------

    async def alive(self, node: str) -> bool:
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
                    await self._eval("release", [owner_key(code)], [owner])
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
            await self._eval("release", [owner_key(code)], [self.node])
            return False
        data = json.loads(snap)
        rooms = self.server.rooms
        room = rebuilt(data)
        seq = int(data["seq"])
        events = []
        for entry in entries:
            n, text = entry.split(" ", 1)
            if int(n) <= seq:
                events.append(Event(code, int(n), text))
        rooms.reopen(room, seq, events)
        log.warning("took over room %s at event %d", code, seq)
        return True

    def need_redis(self) -> None:
        """Refuse work that needs the other processes while this one cannot hear them."""
        if not self.listening:
            raise ProtocolError("unavailable", "rooms are unreachable; try again")

    async def reserve_code(self) -> str:
        """A new join code, unique across the cluster, leased to this process."""
        self.need_redis()
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            keys = [owner_key(code), snap_key(code)]
            if await self._eval("reserve", keys, [self.node, LEASE_MS, KEEP_MS]):
                return code

    async def release_code(self, code: str) -> None:
        keys = [owner_key(code), log_key(code), snap_key(code)]
        await self._eval("drop", keys, [self.node])

    def lost(self, code: str) -> None:
        """Another process holds this room's lease now: stop running it here."""
        room = self.hub.forget(code)
        if room is None:
            return
        log.warning("lost the lease of room %s", code)
        self.server.rooms.stop_timers(room)
        for conn in list(self.server.connections_in(code)):
            conn.close(1012)  # they reconnect and reach the new owner
        for key, proxy in list(self.proxies.items()):
            if proxy.room is room:
                proxy.close(1012)
                del self.proxies[key]

    def recover_soon(self, code: str) -> None:
        if code in self.recovering:
            return
        self.recovering.add(code)
        self._spawn(self._recover(code))

    async def _recover(self, code: str) -> None:
        """The owner of a room this process's connections watch is gone: find (or become) the
        new one and attach them there."""
        try:
            owner = await self.locate(code)
            for conn in list(self.watched.get(code, ())):
                binding: Binding | None = conn.bound
                if binding is None or binding.owner == owner:
                    continue
                hello = dict(binding.hello)
                if binding.welcomed:
                    hello["last_seq"] = binding.floor
                self._unbind(conn)
                if owner is None:
                    conn.close(4004)
                else:
                    await self._rehello(conn, hello)
            for conn_id, raw in self.held.pop(code, []):
                held_by = self.bound.get(conn_id)
                if held_by is not None and held_by.bound is not None:
                    await self.on_message(held_by, raw, self.server.clock.now())
                else:
                    local = [c for c in self.server.connections_in(code) if c.id == conn_id]
                    for c in local:
                        self.server.handle(c, raw, self.server.clock.now())
        except Exception:
            log.exception("cluster: room %s could not be recovered", code)
        finally:
            self.recovering.discard(code)

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
        owned = list(self.hub.local_codes())
        if owned:
            pipe = self.redis.pipeline(transaction=False)
            for code in owned:
                self._script(pipe, "renew", [owner_key(code)], [self.node, LEASE_MS])
            try:
                renewed = await pipe.execute()
            except NoScriptError:
                await self._load_scripts()  # Redis restarted; renew at the next beat
                return
            for code, kept in zip(owned, renewed, strict=True):
                if not kept:
                    self.lost(code)
        # the owners of the rooms this process's connections are in
        watched = list(self.watched)
        if watched:
            owners = cast(list[str | None], await self.redis.mget([owner_key(c) for c in watched]))
            living = {n: await self.alive(n) for n in set(owners) if n is not None}
            for code, owner in zip(watched, owners, strict=True):
                bindings = [c.bound for c in self.watched.get(code, ()) if c.bound is not None]
                moved = owner is None or any(b.owner != owner for b in bindings)
                if moved or owner is None or not living.get(owner, False):
                    self.recover_soon(code)
        # the processes whose connections are in rooms this one owns
        for node in {n for n, _ in self.proxies}:
            if not await self.alive(node):
                for key in [k for k in self.proxies if k[0] == node]:
                    proxy = self.proxies.pop(key)
                    self.server.disconnected(proxy)

    # --- HTTP ------------------------------------------------------------------------------

    async def request(self, what: str, code: str, **body: Any) -> dict[str, Any]:
        """Run an HTTP request about room ``code`` on its owner: ``snapshot`` or
        ``take_seat``."""
        code = code.upper()
        for _ in range(3):
            owner = await self.locate(code)
            if owner is None:
                raise ProtocolError("no_room", f"no room {code!r}")
            if owner == self.node:
                return self.answer(what, code, body)
            rid = secrets.token_hex(8)
            waiting = self.requests[rid] = asyncio.get_running_loop().create_future()
            ask = {"id": rid, "from": self.node, "what": what, "code": code, "body": body}
            got = await self.redis.publish(node_channel(owner), "q " + json.dumps(ask))
            try:
                if got:
                    answer = await asyncio.wait_for(waiting, REQUEST_SECONDS)
                    if "error" in answer:
                        err = answer["error"]
                        if err["code"] != "moved":
                            raise ProtocolError(err["code"], err["message"])
                    else:
                        return dict(answer["result"])
            except TimeoutError:
                pass
            finally:
                self.requests.pop(rid, None)
        raise ProtocolError("unavailable", f"room {code} could not be reached; try again")

    def answer(self, what: str, code: str, body: dict[str, Any]) -> dict[str, Any]:
        rooms = self.server.rooms
        if what == "snapshot":
            return rooms.snapshot(rooms.room(code))
        if what == "take_seat":
            room, seat = rooms.take_seat(code, str(body.get("name", "")))
            return {
                "code": room.code,
                "seat": seat.index,
                "token": seat.token,
                "invite": room.invite,
            }
        raise ProtocolError("bad_message", f"no request {what!r}")

    def _on_request(self, ask: dict[str, Any]) -> None:
        out: dict[str, Any] = {"id": ask["id"]}
        try:
            if self.hub.get(ask["code"]) is None:
                raise ProtocolError("moved", "not run here")
            out["result"] = self.answer(ask["what"], ask["code"], ask["body"])
        except ProtocolError as e:
            out["error"] = {"code": e.code, "message": e.message}
        self.enqueue(("r", ask["from"], "a " + json.dumps(out), ""))


def _code_of(channel: str) -> str:
    """The room code in a room channel's name."""
    return channel[len(PREFIX) + 5 : -len(":events")]


def _hello_room(raw: str) -> str | None:
    """The room a ``hello`` names (``None`` for any other message)."""
    try:
        msg = json.loads(raw)
    except ValueError:
        return None
    if isinstance(msg, dict) and msg.get("type") == "hello" and isinstance(msg.get("room"), str):
        return str(msg["room"]).upper()
    return None
