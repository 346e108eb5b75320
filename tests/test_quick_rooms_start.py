"""A quick match's (and an arena race's) game starts by itself: as soon as its last person has
connected, or after the grace without them (``START_GRACE_SECONDS``), in this process through
the gateway, no server around it."""

from __future__ import annotations

import asyncio
import json

import pytest

from ubongo import editions
from ubongo.server.config import ServerConfig
from ubongo.server.online.quickmatch import Waiting
from ubongo.server.rooms import quickrooms
from ubongo.server.rooms.bus import MemoryHub
from ubongo.server.rooms.connection import Connection
from ubongo.server.rooms.gateway import Gateway
from ubongo.server.rooms.quickrooms import QuickRooms

EDITION = editions.names()[0]


async def started(quick: QuickRooms) -> None:
    """Wait for the games waiting for their people to start (or fail to): their tasks' ends."""
    if quick._starting:
        await asyncio.wait(set(quick._starting), timeout=30)


async def a_quick_room() -> tuple[Gateway, QuickRooms, str, list[str]]:
    """A quick-match room of two people, made and ready: its code and their seat tokens."""
    gateway = Gateway(None, ServerConfig(), MemoryHub())
    quick = QuickRooms(gateway)
    group = [Waiting(a, f"P{a}", EDITION, 2, 25.0, 0.0) for a in (1, 2)]
    seats = await quick.make(group, [])
    return gateway, quick, str(seats[0]["code"]), [str(s["token"]) for s in seats]


def hello(gateway: Gateway, code: str, token: str) -> None:
    """A person's connection arrives in the room."""
    body = {"type": "hello", "room": code, "token": token}
    gateway.handle(Connection(None, gateway.clock), json.dumps(body), gateway.clock.now())


def test_the_game_starts_as_soon_as_its_last_person_connects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a grace far longer than the wait for the start below: only the last arrival can start it
    monkeypatch.setattr(quickrooms, "START_GRACE_SECONDS", 600.0)

    async def scenario() -> list[str]:
        gateway, quick, code, tokens = await a_quick_room()
        room = gateway.rooms.feed.room(code)
        phases: list[str] = []
        hello(gateway, code, tokens[0])
        # one of two here: it waits (its start given the loop meanwhile, and not over)
        _done, waiting = await asyncio.wait(set(quick._starting), timeout=0.2)
        phases.append(room.phase if waiting else "started early")
        hello(gateway, code, tokens[1])
        await started(quick)  # woken by the arrival, long before the grace is over
        phases.append(room.phase)
        gateway.rooms.timers.stop(room)
        return phases

    assert asyncio.run(scenario()) == ["lobby", "playing"]


def test_the_game_starts_after_the_grace_without_a_person_who_never_connects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(quickrooms, "START_GRACE_SECONDS", 0.3)

    async def scenario() -> tuple[str, str, float]:
        gateway, quick, code, tokens = await a_quick_room()
        room = gateway.rooms.feed.room(code)
        began = gateway.clock.now()
        hello(gateway, code, tokens[0])  # the other never comes
        waiting = room.phase
        await started(quick)  # its start, once the grace is over
        waited = gateway.clock.now() - began
        gateway.rooms.timers.stop(room)
        return waiting, room.phase, waited

    waiting, phase, waited = asyncio.run(scenario())
    assert (waiting, phase) == ("lobby", "playing")
    assert waited >= 0.3
