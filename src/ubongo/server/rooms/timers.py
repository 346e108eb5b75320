"""Every timer of every room: the round's clock, the bots' moves and the held seats.

The rules decide *when* (a deadline, the time between rounds, a bot's thinking time drawn
from a seeded generator); :class:`RoomTimers` arms the event loop for those moments and, when
one comes, hands it to whoever acts on it (the game driver for the clock and the bots, the
lobby for a seat whose hold ran out). It never changes a room itself.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Literal

from ubongo import rules
from ubongo.rules import bots

from .feed import RoomFeed
from .room import Room, Seat

#: what the round's clock asks for when it rings: the next round, or the rules' next step
ClockCall = Literal["start", "advance"]


def _unset(*_args: object) -> None:
    raise RuntimeError("RoomTimers.connect() was not called")


class RoomTimers:
    """Owns the timer handles of rooms (``room.timer``: the round's clock; ``room.bot_timers``:
    one per bot; ``seat.hold_timer``: a disconnected person's held seat).

    What happens when a timer rings is given by :meth:`connect`: ``on_clock(room, call)``,
    ``on_bot(room, seat, turn)`` and ``on_hold(room, seat)``."""

    def __init__(self, feed: RoomFeed) -> None:
        self.feed = feed
        self.clock = feed.clock
        self._on_clock: Callable[[Room, ClockCall], None] = _unset
        self._on_bot: Callable[[Room, Seat, int], None] = _unset
        self._on_hold: Callable[[Room, Seat], None] = _unset

    def connect(
        self,
        on_clock: Callable[[Room, ClockCall], None],
        on_bot: Callable[[Room, Seat, int], None],
        on_hold: Callable[[Room, Seat], None],
    ) -> None:
        """Say who acts when the clock, a bot's timer or a seat's hold rings."""
        self._on_clock, self._on_bot, self._on_hold = on_clock, on_bot, on_hold

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    # --- held seats ---------------------------------------------------------------------------

    def hold(self, room: Room, seat: Seat) -> None:
        """Hold ``seat`` for the room's ``seat_hold_seconds`` from now (its person is not
        connected); a hold already running starts again."""
        hold = room.settings.seat_hold_seconds
        seat.held_until = self.clock.now() + hold
        if seat.hold_timer is not None:
            seat.hold_timer.cancel()
        seat.hold_timer = self.loop.call_later(hold, self._hold_rang, room, seat)

    def rearm_hold(self, room: Room, seat: Seat) -> None:
        """Arm a rebuilt room's seat hold again: a hold that was running keeps its end."""
        if seat.held_until is None:
            self.hold(room, seat)
            return
        delay = self.clock.loop_delay(seat.held_until)
        seat.hold_timer = self.loop.call_later(delay, self._hold_rang, room, seat)

    def release(self, seat: Seat) -> None:
        """The seat is no longer held (its person came back, or left for good)."""
        seat.held_until = None
        if seat.hold_timer is not None:
            seat.hold_timer.cancel()
            seat.hold_timer = None

    def _hold_rang(self, room: Room, seat: Seat) -> None:
        seat.hold_timer = None
        if room.seats[seat.index] is not seat or seat.connections > 0:
            return
        self._on_hold(room, seat)

    # --- the round's clock --------------------------------------------------------------------

    def schedule_clock(self, room: Room) -> None:
        """Arm the room's clock for the game's next moment: the next round's start while
        waiting between rounds, else the rules' deadline (if any)."""
        game = room.game
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if game is None or game.phase == "over":
            return
        if game.phase == "waiting":
            at = room.next_round_at or self.clock.now()
            room.timer = self.loop.call_later(
                self.clock.loop_delay(at), self._clock_rang, room, "start", at
            )
        elif game.deadline is not None:
            at = game.deadline
            room.timer = self.loop.call_later(
                self.clock.loop_delay(at) + 0.001, self._clock_rang, room, "advance", at
            )

    def _clock_rang(self, room: Room, call: ClockCall, at: float) -> None:
        room.timer = None
        if not self.feed.is_open(room) or room.game is None:
            return
        if self.clock.now() < at:  # woke early: wait the rest
            self.schedule_clock(room)
            return
        self._on_clock(room, call)

    # --- bots ---------------------------------------------------------------------------------

    def schedule_bots(self, room: Room) -> None:
        """Arm every bot's move for the turn that has just begun."""
        for s in room.occupied():
            if s.kind == "bot":
                self.schedule_bot(room, s, late=False)

    def schedule_bot(self, room: Room, seat: Seat, late: bool) -> None:
        """Arm one bot's move in this turn, if it still has a task (``late``: a person was
        just replaced by this bot mid-turn, which draws other times)."""
        game = room.game
        if game is None or game.phase != "playing" or game.round is None:
            return
        entry = game.round.entry(seat.player)
        if entry is None or not entry.active:
            return
        assert room.seed is not None
        # seeded by game, seat and turn, so the same game gives the same bot times
        late_tag = "late" if late else ""
        rng = random.Random(f"{room.seed}:bot:{seat.index}:{room.turn}:{late_tag}")
        level = bots.LEVELS[seat.level or "medium"]
        # drawn in every round, so that a seed gives the same times whatever the round's kind
        if bots.gets_stuck(level, rng) and bots.may_get_stuck(game):
            return
        _side, task = rules.entry_task(game, entry)
        seconds = bots.finish_time(task.difficulty, level, rng) * _time_scale(room)
        at = game.round.started_at + seconds
        now = self.clock.now()
        if at <= now:
            at = now + seconds * 0.25  # took over late: still needs a moment
        old = room.bot_timers.pop(seat.index, None)
        if old is not None:
            old.cancel()
        room.bot_timers[seat.index] = self.loop.call_later(
            self.clock.loop_delay(at), self._bot_rang, room, seat, room.turn
        )

    def _bot_rang(self, room: Room, seat: Seat, turn: int) -> None:
        room.bot_timers.pop(seat.index, None)
        if self.feed.is_open(room) and room.game is not None and room.turn == turn:
            self._on_bot(room, seat, turn)

    def cancel_bots(self, room: Room) -> None:
        """No bot moves any more in this turn (the round has ended)."""
        for handle in room.bot_timers.values():
            handle.cancel()
        room.bot_timers.clear()

    # --- all of them --------------------------------------------------------------------------

    def cancel_game(self, room: Room) -> None:
        """The game's clock and bots stop (the game is over, or back to the lobby)."""
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        self.cancel_bots(room)

    def stop(self, room: Room) -> None:
        """Every timer of the room cancelled (it closes, or another process runs it now);
        the seats' hold ends stay as they were, for whoever runs the room next."""
        self.cancel_game(room)
        for s in room.occupied():
            if s.hold_timer is not None:
                s.hold_timer.cancel()
                s.hold_timer = None


def _time_scale(room: Room) -> float:
    """Bots keep pace with the table's timer: half the hourglass, half the bot's time."""
    st = room.settings
    timer = st.record.timer
    if timer.hourglass is not None:
        if st.hourglass_seconds is None:
            return 1.0
        return st.hourglass_seconds / timer.hourglass
    if st.countdown_seconds is None:
        return 1.0
    return st.countdown_seconds / dict(timer.countdown).get(st.side_or_default, 20.0)
