"""The rooms of quick match (``docs/protocol.md``, "Quick match"), made on this process.

:class:`~..online.quickmatch.QuickMatch` puts waiting players together (over a queue in this
process, or in Redis); :class:`QuickRooms` makes the room of each group it seats: rated and
locked, the oldest waiting player its host, bots in the free seats, everyone ready, and its
game started once its people have connected.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ubongo import editions

from ..online.quickmatch import START_GRACE_SECONDS, Queue, QuickMatch, Waiting
from ..protocol.incoming import ProtocolError, SettingsPatch
from .gateway import Gateway, seat_json
from .room import Room, Seat

log = logging.getLogger("ubongo.server")

#: a join code for a new room, unique wherever rooms are made (``None``: the lobby picks one)
ReserveCode = Callable[[], Awaitable[str | None]]


async def lobby_picks_the_code() -> str | None:
    """One process: the lobby picks a code no room of its own has."""
    return None


class QuickRooms:
    """Owns the quick-match rooms of this process whose games wait for their people."""

    def __init__(self, gateway: Gateway, reserve_code: ReserveCode = lobby_picks_the_code) -> None:
        self.gateway = gateway
        self.reserve_code = reserve_code
        self._starting: set[asyncio.Task[None]] = set()

    def matcher(self, queue: Queue) -> QuickMatch:
        """A quick match over ``queue`` that seats its groups in rooms made here; how many
        wait is on ``/metrics``."""
        quick = QuickMatch(
            queue, self.gateway.storage, self.gateway.config.quickmatch_wait, self.make
        )
        self.gateway.metrics.gauge(
            "ubongo_quickmatch_waiting",
            "players waiting for a quick match, by edition (the queue all processes share)",
            lambda: {edition: float(quick.waiting.get(edition, 0)) for edition in editions.names()},
            "edition",
        )
        return quick

    async def make(self, group: Sequence[Waiting], levels: Sequence[str]) -> list[dict[str, Any]]:
        """A rated, locked room of this process for a quick-match group (the oldest waiting
        player is the host) and bots of ``levels``; everyone ready, its game starts by itself.
        Each person's seat, in the group's order."""
        room, seats = self._seat(group, await self.reserve_code())
        lobby = self.gateway.rooms.lobby
        host = seats[0]
        for level in levels:
            lobby.add_bot(room, host, level)
        lobby.lock(room, host, True)
        for seat in seats[1:]:
            lobby.set_ready(room, seat, True)
        task = asyncio.create_task(self._start_game(room))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)
        return [seat_json(room, s) for s in seats]

    def _seat(self, group: Sequence[Waiting], code: str | None) -> tuple[Room, list[Seat]]:
        """A new rated room (code ``code``) with the group's players seated, the first as
        host: the operator's quick-match settings, or the edition's own if they do not
        suit it."""
        lobby = self.gateway.rooms.lobby
        first = group[0]
        chosen = {**self.gateway.config.quickmatch_settings, "edition": first.edition}
        try:
            patch = SettingsPatch.model_validate({**chosen, "rated": True})
            room, host = lobby.create_room(first.name, patch, code, first.account)
        except (ProtocolError, ValueError):
            # the operator's settings do not suit this edition: its own defaults
            patch = SettingsPatch(edition=first.edition, rated=True)
            room, host = lobby.create_room(first.name, patch, code, first.account)
        seats = [host]
        for w in group[1:]:
            seats.append(lobby.take_seat(room.code, w.name, w.account)[1])
        return room, seats

    async def _start_game(self, room: Room) -> None:
        """Start a quick match's game once its people have connected (or after a grace)."""
        clock = self.gateway.clock
        until = clock.now() + START_GRACE_SECONDS
        while clock.now() < until:
            people = [s for s in room.occupied() if s.kind == "person"]
            if people and all(s.connections > 0 for s in people):
                break
            await asyncio.sleep(0.05)
        host = room.seats[room.host] if room.host is not None else None
        if (
            room.phase != "lobby"
            or host is None
            or self.gateway.rooms.hub.get(room.code) is not room
        ):
            return  # closed, or taken over by another process
        try:
            self.gateway.rooms.game.start(room, host)
        except ProtocolError as e:
            log.warning("room %s: the quick match could not start: %s", room.code, e.message)

    def stop(self) -> None:
        """Forget the games waiting to start (the service stops)."""
        for task in list(self._starting):
            task.cancel()
