"""Open rooms saved in the database, so that they outlive a restart of the server.

Without this, restarting the one server process (an upgrade, a crash) would end every game in
progress. Instead each room is saved in its durable form (:mod:`.durable`: seats and tokens,
settings, the game's seed and action log) shortly after each of its events, and a room that
closes is forgotten. When the server starts again it rebuilds the saved rooms, re-arms their
clocks and bots from the stored deadlines and holds every person's seat; players' browsers
reconnect by themselves (they keep their seat tokens) and get a full snapshot.

Saving is batched: the events of ``SAVE_DELAY`` seconds go to the database in one transaction,
written off the event loop, one write at a time, so a busy server does not wait for its disk.
A clean stop (SIGTERM, Ctrl+C) saves what is pending; a killed process loses at most the events
of its last ``SAVE_DELAY`` seconds, and the game goes on from the state before them. Time does
not stop while the server is down: a round's hourglass keeps running, as a real one would.

With several processes and Redis (:mod:`.cluster`) rooms live in Redis instead, and this hub is
not used.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .bus import Encoder, Event, MemoryHub, json_text
from .durable import durable, rebuilt
from .rooms import Room
from .runner import Rooms
from .storage import Storage

log = logging.getLogger("ubongo.server.saved_rooms")

#: seconds between an event and the save of its room (events in between share one write)
SAVE_DELAY = 0.25


class SavedRoomsHub(MemoryHub[Room]):
    """The in-process hub, with each room saved to ``storage`` shortly after its events."""

    def __init__(self, storage: Storage, log_size: int = 512, encode: Encoder = json_text) -> None:
        super().__init__(log_size, encode)
        self.storage = storage
        self._changed: set[str] = set()
        self._closed: set[str] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._writing: asyncio.Task[None] | None = None
        self._stopped = False

    # --- what changes a room --------------------------------------------------------------

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        event = super().publish(code, data)
        self._changed.add(code)
        self._save_soon()
        return event

    def remove(self, code: str) -> None:
        known = code in self._rooms
        super().remove(code)
        if known:
            self._changed.discard(code)
            self._closed.add(code)
            self._save_soon()

    # --- saving -----------------------------------------------------------------------------

    def _save_soon(self) -> None:
        if self._timer is not None or self._writing is not None or self._stopped:
            return  # a save is due, or running (it looks again when it ends)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a room driven by hand): saved by the next save or at stop
        self._timer = loop.call_later(SAVE_DELAY, self._start_save)

    def _pending(self) -> tuple[dict[str, dict[str, Any]], set[str]]:
        """What to write now: the changed rooms' durable forms (taken here, on the loop, so
        that they are consistent) and the closed rooms."""
        rooms = {}
        for code in self._changed:
            room = self._rooms.get(code)
            if room is not None:
                rooms[code] = durable(room, self.last_seq(code))
        closed = self._closed
        self._changed, self._closed = set(), set()
        return rooms, closed

    def _start_save(self) -> None:
        self._timer = None
        rooms, closed = self._pending()
        if rooms or closed:
            self._writing = asyncio.get_running_loop().create_task(self._write(rooms, closed))

    async def _write(self, rooms: dict[str, dict[str, Any]], closed: set[str]) -> None:
        try:
            await asyncio.to_thread(self.storage.save_open_rooms, rooms, closed, time.time())
        except Exception:
            # the database is away (full disk, lost connection): keep running, try again later
            log.exception("could not save %d open rooms; trying again", len(rooms) + len(closed))
            self._changed |= rooms.keys() - self._closed
            self._closed |= closed - self._rooms.keys()
            await asyncio.sleep(1.0)
        finally:
            self._writing = None
        if self._changed or self._closed:
            self._save_soon()

    async def stop(self) -> None:
        """Save what is pending and save no more (the server is stopping)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._writing is not None:
            await self._writing
        rooms, closed = self._pending()
        if rooms or closed:
            await asyncio.to_thread(self.storage.save_open_rooms, rooms, closed, time.time())

    # --- starting again -----------------------------------------------------------------------

    async def reopen(self, rooms: Rooms) -> list[str]:
        """Rebuild the rooms saved as open and run them again; the codes reopened.

        A saved room that cannot be rebuilt (saved by a version whose rules differ) is
        logged and forgotten: it must not keep the server from starting."""
        reopened = []
        for data in await asyncio.to_thread(self.storage.open_rooms):
            code = str(data.get("code", "?"))
            try:
                room = rebuilt(data)
                seq = int(data["seq"])
            except Exception:
                log.exception("could not reopen room %s; forgetting it", code)
                self._closed.add(code)
                continue
            rooms.reopen(room, seq)
            reopened.append(code)
        if reopened:
            # a count and a few codes: thousands of rooms must not make one huge line
            shown = ", ".join(reopened[:5]) + (", ..." if len(reopened) > 5 else "")
            log.warning("reopened %d rooms saved by the last run: %s", len(reopened), shown)
        self._save_soon()
        return reopened
