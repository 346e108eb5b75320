"""The background work of a process's rooms, started and stopped with its room service.

>>> sweep_every(ServerConfig())  # a room nobody joined is kept a minute
15.0
>>> sweep_every(ServerConfig(unjoined_room_seconds=600, finished_room_seconds=600))
60.0
>>> sweep_every(ServerConfig(finished_room_seconds=2.0))
0.5
"""

from __future__ import annotations

import asyncio
import contextlib

from ..config import ServerConfig
from .gateway import Gateway

#: seconds between two looks for idle rooms to forget (less when rooms are kept less long)
SWEEP_SECONDS = 60.0


def sweep_every(config: ServerConfig) -> float:
    """Seconds between two sweeps: :data:`SWEEP_SECONDS`, or a quarter of the shortest time a
    room is kept, so that a room is forgotten at most a quarter late."""
    every = min(
        SWEEP_SECONDS,
        config.unjoined_room_seconds / 4,
        config.idle_room_seconds / 4,
        config.finished_room_seconds / 4,
    )
    return max(0.05, every)


class Housekeeping:
    """Owns the background tasks of the rooms of one process: the sweep that forgets idle
    rooms (:meth:`~.runner.Rooms.sweep`), the event loop's lag probe of ``/metrics``, and the
    worker that makes fresh cards ahead (:mod:`.cards`)."""

    def __init__(self, gateway: Gateway) -> None:
        self.gateway = gateway
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        """Start the sweep, the lag probe and the card worker."""
        self.tasks = [
            asyncio.create_task(self._sweep()),
            asyncio.create_task(self.gateway.metrics.watch_loop()),
        ]
        self.gateway.rooms.game.cards.start()

    async def stop(self) -> None:
        """Stop them (the card worker's process ends)."""
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks = []
        await self.gateway.rooms.game.cards.close()

    async def _sweep(self) -> None:
        every = sweep_every(self.gateway.config)
        while True:
            await asyncio.sleep(every)
            self.gateway.rooms.sweep()
