"""Every room this process runs: the parts that run rooms, wired together.

:class:`Rooms` builds one :class:`~.feed.RoomFeed`, :class:`~.timers.RoomTimers`,
:class:`~.lobby.Lobby` and :class:`~.driver.GameDriver` over a hub, and does what concerns a
room as a whole: reopening one rebuilt from where it was kept (:mod:`.durable`), letting one go
to another process, and forgetting idle ones.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..config import ServerConfig
from ..online.tasks_in_play import LocalTasksInPlay, TasksInPlay
from ..ops.clock import Clock
from ..store import Store
from .bus import Event, RoomHub
from .driver import GameDriver
from .feed import RoomFeed
from .lobby import Lobby
from .room import Room
from .timers import RoomTimers


class Rooms:
    """The rooms of one process. Commands go to its parts: ``lobby`` (seats, connections,
    settings), ``game`` (start, submissions, skips); ``feed`` looks rooms up and renders them.

    >>> from .bus import MemoryHub
    >>> rooms = Rooms(MemoryHub(), storage=None)
    >>> rooms.feed.hub is rooms.hub
    True
    """

    def __init__(
        self,
        hub: RoomHub[Room],
        storage: Store | None,
        clock: Clock | None = None,
        config: ServerConfig | None = None,
        tasks: TasksInPlay | None = None,
    ) -> None:
        self.hub = hub
        self.storage = storage
        self.clock = clock or Clock()
        self.config = config or ServerConfig()
        self.feed = RoomFeed(hub, self.clock)
        self.timers = RoomTimers(self.feed)
        self.lobby = Lobby(self.feed, self.timers, self.config)
        self.game = GameDriver(
            self.feed, self.timers, storage, self.config, tasks or LocalTasksInPlay(self.clock)
        )
        self.timers.connect(
            on_clock=self.game.clock_rang,
            on_bot=self.game.bot_moves,
            on_hold=self.lobby.hold_expired,
        )

    def reopen(
        self, room: Room, seq: int, events: Iterable[Event] = (), given: int | None = None
    ) -> None:
        """Run a room rebuilt from where it was kept (:mod:`.durable`) at event ``seq``
        (``given``: the highest number its last run may have sent; numbering goes on after
        it): its clock never goes back behind the game's last time, and its timers start
        again."""
        if room.game is not None and room.game.now is not None:
            self.clock.not_before(room.game.now)
        self.hub.restore(room.code, room, seq, events, given)
        self._resume(room)

    def _resume(self, room: Room) -> None:
        """Run a room rebuilt from its stored snapshot (its process stopped): nobody is
        connected yet, so every person's seat is held (a hold already running keeps its end);
        the clock and the bots are armed again from the stored deadlines."""
        # nobody is connected here yet; each connection re-attached counts again (and its
        # ``hello`` publishes the new count), so no event for the reset itself
        room.spectators = 0
        if room.idle_since is None:
            room.idle_since = self.clock.now()
        for s in room.occupied():
            s.connections = 0
            s.hold_timer = None
            if s.kind == "person":
                self.timers.rearm_hold(room, s)
        game = room.game
        if room.phase == "playing" and game is not None:
            self.timers.schedule_bots(room)
            self.timers.schedule_clock(room)
        elif (
            room.phase == "over"
            and room.game_id is None
            and self.storage is not None
            and game is not None
            and game.phase == "over"
        ):
            # the process stopped between the end of the game and its announcement: store and
            # announce it here (stored twice at worst, never lost)
            self.game.results.game_over(room)

    def let_go(self, room: Room) -> None:
        """Stop running ``room`` here without closing it (another process runs it now)."""
        self.timers.stop(room)

    def sweep(self) -> None:
        """Forget rooms nobody has been connected to for ``idle_room_seconds`` (a room that
        nobody ever joined: ``unjoined_room_seconds``; a room whose game is over and stored:
        ``finished_room_seconds``)."""
        now = self.clock.now()
        for code in self.hub.codes():
            room = self.hub.get(code)
            if room is None or room.idle_since is None:
                continue
            if not room.joined_ever:
                keep = self.config.unjoined_room_seconds
            elif room.phase == "over" and room.game_id is not None:
                # the game is stored (its replay stays); only a rematch needs the room, and
                # nobody is there to ask for one
                keep = self.config.finished_room_seconds
            else:
                keep = self.config.idle_room_seconds
            if now - room.idle_since > keep:
                self.lobby.close_room(room)
