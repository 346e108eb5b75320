"""One client's WebSocket as the room code sees it: an outgoing queue, a rate limit, a seat.

Shared by the single-process server and the Redis cluster (:mod:`..cluster`): a connection here
may be attached to a room run by another process (:class:`Binding`), and a connection on
another process is represented on the room's owner by a subclass of :class:`Connection` that
sends its answers back over Redis.

>>> from ..ops.clock import Clock
>>> conn = Connection(None, Clock())
>>> conn.send_json({"type": "pong", "id": 7, "t": 1.5, "server_time": 1000})
>>> conn.queue.get_nowait()
'{"type":"pong","id":7,"t":1.5,"server_time":1000}'
>>> conn.send_json({"type": "pong"})  # every message is made through its model
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 3 validation errors for ...
>>> conn.close(4001); conn.closing
4001
>>> slow = Connection(None, Clock(), max_queue=2)
>>> for text in ("a", "b", "c"):
...     slow.send(text)
>>> slow.closing, slow.queue.qsize()  # over the limit: dropped at once, nothing more queued
(1013, 2)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..ops.clock import Clock
from ..ops.ratelimit import TokenBucket
from ..protocol.outgoing import encode
from .bus import Event, Subscription

if TYPE_CHECKING:
    from fastapi import WebSocket

    from .room import Room, Seat

#: messages a second per connection, and the burst allowed
RATE, BURST = 20.0, 40
#: refused messages after which a connection is closed
MAX_REFUSED = 200
#: events waiting for a slow client before it is dropped (it reconnects and resyncs)
MAX_QUEUE = 1000
#: the close code of a client dropped for not reading (WebSocket's "try again later")
CLOSE_SLOW = 1013


@dataclass
class Binding:
    """A connection here attached to a room another process owns (:mod:`..cluster`)."""

    code: str
    owner: str
    hello: dict[str, Any]
    welcomed: bool = False
    #: the last event number this connection was sent
    floor: int = 0


class Connection:
    """One WebSocket: its outgoing queue, its rate limit, and what it is attached to.

    ``room`` and ``seat`` are set by its ``hello`` (``seat`` stays ``None`` for a spectator);
    ``bound`` is set while the connection's room is run by another process. The queue holds
    the texts to send, in order; ``None`` in it tells the writer to close with ``closing``."""

    _ids = 0

    def __init__(
        self,
        ws: WebSocket | None,
        clock: Clock,
        address: str = "",
        max_queue: int = MAX_QUEUE,
        rate: float = RATE,
    ) -> None:
        Connection._ids += 1
        self.id = Connection._ids
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        # bursts of two seconds' worth
        self.bucket = TokenBucket(rate, max(1, round(rate * BURST / RATE)), clock.now())
        self.room: Room | None = None
        self.seat: Seat | None = None
        self.joined = False
        self.subscription: Subscription | None = None
        self.closing: int | None = None
        self.bound: Binding | None = None
        #: the client's address as the per-address limits count it
        #: (:func:`..ops.ratelimit.address_key`); empty for a stand-in of another process's
        #: client (that process limits it)
        self.address = address
        self.max_queue = max_queue
        #: what drops the connection at once (set by the WebSocket route: aborts the
        #: transport, so that a writer blocked on a client that does not read ends too)
        self.on_abort: Callable[[], None] | None = None

    @property
    def attached(self) -> bool:
        """Whether a ``hello`` has attached this connection to a room (here or elsewhere)."""
        return self.joined or self.bound is not None

    def send(self, text: str) -> None:
        """Queue one message; a client with ``max_queue`` messages waiting is dropped at once
        (:meth:`abort`; it reconnects and resyncs)."""
        if self.closing == CLOSE_SLOW:  # dropped for not reading: nothing more is queued
            return
        if self.queue.qsize() >= self.max_queue:
            self.abort(CLOSE_SLOW)
            return
        self.queue.put_nowait(text)

    def abort(self, code: int) -> None:
        """Drop the connection now, not after what is queued: a close queued behind a writer
        that a client does not read would never be sent."""
        if self.closing is None:
            self.closing = code
        if self.on_abort is not None:
            self.on_abort()

    def send_json(self, data: dict[str, Any]) -> None:
        """Queue one message, made through its model (:func:`..protocol.outgoing.encode`)."""
        self.send(encode(data))

    def on_event(self, event: Event) -> None:
        """A room event this connection is subscribed to."""
        self.send(event.text)

    def close(self, code: int) -> None:
        """Close with ``code`` once what is queued before has been sent (the first code
        given wins)."""
        if self.closing is None:
            self.closing = code
            self.queue.put_nowait(None)
