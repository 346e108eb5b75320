"""Room state and the fan-out of room events, behind one small interface.

Handlers and rooms never keep rooms in a dict of their own or send events to sockets
themselves: they go through a :class:`RoomHub`. :class:`MemoryHub` keeps everything in this
process. With several server processes, :class:`~ubongo.server.cluster.node.ClusterHub` is a
:class:`MemoryHub` of the rooms this process owns that also writes each event, with the room's
durable snapshot, to Redis and fans it out to the other processes (:mod:`..cluster`); rules and
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

A hub that stores rooms (:class:`~ubongo.server.rooms.saved.SavedRoomsHub`) can *hold* a
room: its events are numbered and logged at once, but delivered (with the calls given to
:meth:`MemoryHub.then`, such as a verdict) only once the room has been stored as of them,
so that nobody is told what a crash could still lose ("store, then answer"). Until then
:meth:`~MemoryHub.last_seq` and :meth:`~MemoryHub.since` do not show them either. A hub that
stores nothing (``durable = False``, this one) never holds.

>>> class Kept(MemoryHub):  # a storing hub, stored by hand here
...     durable = True
>>> kept = Kept()
>>> kept.add("ROOM", "the room")
>>> heard = []
>>> sub = kept.subscribe("ROOM", lambda e: heard.append(e.seq))
>>> kept.hold("ROOM")
>>> kept.then("ROOM", lambda: heard.append("verdict"))
>>> kept.publish("ROOM", {"kind": "finished"}).seq
1
>>> heard, kept.last_seq("ROOM"), kept.since("ROOM", 0)
([], 0, [])
>>> kept.stored("ROOM", kept.mark("ROOM"))  # saved: the verdict, then the event
>>> heard, kept.last_seq("ROOM")
(['verdict', 1], 1)
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

R = TypeVar("R")

log = logging.getLogger("ubongo.server")


@dataclass(frozen=True)
class Event:
    """A room event as sent: its number and the message's JSON text (with ``seq`` inside).

    Only the text is kept: a log of dicts would be millions of live objects across rooms for
    the garbage collector to walk."""

    room: str
    seq: int
    text: str


Listener = Callable[[Event], None]
#: a delivery waiting for its room to be stored: an event, or a call given to ``then``
Delivery = Event | Callable[[], None]
#: how a hub turns a message into the text it sends
Encoder = Callable[[dict[str, Any]], str]


def json_text(data: dict[str, Any]) -> str:
    """Compact JSON: a hub's encoding unless it is given another (the server gives
    :func:`ubongo.server.protocol.outgoing.encode`, which makes each event through its model).
    A part already made through its model (a snapshot's settings and game) is written as its
    model dumps it."""
    return json.dumps(data, separators=(",", ":"), default=_dumped)


def _dumped(value: Any) -> Any:
    """A pydantic model in a message, as JSON data (``json.dumps`` calls this for what it
    cannot write itself)."""
    dump = getattr(value, "model_dump", None)
    if dump is None:
        raise TypeError(f"{type(value).__name__} is not JSON serializable")
    return dump(mode="json")


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

    def restore(
        self, code: str, room: R, seq: int, events: Iterable[Event] = (), given: int | None = None
    ) -> None:
        """Put back a room rebuilt from where it was kept, at event ``seq``, with the events
        kept with it; ``given``: the highest event number its last run may have sent."""

    def hold(self, code: str) -> None:
        """Deliver nothing more of the room until it is stored as it is now (store, then
        answer); a hub that stores nothing does not hold."""

    def then(self, code: str, call: Callable[[], None]) -> None:
        """Call ``call`` now, or after what the room holds before it is delivered."""

    def subscribe(self, code: str, listener: Listener) -> Subscription:
        """Call ``listener`` with each event published to the room from now on."""


class Held:
    """A held room's deliveries: waiting in order until the room is stored as of them."""

    __slots__ = ("holds", "queued", "shown", "waiting")

    def __init__(self, shown: int) -> None:
        self.waiting: deque[Delivery] = deque()
        #: deliveries ever queued, and holds ever asked for (what a save covers, see ``mark``)
        self.queued = 0
        self.holds = 0
        #: the number of the last event delivered (what clients may know)
        self.shown = shown


#: what a save of a held room covers: (deliveries queued, holds asked for) when it was taken
Mark = tuple[int, int]


class MemoryHub(Generic[R]):
    """The in-process :class:`RoomHub`: a dict of rooms, a bounded deque of events per room."""

    #: whether this hub stores rooms (and so holds deliveries until they are stored)
    durable = False

    def __init__(self, log_size: int = 512, encode: Encoder = json_text) -> None:
        self.log_size = log_size
        self.encode = encode
        self._rooms: dict[str, R] = {}
        self._logs: dict[str, deque[Event]] = {}
        self._seq: dict[str, int] = {}
        self._listeners: dict[str, dict[int, Listener]] = {}
        self._held: dict[str, Held] = {}
        #: numbers a previous run of a room may have given out, never to be taken as known
        self._unsure: dict[str, tuple[int, int]] = {}
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
        self._held.pop(code, None)  # nobody hears a closed room's held events
        self._unsure.pop(code, None)

    def codes(self) -> Iterator[str]:
        return iter(list(self._rooms))

    def restore(
        self, code: str, room: R, seq: int, events: Iterable[Event] = (), given: int | None = None
    ) -> None:
        """A room rebuilt from where it was kept, at event ``seq``, with the events kept with
        it (none: a client that saw fewer gets a full snapshot on reconnect). ``given``: the
        highest number the room's last run may have given out (it may have sent events it
        did not store): numbering goes on after it, and a client that claims one of the
        numbers between gets a full snapshot, as its events may not be this room's."""
        self._rooms[code] = room
        self._logs[code] = deque(events, maxlen=self.log_size)
        self._held.pop(code, None)
        if given is not None and given > seq:
            self._seq[code] = given
            self._unsure[code] = (seq + 1, given)
        else:
            self._seq[code] = seq
            self._unsure.pop(code, None)

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        seq = self._seq.get(code, 0) + 1
        self._numbered(code, seq)  # (before it counts: a hold asked here comes before it)
        self._seq[code] = seq
        # serialised once, sent to every subscriber as the same text
        event = Event(code, seq, self.encode({**data, "seq": seq}))
        log = self._logs.get(code)
        if log is None:
            log = self._logs[code] = deque(maxlen=self.log_size)
        log.append(event)
        held = self._held.get(code)
        if held is not None:
            held.waiting.append(event)
            held.queued += 1
        else:
            self._deliver(event)
        return event

    def _numbered(self, code: str, seq: int) -> None:
        """Event ``seq`` of room ``code`` has been numbered (a storing hub may hold it)."""

    def _deliver(self, event: Event) -> None:
        for listener in list(self._listeners.get(event.room, {}).values()):
            listener(event)

    # --- store, then answer ------------------------------------------------------------------

    def hold(self, code: str) -> None:
        """Deliver nothing more of room ``code`` (events, calls given to :meth:`then`) until
        it has been stored as it is now; a hub that stores nothing does not hold."""
        if not self.durable or code not in self._rooms:
            return
        held = self._held.get(code)
        if held is None:
            held = self._held[code] = Held(self._seq.get(code, 0))
        held.holds += 1
        self._store_soon(code)

    def then(self, code: str, call: Callable[[], None]) -> None:
        """Call ``call`` now, or if room ``code`` is held, once what was held before it is
        delivered (a verdict before the events its submission caused)."""
        held = self._held.get(code)
        if held is None:
            call()
        else:
            held.waiting.append(call)
            held.queued += 1

    def held(self, code: str) -> bool:
        """Whether room ``code`` waits for a save before it delivers."""
        return code in self._held

    def _store_soon(self, code: str) -> None:
        """Store room ``code`` as soon as possible (a storing hub's business)."""

    def mark(self, code: str) -> Mark | None:
        """What a save of room ``code`` taken now covers (``None``: it holds nothing)."""
        held = self._held.get(code)
        return None if held is None else (held.queued, held.holds)

    def stored(self, code: str, mark: Mark | None) -> None:
        """Room ``code`` was stored as of ``mark``: deliver what it covers, and what waits
        behind it unless a newer hold asks for another save first."""
        held = self._held.get(code)
        if held is None or mark is None:
            return
        release = held.holds == mark[1]  # no hold since: the deliveries behind go out too
        covered = len(held.waiting) if release else len(held.waiting) - (held.queued - mark[0])
        # the room stays held while its deliveries go out in order, so that a call among them
        # (a welcome) sees the events delivered before it and not those after: a welcome that
        # sent the later ones as "missed", then subscribed, got them again from this loop
        for _ in range(covered):
            self._deliver_one(code, held)
        if release:
            while held.waiting and held.holds == mark[1]:
                self._deliver_one(code, held)  # what the calls published meanwhile
            if held.holds == mark[1] and self._held.get(code) is held:
                del self._held[code]

    def _deliver_one(self, code: str, held: Held) -> None:
        """The next of a held room's deliveries: an event, or a call given to :meth:`then`."""
        item = held.waiting.popleft()
        if isinstance(item, Event):
            held.shown = item.seq
            self._deliver(item)
            return
        try:
            item()
        except Exception:  # one failed call must not keep the others (or rooms) waiting
            log.exception("room %s: a call held for its save failed", code)

    def last_seq(self, code: str) -> int:
        held = self._held.get(code)
        return held.shown if held is not None else self._seq.get(code, 0)

    def since(self, code: str, seq: int) -> list[Event] | None:
        log = self._logs.get(code, deque())
        last = self.last_seq(code)
        unsure = self._unsure.get(code)
        if unsure is not None and unsure[0] <= seq <= unsure[1]:
            return None  # a number the room's last run may have given to another event
        if seq > last:
            return None  # numbers this room never gave out: the client must resync
        if seq == last:
            return []
        if not log or log[0].seq > seq + 1:
            return None
        return [e for e in log if seq < e.seq <= last]

    def subscribe(self, code: str, listener: Listener) -> Subscription:
        self._next_id += 1
        key = self._next_id
        self._listeners.setdefault(code, {})[key] = listener

        def close() -> None:
            self._listeners.get(code, {}).pop(key, None)

        return Subscription(close)
