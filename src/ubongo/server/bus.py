"""Room state and the fan-out of room events, behind one small interface.

Handlers and rooms never keep rooms in a dict of their own or send events to sockets
themselves: they go through a :class:`RoomHub`. :class:`MemoryHub` keeps everything in this
process. With several server processes, :class:`~ubongo.server.cluster.node.ClusterHub` is a
:class:`MemoryHub` of the rooms this process owns that also writes each event, with the room's
durable snapshot, to Redis and fans it out to the other processes (:mod:`.cluster`); rules and
handlers stay as they are.

An event is numbered by the hub (``seq``, from 1 per room) and kept in a bounded log, so that a
client that reconnects can be sent what it missed (:meth:`RoomHub.since`), or told to take a
snapshot when the log no longer reaches back that far.

>>> import json
>>> hub = MemoryHub(log_size=2)
>>> got = []
>>> sub = hub.subscribe("ROOM", got.append)
>>> [hub.publish("ROOM", {"kind": k}).seq for k in "abc"]
[1, 2, 3]
>>> [json.loads(e.text)["kind"] for e in got]
['a', 'b', 'c']
>>> [e.seq for e in hub.since("ROOM", 1)]
[2, 3]
>>> hub.since("ROOM", 0) is None  # event 1 has left the log: take a snapshot
True
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

R = TypeVar("R")


@dataclass(frozen=True)
class Event:
    """A room event as sent: its number and the message's JSON text (with ``seq`` inside).

    Only the text is kept: a log of dicts would be millions of live objects across rooms for
    the garbage collector to walk."""

    room: str
    seq: int
    text: str


Listener = Callable[[Event], None]
#: how a hub turns a message into the text it sends
Encoder = Callable[[dict[str, Any]], str]


def json_text(data: dict[str, Any]) -> str:
    """Compact JSON: a hub's encoding unless it is given another (the server gives
    :func:`ubongo.server.messages.encode`, which makes each event through its model)."""
    return json.dumps(data, separators=(",", ":"))


class Subscription:
    """What :meth:`RoomHub.subscribe` returns; ``close()`` stops the deliveries."""

    def __init__(self, close: Callable[[], None]) -> None:
        self._close = close
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._close()


class RoomHub(Protocol[R]):
    """Where rooms live and how their events reach every connection that watches them."""

    def add(self, code: str, room: R) -> None:
        """Store a new room under its join code (``KeyError`` if the code is taken)."""

    def get(self, code: str) -> R | None:
        """The room with this code, or ``None``."""

    def remove(self, code: str) -> None:
        """Forget a room and its events; subscribers get nothing more."""

    def codes(self) -> Iterator[str]:
        """The codes of all rooms."""

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        """Number ``data`` (adds ``seq``), keep it in the room's log and deliver it to every
        subscriber of the room, in order."""

    def last_seq(self, code: str) -> int:
        """The number of the room's latest event (0 before the first)."""

    def since(self, code: str, seq: int) -> list[Event] | None:
        """The room's events after ``seq``, or ``None`` if the log no longer holds them all."""

    def restore(self, code: str, room: R, seq: int, events: Iterable[Event] = ()) -> None:
        """Put back a room rebuilt from where it was kept, at event ``seq``, with the events
        kept with it."""

    def subscribe(self, code: str, listener: Listener) -> Subscription:
        """Call ``listener`` with each event published to the room from now on."""


class MemoryHub(Generic[R]):
    """The in-process :class:`RoomHub`: a dict of rooms, a bounded deque of events per room."""

    def __init__(self, log_size: int = 512, encode: Encoder = json_text) -> None:
        self.log_size = log_size
        self.encode = encode
        self._rooms: dict[str, R] = {}
        self._logs: dict[str, deque[Event]] = {}
        self._seq: dict[str, int] = {}
        self._listeners: dict[str, dict[int, Listener]] = {}
        self._next_id = 0

    def add(self, code: str, room: R) -> None:
        if code in self._rooms:
            raise KeyError(f"room {code} exists")
        self._rooms[code] = room

    def get(self, code: str) -> R | None:
        return self._rooms.get(code)

    def remove(self, code: str) -> None:
        self._rooms.pop(code, None)
        self._logs.pop(code, None)
        self._seq.pop(code, None)
        self._listeners.pop(code, None)

    def codes(self) -> Iterator[str]:
        return iter(list(self._rooms))

    def restore(self, code: str, room: R, seq: int, events: Iterable[Event] = ()) -> None:
        """A room rebuilt from where it was kept, at event ``seq``, with the events kept with
        it (none: a client that saw fewer gets a full snapshot on reconnect)."""
        self._rooms[code] = room
        self._seq[code] = seq
        self._logs[code] = deque(events, maxlen=self.log_size)

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        seq = self._seq.get(code, 0) + 1
        self._seq[code] = seq
        # serialised once, sent to every subscriber as the same text
        event = Event(code, seq, self.encode({**data, "seq": seq}))
        log = self._logs.get(code)
        if log is None:
            log = self._logs[code] = deque(maxlen=self.log_size)
        log.append(event)
        for listener in list(self._listeners.get(code, {}).values()):
            listener(event)
        return event

    def last_seq(self, code: str) -> int:
        return self._seq.get(code, 0)

    def since(self, code: str, seq: int) -> list[Event] | None:
        log = self._logs.get(code, deque())
        last = self._seq.get(code, 0)
        if seq > last:
            return None  # numbers this room never gave out: the client must resync
        if seq == last:
            return []
        if not log or log[0].seq > seq + 1:
            return None
        return [e for e in log if e.seq > seq]

    def subscribe(self, code: str, listener: Listener) -> Subscription:
        self._next_id += 1
        key = self._next_id
        self._listeners.setdefault(code, {})[key] = listener

        def close() -> None:
            self._listeners.get(code, {}).pop(key, None)

        return Subscription(close)
