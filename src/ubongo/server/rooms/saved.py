"""Open rooms saved in the database, so that they outlive a restart of the server.

Without this, restarting the one server process (an upgrade, a crash) would end every game in
progress. Instead each room is saved in its durable form (:mod:`.durable`: seats and tokens,
settings, the game's seed and action log) shortly after each of its events, and a room that
closes is forgotten. When the server starts again it rebuilds the saved rooms, re-arms their
clocks and bots from the stored deadlines and holds every person's seat; players' browsers
reconnect by themselves (they keep their seat tokens) and get a full snapshot.

Two ways of saving (docs/server.md, "What is stored, and when"):

* **store, then answer**: what a player is told and must not lose (a finish, a give-up, a
  round's start and end, the game's start and end: every action the rules apply) is saved
  *before* it is told. The game driver *holds* the room (:meth:`~.bus.MemoryHub.hold`): its
  events and the sender's verdict wait until the next save, which starts at once; the rooms
  that ask meanwhile share the next transaction (a group commit), so a busy server writes
  about once per disk flush, not once per event.
* **batched**: cheap events (a person connects, a setting changes) are saved ``SAVE_DELAY``
  seconds later, the events of those seconds in one transaction; a killed process may lose
  them, and nobody was promised anything about them.

Writes run off the event loop, one at a time, in a thread of their own (not the loop's
shared threads, where finished games may all be waiting for the database). The next write is
taken as soon as one is under way, and waits behind it in that thread (at most
:data:`WRITES_IN_FLIGHT`). A write that fails (the database locked or away) is tried again
after a growing delay (``ServerConfig.store_retry_seconds`` doubling up to
``store_retry_max_seconds``), with its rooms taken again as they are then; held rooms wait
meanwhile: what cannot be stored is not announced. A clean stop (SIGTERM, Ctrl+C) saves
what is pending. Time does not stop while the server is down: a round's hourglass keeps
running, as a real one would.

Event numbers are never given twice to different events of a room, even across a crash:
each save records the highest number the room may give out before the next save
(``seq_given``, :data:`SEQ_BLOCK` ahead); an event beyond it holds the room until a save
raises it. A restarted room numbers on after ``seq_given``, and a client that claims a
number in between gets the whole room.

With several processes and Redis (:mod:`..cluster`) rooms live in Redis instead, and this hub is
not used.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..store import Backoff, Store
from .bus import Encoder, Event, Mark, MemoryHub, json_text
from .durable import durable, rebuilt
from .room import Room
from .runner import Rooms

log = logging.getLogger("ubongo.server.rooms.saved")

#: seconds between a cheap event and the save of its room (events in between share one write)
SAVE_DELAY = 0.25
#: saves between two checkpoints of SQLite's journal (each save adds a few pages to it)
CHECKPOINT_EVERY = 100
#: how many reopened rooms' codes the start-up log line names
REOPENED_SHOWN = 10
#: event numbers a room may give out beyond its last save before it must save again
SEQ_BLOCK = 64
#: writes under way at once: one in the saves' thread and the next waiting behind it. With one,
#: a held verdict waited for the write before its own to come back to a busy event loop, then
#: for its own to be taken (docs/arenas.md, "Where a held verdict waits, hop by hop")
WRITES_IN_FLIGHT = 2


@dataclass(slots=True)
class Write:
    """One write of open rooms under way: their durable forms, the rooms closed, what it covers
    of each held room's deliveries, and its failed tries; ``done`` once its rooms are told."""

    rooms: dict[str, dict[str, Any]]
    closed: set[str]
    marks: dict[str, Mark | None]
    done: asyncio.Future[None]
    failures: int = 0


