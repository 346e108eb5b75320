"""What everybody is told about a room: its snapshot, and its events as they happen.

:class:`RoomFeed` is the one place that looks rooms up in the :class:`~.bus.RoomHub` and
publishes to it; the lobby, the game driver and the timers all speak through it, so every
event carries the room's snapshot as of that event (``docs/protocol.md``, "Room events").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..ops import strong_random
from ..ops.clock import Clock
from ..protocol import table
from ..protocol.incoming import ProtocolError
from ..protocol.snapshot import GameTable, RoomSettingsView, TaskView
from .bus import RoomHub
from .room import CODE_ALPHABET, CODE_LENGTH, Room, RoomSettings


class RoomFeed:
    """Owns the hub and the clock: finds rooms by join code, draws new codes, renders a
    room's snapshot and publishes its events."""

    def __init__(self, hub: RoomHub[Room], clock: Clock) -> None:
        self.hub = hub
        self.clock = clock

    def room(self, code: str) -> Room:
        """The open room with this join code (any case); ``no_room`` if there is none."""
        room = self.hub.get(code.upper())
        if room is None:
            raise ProtocolError("no_room", f"no room {code!r}")
        return room

    def is_open(self, room: Room) -> bool:
        """Whether ``room`` is still run here (a timer of a closed or lost room does nothing)."""
        return self.hub.get(room.code) is room

    def new_code(self) -> str:
        """A join code no room here uses."""
        while True:
            code = "".join(strong_random.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if self.hub.get(code) is None:
                return code

    def snapshot(self, room: Room, checked: bool = False) -> dict[str, Any]:
        """The whole room as the protocol's ``room`` object.

        Its settings and its game's view are made once while they do not change (cached on
        the room) and checked through their models then. ``checked``: give those two as the
        checked models, for a message made through
        :func:`~..protocol.outgoing.encode` (the events and ``welcome``): the message's check
        takes a model as it is, so a room's unchanged settings and game are checked once,
        not once an event (their text is the same either way: a test compares)."""
        default_side = room.settings.side_or_default
        settings = self._settings(room)
        game = None if room.game is None else self._game(room)
        return {
            "code": room.code,
            "invite": room.invite,
            "phase": room.phase,
            "host": room.host,
            "settings": settings[2] if checked else settings[1],
            "seats": [
                None if s is None else s.to_json(self.clock, default_side)
                for s in room.seats[: room.capacity]
            ],
            "spectators": room.spectators,
            "locked": room.locked,
            "game": None if game is None else game[2] if checked else game[1],
            "game_id": room.game_id,
            "record": room.record,
            "daily": room.daily,
            "ratings": room.ratings,
        }

    @staticmethod
    def _settings(room: Room) -> tuple[RoomSettings, dict[str, Any], RoomSettingsView]:
        """The room's settings as the snapshot gives them, and checked (cached on the room)."""
        cache = room._settings_cache
        if cache is None or cache[0] != room.settings:
            data = room.settings.to_json()
            view = RoomSettingsView.model_validate(data)
            cache = room._settings_cache = (replace(room.settings), data, view)
        return cache

    @staticmethod
    def _game(room: Room) -> tuple[Any, dict[str, Any], GameTable]:
        """The game's view, and checked: cached on the room until the game, its round or its
        solutions change."""
        assert room.game is not None
        key = (id(room.game), room.round_no, room.next_round_at, id(room.solutions))
        cache = room._view_cache
        if cache is None or cache[0] != key:
            data = table.game_json(room.game, room.round_no, room.next_round_at, room.solutions)
            cache = room._view_cache = (key, data, RoomFeed._checked_game(room, data))
        return cache

    @staticmethod
    def _checked_game(room: Room, data: dict[str, Any]) -> GameTable:
        """The game's view ``data`` checked through its model, each seat's task checked once
        while it stays the same (the same JSON, it is the same task)."""
        tasks: dict[str, TaskView | None] = {}
        for seat, task in data["tasks"].items():
            known = room._task_views.get(seat)
            if task is None:
                tasks[seat] = None
            elif known is not None and known[0] == task:
                tasks[seat] = known[1]
            else:
                view = TaskView.model_validate(task)
                room._task_views[seat] = (task, view)
                tasks[seat] = view
        return GameTable.model_validate({**data, "tasks": tasks})

    def hold(self, room: Room) -> None:
        """Store, then answer: what ``room`` publishes from now (and the calls given to
        :meth:`then`) is delivered once the room has been stored as of it (the hub's save
        starts at once). A hub that stores nothing delivers at once."""
        self.hub.hold(room.code)

    def then(self, room: Room, call: Callable[[], None]) -> None:
        """Call ``call`` in order with the room's deliveries: now, or after what is held."""
        self.hub.then(room.code, call)

    def publish(
        self,
        room: Room,
        kind: str,
        data: dict[str, Any],
        at: float | None = None,
        snapshot: bool = True,
    ) -> int:
        """Send every watcher of ``room`` the event ``kind`` (at server time ``at``, default
        now) with the room's snapshot after it (``snapshot=False``: the event alone, for a
        change its data says whole, as the spectators' count). Its number."""
        at = self.clock.now() if at is None else at
        event: dict[str, Any] = {
            "type": "event",
            "at": self.clock.ms(at),
            "kind": kind,
            "data": data,
        }
        if snapshot:
            event["room"] = self.snapshot(room, checked=True)
        return self.hub.publish(room.code, event).seq
