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
messages of its connections to rooms this one owns (:attr:`~.wire.Command.MESSAGE`), their
disconnections (``GONE``) and HTTP requests (``REQUEST``); the owner answers each connection
on the sender's channel (``REPLY``: welcome, errors, verdicts, pongs, missed events; ``CLOSE``)
and each request (``ANSWER``). The kinds and their fields are in :mod:`.wire`.

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

The modules: :mod:`.keys` (Redis keys, channels and Lua scripts), :mod:`.wire` (the command
channel's messages and the writer's queue), :mod:`.node` (leases, writer, listener, heartbeat:
:class:`~.node.Node`), :mod:`.relay` (connections and HTTP requests across processes) and
:mod:`.service` (the :class:`~ubongo.server.rooms.service.RoomService` the routes call).

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`, :mod:`..store`, :mod:`..online`,
:mod:`..rooms`.
"""

from __future__ import annotations

from .service import ClusterRoomService

__all__ = ["ClusterRoomService"]
