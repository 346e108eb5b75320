"""The arena's director in this process, on the server's clock moved forward (no store, no
rooms): an arena whose race's room was lost still freezes, ten minutes after its clock."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from ubongo.arena import Arena, Format
from ubongo.server.config import ServerConfig
from ubongo.server.online.arena_live import Seated
from ubongo.server.online.arenas import LAST_RACE_SECONDS, ArenaDirector
from ubongo.server.ops.clock import Clock


def test_an_arena_freezes_without_a_race_whose_room_was_lost() -> None:
    async def scenario() -> list[str]:
        clock = Clock()
        made: list[int] = []
        seated = asyncio.Event()

        async def lost_room(
            arena: Arena, number: int, people: Sequence[Seated], levels: Sequence[str]
        ) -> list[dict[str, Any]]:
            # the room is made, then lost: it never reports its race's end
            made.append(number)
            seated.set()
            return [
                {"code": "LOST1", "seat": i, "token": "t", "invite": "LOST1"}
                for i, _ in enumerate(people)
            ]

        director = ArenaDirector(None, clock, ServerConfig(arena_schedule="none"), lost_room)
        arena = await director.make("T", Format("classic", 10, 2, "A", "s"), clock.now(), 1)
        for account in (1, 2):
            await director.join(arena.id, account, f"P{account}", 25.0, [f"address {account}"])
            director.watch(arena.id, account)
        phases: list[str] = []
        await director.tick()
        await seated.wait()  # the race's room is made off the tick
        live = director.live[arena.id]
        phases.append(live.arena.phase(clock.now()))
        clock.not_before(arena.ends_at + 1.0)
        await director.tick()
        phases.append(live.arena.phase(clock.now()))  # its race in play holds the freeze
        assert live.races
        clock.not_before(arena.ends_at + LAST_RACE_SECONDS + 1.0)
        await director.tick()
        phases.append(live.arena.phase(clock.now()))
        return phases

    assert asyncio.run(scenario()) == ["running", "ending", "over"]
