"""The rooms made for players put together, on this process: quick match's (``docs/protocol.md``,
"Quick match") and an arena's races (``docs/arenas.md``).

:class:`~..online.quickmatch.QuickMatch` puts waiting players together (over a queue in this
process, or in Redis), and :class:`~..online.arenas.ArenaDirector` an arena's free players;
:class:`QuickRooms` makes the room of each group: rated and locked, the first player its host,
bots in the free seats, everyone ready, and its game started once its people have connected.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from ubongo import editions
from ubongo.arena import Arena

from ..online.arena_live import Seated
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
        people = [(w.name, w.account) for w in group]
        room, seats = self._seat(
            people, self._quick_settings(group[0].edition), await self.reserve_code()
        )
        return self._ready(room, seats, levels)

    async def race(
        self, arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
    ) -> list[dict[str, Any]]:
        """Race number ``number`` of ``arena`` (docs/arenas.md): a rated, locked room of one
        game of one round on a fresh task made from the arena's seed, its people each on their
        side, bots of ``levels`` in the seats left; it starts by itself. Each person's seat."""
        f = arena.format
        patch = SettingsPatch(
            edition=f.edition,
            side=f.side,
            rounds=1,
            puzzles="fresh",
            seed=f.race_seed(number),
            rated=True,
        )
        room, seats = self._seat(
            [(p.name, p.account) for p in people], [patch], await self.reserve_code()
        )
        # one fresh deck for the whole arena (its cards made once), each race drawing its own
        deck_sides = tuple(s for s in (f.side, f.harder_side) if s is not None)
        room.settings = replace(
            room.settings,
            arena=arena.id,
            arena_race=number,
            deck_seed=f.race_seed(0),
            deck_sides=deck_sides,
        )
        for seat, person in zip(seats, people, strict=True):
            seat.side = None if person.side == f.side else person.side
        return self._ready(room, seats, levels)

    def _ready(self, room: Room, seats: list[Seat], levels: Sequence[str]) -> list[dict[str, Any]]:
        """Bots of ``levels`` in the free seats, the room locked, everyone ready, its game
        started once its people have connected: each person's seat."""
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

    def _quick_settings(self, edition: str) -> list[SettingsPatch]:
        """A quick match's room settings: the operator's, or the edition's own if those do
        not suit it (tried in this order)."""
        chosen = {**self.gateway.config.quickmatch_settings, "edition": edition}
        try:
            return [
                SettingsPatch.model_validate({**chosen, "rated": True}),
                SettingsPatch(edition=edition, rated=True),
            ]
        except ValueError:
            return [SettingsPatch(edition=edition, rated=True)]

    def _seat(
        self, people: Sequence[tuple[str, int]], patches: Sequence[SettingsPatch], code: str | None
    ) -> tuple[Room, list[Seat]]:
        """A new room (code ``code``) of the first of ``patches`` its edition takes, with
        ``people`` (name, account) seated, the first as host."""
        lobby = self.gateway.rooms.lobby
        first, *others = people
        refused: Exception = ProtocolError("bad_setting", "no settings to make the room with")
        for patch in patches:
            try:
                room, host = lobby.create_room(first[0], patch, code, first[1])
            except (ProtocolError, ValueError) as e:
                refused = e
                continue
            return room, [host, *(lobby.take_seat(room.code, n, a)[1] for n, a in others)]
        raise refused

    async def _start_game(self, room: Room) -> None:
        """Start a quick match's game once its people have connected (or after a grace)."""
        clock = self.gateway.clock
        until = clock.now() + START_GRACE_SECONDS
        while not all_here(room):
            # woken by each arrival (it looked every 50 ms: at 1,000 players in an arena, some
            # 300 wake-ups a second of races waiting for their people)
            room.arrivals.clear()
            try:
                await asyncio.wait_for(room.arrivals.wait(), clock.loop_delay(until))
            except TimeoutError:
                break
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


def all_here(room: Room) -> bool:
    """Whether every person seated in ``room`` has a connection to it (and there is one)."""
    people = [s for s in room.occupied() if s.kind == "person"]
    return bool(people) and all(s.connections > 0 for s in people)