class SavedRoomsHub(MemoryHub[Room]):
    """The in-process hub, with each room saved to ``storage``: at once when it is held
    (store, then answer), else shortly after its events."""

    durable = True

    def __init__(
        self,
        storage: Store,
        log_size: int = 512,
        encode: Encoder = json_text,
        retry: Backoff | None = None,
    ) -> None:
        super().__init__(log_size, encode)
        self.storage = storage
        self.retry = retry or Backoff()
        self._changed: set[str] = set()
        self._closed: set[str] = set()
        #: per room, the highest event number it may give out before its next save
        self._given: dict[str, int] = {}
        self._urgent = False
        self._timer: asyncio.TimerHandle | asyncio.Handle | None = None
        #: whether the save due is the next turn's (held rooms), not a batched one
        self._timer_now = False
        #: the writes under way, each done once its rooms are told (or it is given up)
        self._writing: set[asyncio.Future[None]] = set()
        self._stopped = False
        self._saves = 0
        self._checkpoint: asyncio.Task[None] | None = None
        # a thread of its own for the saves (they run one at a time anyway): in the event
        # loop's shared threads they queued behind finished games waiting for SQLite's one
        # writer, and every held verdict with them (docs/arenas.md, "Measured")
        self._saver = ThreadPoolExecutor(1, thread_name_prefix="room-saves")

    # --- what changes a room --------------------------------------------------------------

    def publish(self, code: str, data: dict[str, Any]) -> Event:
        event = super().publish(code, data)
        self._changed.add(code)
        self._save_soon()
        return event

    def _numbered(self, code: str, seq: int) -> None:
        # a new room may give out a first block unsaved: a crash before its first save loses
        # the room itself, so none of its numbers can be reused
        if seq > self._given.setdefault(code, SEQ_BLOCK):
            # past what the last save allows: saved (with a new allowance) before it is sent
            self._given[code] = seq + SEQ_BLOCK
            self.hold(code)

    def _store_soon(self, code: str) -> None:
        self._changed.add(code)
        self._urgent = True
        self._save_soon()

    def remove(self, code: str) -> None:
        known = code in self._rooms
        super().remove(code)
        self._given.pop(code, None)
        if known:
            self._changed.discard(code)
            self._closed.add(code)
            self._save_soon()

    # --- saving -----------------------------------------------------------------------------

    def _save_soon(self) -> None:
        if len(self._writing) >= WRITES_IN_FLIGHT or self._stopped:
            return  # saves are under way (the first to end looks again)
        if self._timer is not None and (self._timer_now or not self._urgent):
            # a save is due. One due at the next turn is not put off again: re-armed at each
            # hold, it was put off for as long as every turn of a busy loop held a room, and
            # held verdicts waited up to 190 ms (docs/arenas.md, "A save put off")
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (a room driven by hand): saved by the next save or at stop
        if self._timer is not None:
            self._timer.cancel()
        # held rooms: at the next turn of the loop, so that what the same message or timer
        # causes goes into the same save
        self._timer_now = self._urgent
        self._timer = loop.call_later(0 if self._urgent else SAVE_DELAY, self._start_save)

    def _pending(self) -> tuple[dict[str, dict[str, Any]], set[str], dict[str, Mark | None]]:
        """What to write now: the changed rooms' durable forms (taken here, on the loop, so
        that they are consistent), the closed rooms, and what each save covers of the held
        deliveries."""
        rooms = {}
        marks = {}
        for code in self._changed:
            room = self._rooms.get(code)
            if room is not None:
                seq = self._seq.get(code, 0)
                data = durable(room, seq)
                data["seq_given"] = max(seq, self._given.get(code, seq))
                rooms[code] = data
                marks[code] = self.mark(code)
        closed = self._closed
        self._changed, self._closed = set(), set()
        self._urgent = False
        return rooms, closed, marks

    def _start_save(self) -> None:
        self._timer = None
        rooms, closed, marks = self._pending()
        if rooms or closed:
            done = asyncio.get_running_loop().create_future()
            self._writing.add(done)
            self._hand_over(Write(rooms, closed, marks, done))

    def _hand_over(self, write: Write) -> None:
        """Hand ``write`` to the saves' thread now (not at a later turn of a busy loop); its
        end comes back to the event loop in one turn (:meth:`_written`), where awaiting it
        from a task took two: the future's, then the task's."""
        loop = asyncio.get_running_loop()

        def back(future: Future[None]) -> None:  # in the saves' thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(self._written, write, future)

        self._save(write.rooms, write.closed).add_done_callback(back)

    def _written(self, write: Write, future: Future[None]) -> None:
        """A write has ended: tell its rooms, or try it again after a growing delay."""
        try:
            future.result()
        except BaseException as e:
            # the database is locked or away: keep running, hold what must be stored first,
            # and try again (with what changed meanwhile: one write)
            write.failures += 1
            if self._stopped:  # stopping: stop() tries once more, then gives up
                self._give_back(write)
                return
            delay = self.retry.delay(write.failures)
            log.error(
                "could not save %d open rooms (%s); trying again in %.1f s",
                len(write.rooms) + len(write.closed),
                e,
                delay,
            )
            asyncio.get_running_loop().call_later(delay, self._again, write)
            return
        if write.failures:
            log.warning("saved the open rooms after %d failed tries", write.failures)
        # over before its rooms are told: what they cause may start the next save
        self._writing.discard(write.done)
        write.done.set_result(None)
        for code, mark in write.marks.items():
            self.stored(code, mark)
        self._saves += 1
        if self._saves % CHECKPOINT_EVERY == 0 and self._checkpoint is None:
            # the journal copied into the database file while nobody waits for it (saves
            # go on meanwhile); errors are the next checkpoint's business
            self._checkpoint = asyncio.get_running_loop().create_task(self._run_checkpoint())
        if self._changed or self._closed:
            self._save_soon()

    def _again(self, write: Write) -> None:
        """A failed write, tried again with its rooms taken as they are now: the write after
        it may have stored newer forms of them, which an older form must not overwrite."""
        if self._stopped:
            self._give_back(write)
            return
        self._changed |= write.rooms.keys()
        self._closed |= write.closed
        write.rooms, write.closed, newer = self._pending()
        write.marks.update(newer)
        self._hand_over(write)

    def _give_back(self, write: Write) -> None:
        """A write given up while stopping: its rooms are pending again (for stop's save)."""
        self._changed |= write.rooms.keys()
        self._closed |= write.closed
        self._writing.discard(write.done)
        write.done.set_result(None)

    def _save(self, rooms: dict[str, dict[str, Any]], closed: set[str]) -> Future[None]:
        """One write of the open rooms, begun at once in the saves' own thread."""
        return self._saver.submit(self.storage.open_rooms.save, rooms, closed, time.time())

    async def _run_checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self.storage.open_rooms.checkpoint)
        except Exception as e:
            log.warning("could not checkpoint the database: %s", e)
        finally:
            self._checkpoint = None

    async def stop(self) -> None:
        """Save what is pending and save no more (the server is stopping)."""
        self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self._writing:
            await next(iter(self._writing))
        rooms, closed, marks = self._pending()
        try:
            if rooms or closed:
                await asyncio.wrap_future(self._save(rooms, closed))
                for code, mark in marks.items():
                    self.stored(code, mark)
        finally:
            self._saver.shutdown(wait=False)

    # --- starting again -----------------------------------------------------------------------

    async def reopen(self, rooms: Rooms) -> list[str]:
        """Rebuild the rooms saved as open and run them again; the codes reopened.

        A saved room that cannot be rebuilt (saved by a version whose rules differ) is
        logged and forgotten: it must not keep the server from starting."""
        reopened = []
        for data in await asyncio.to_thread(self.storage.open_rooms.all):
            code = str(data.get("code", "?"))
            try:
                room = rebuilt(data)
                seq = int(data["seq"])
                given = int(data.get("seq_given", seq))
            except Exception:
                log.exception("could not reopen room %s; forgetting it", code)
                self._closed.add(code)
                continue
            # numbered on after what the last run may have sent (it may not have saved all)
            rooms.reopen(room, seq, given=given)
            reopened.append(code)
        if reopened:
            # a few codes, not all: thousands of saved rooms made one line of 189,124 characters
            shown = ", ".join(reopened[:REOPENED_SHOWN])
            more = (
                f" and {len(reopened) - REOPENED_SHOWN} more"
                if len(reopened) > REOPENED_SHOWN
                else ""
            )
            log.warning("reopened %d rooms saved by the last run: %s%s", len(reopened), shown, more)
        self._save_soon()
        return reopened
