"""Rooms in play, in this process: what a room is and everything that runs it.

* :mod:`.service` - the room service the routes call (:class:`~.service.RoomService`, an
  interface), and its one-process implementation, which holds the parts both implementations
  share: :mod:`.gateway` (the rooms and their connections; each client message to its handler),
  :mod:`.limits` (what each client address may do), :mod:`.housekeeping` (idle rooms
  forgotten, the lag probe, the card worker) and :mod:`.quickrooms` (quick match's rooms);
  :mod:`.connection` - one client's WebSocket;
* :mod:`.runner` wires :mod:`.lobby` (seats, tokens, host, holds), :mod:`.driver` (the game
  run by :mod:`ubongo.rules`; :mod:`.results` stores its end), :mod:`.timers` (clock, bots,
  holds) and :mod:`.feed` (snapshots, events) over :mod:`.room` (what a room is) and
  :mod:`.bus` (where rooms live);
* :mod:`.durable` and :mod:`.saved` - open rooms that outlive the process;
  :mod:`.cards` - fresh cards made ahead; :mod:`.live` - the games anybody may watch.

May import: :mod:`..protocol`, :mod:`..config`, :mod:`..ops`, :mod:`..store`, :mod:`..online`.
"""
