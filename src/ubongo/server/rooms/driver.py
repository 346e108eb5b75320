"""The game driver: a room's game run by the rules, from its start to its stored end.

The server only transports, times and stores: every game decision comes from
:mod:`ubongo.rules`. :class:`GameDriver` turns a command (a submission, a skip, the clock, a
bot's move) into a rules action, applies it, publishes the events it caused in the protocol's
words (:mod:`..protocol.table`), arms the next timers, and at the end hands the game to
:class:`~.results.GameResults`, which stores it before anybody is told it is over.

Store, then answer: every action the rules apply holds the room (:meth:`.feed.RoomFeed.hold`)
so that the verdict and the events it caused are sent only once the room has been saved as of
them (:mod:`.saved`): a crash right after a player hears "covered" cannot lose the
finish.

An endless solo run (``docs/ratings.md``) starts from the account's stored rating (a seat
without an account: a new player's); what each of its tasks teaches is stored as it happens
(:meth:`.results.GameResults.learn`).

Player ids given to the rules are the seat numbers as strings (``"0"`` .. ``"3"``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ubongo import rules
from ubongo.board import Area, Placement, Verdict
from ubongo.geometry import Cell
from ubongo.pieces import Piece
from ubongo.puzzles.hints import Hint, HintError, Solved, Stuck, hint
from ubongo.rules import bots
from ubongo.rules.actions import placement_to_json
from ubongo.rules.events import EventKind
from ubongo.rules.state import Entry

from ..config import ServerConfig
from ..online.daily import today
from ..online.tasks_in_play import LocalTasksInPlay, TasksInPlay, dealt
from ..online.traces import Step, TraceNote, check
from ..ops import strong_random
from ..protocol import table
from ..protocol.incoming import ProtocolError
from ..store import Store
from .cards import CardMaker
from .feed import RoomFeed
from .results import GameResults
from .room import Room, Seat, need_host, need_phase, need_seat
from .timers import ClockCall, RoomTimers

log = logging.getLogger("ubongo.server")


class GameDriver:
    """Owns a room's game: ``room.game`` (the rules' state), the turn and round numbers and
    the round's shown solutions; its :attr:`results` own the stored game's id and the solo
    record."""

    def __init__(
        self,
        feed: RoomFeed,
        timers: RoomTimers,
        storage: Store | None,
        config: ServerConfig | None = None,
        tasks: TasksInPlay | None = None,
    ) -> None:
        self.feed = feed
        #: where each task dealt is noted, for the hint route to refuse it
        self.tasks: TasksInPlay = tasks or LocalTasksInPlay(feed.clock)
        self.timers = timers
        self.storage = storage
        self.clock = feed.clock
        self.config = config or ServerConfig()
        #: makes a fresh game's next cards in a worker process
        self.cards = CardMaker()
        #: stores a finished game before it is announced, and what an endless run teaches
        self.results = GameResults(feed, timers, storage, self.config)

    # --- commands ---------------------------------------------------------------------------

    def start(self, room: Room, seat: Seat | None) -> None:
        """The host starts the game: everybody ready, a player count the edition allows."""
        taken = _players_to_start(room, seat)
        st = room.settings
        players = tuple(s.player for s in taken)
        default = st.side_or_default
        levels = tuple(s.side or default for s in taken)
        seed = st.seed if st.seed is not None else strong_random.randbits(48)
        # an endless run starts from the account's rating: read (off the loop) before its
        # first task is chosen; the settings are checked now with a new player's
        account = taken[0].account if st.solo and st.solo_goal == "endless" else None
        try:
            # the deck the settings name: the shipped one, (fresh) cards made for this game, or
            # the day's tasks (made when the room was created: ubongo.puzzles.daily caches them)
            settings = st.rules_settings(players, levels, day=today().isoformat())
            game = rules.new_game(settings, seed)
        except rules.SettingsError as e:
            raise ProtocolError("bad_setting", str(e)) from None
        now = self.clock.now()
        room.phase = "playing"
        room.game = game
        room.seed = seed
        room.started_at = now
        room.turn = 0
        room.round_no = 0
        room.solutions = {}
        room.traces = []
        room.game_id = None
        room.record = None
        for s in taken:
            s.ready = False
        self.feed.hold(room)  # the game's start is told once it is saved
        self.feed.publish(room, "game_started", {"seed": seed}, at=now)
        making = self.cards.ahead(game)
        if making is None and (account is None or self.storage is None):
            self._act(room, rules.StartRound(now))
            return
        # a fresh game's first cards are made off the event loop; the round starts when they
        # are (tens of milliseconds: bench/generate.py --first-task)
        room.preparing = asyncio.get_running_loop().create_task(
            self._first_round(room, game, making, account)
        )

    async def _first_round(
        self,
        room: Room,
        game: rules.Game,
        making: asyncio.Future[None] | None,
        account: int | None = None,
    ) -> None:
        if account is not None and self.storage is not None:
            try:
                rating = await asyncio.to_thread(
                    self.storage.task_ratings.of_player, account, game.settings.edition
                )
            except Exception:
                log.exception("room %s: the player's rating could not be read", room.code)
                rating = None
            if rating is not None and room.game is game and game.round is None:
                # the same deck (its cards are being made), the account's rating
                game = rules.new_game(replace(game.settings, rating=rating), game.seed, game.deck)
                room.game = game
        if making is not None:
            await making
        if room.game is game and game.round is None and room.phase == "playing":
            self._act(room, rules.StartRound(self.clock.now()))

    def submit(
        self,
        room: Room,
        seat: Seat | None,
        round_no: int,
        placements: list[Placement],
        now: float,
        on_accept: Callable[[], None] | None = None,
        trace: Sequence[Step] | None = None,
    ) -> Verdict | None:
        """An "Ubongo!" received at ``now``. Returns ``None`` if it finished the task (and
        ``on_accept`` is called once the room is saved with the finish, before the events it
        causes are delivered, so the sender hears its verdict first), else the cover check's
        verdict; raises :class:`ProtocolError` for a message that cannot be a submission now
        and :class:`~ubongo.rules.RuleError` for one the rules refuse (too late, already
        finished). ``trace``: the play trace that came with it, kept with the finish in rated
        and ranked play (docs/fair-play.md)."""
        seat = self._need_round(room, seat, round_no)
        action = rules.Submit(seat.player, tuple(placements), now)
        note = self._trace_note(room, seat, placements, trace, now)
        if note is not None:
            # noted before the rules act: the finish may end the game, which is stored at once
            room.traces.append(note)
        finished = False
        try:
            self._act(room, action, on_accept)
            finished = True
        except rules.WrongArrangement as e:
            return e.verdict
        except rules.NoRound:
            # the round named is this one (checked above) and it is over: its time ran out
            # before this message arrived (docs/protocol.md, "Clock")
            raise rules.TooLate("time ran out before this submission") from None
        finally:
            if note is not None and not finished:
                room.traces.remove(note)
        return None

    def _trace_note(
        self,
        room: Room,
        seat: Seat,
        placements: list[Placement],
        trace: Sequence[Step] | None,
        now: float,
    ) -> dict[str, Any] | None:
        """What is kept of a submission's play trace (``None`` where play is neither rated nor
        ranked, or for a bot): its steps, when its task was dealt, and the check's fault."""
        game = room.game
        if game is None or seat.kind != "person" or not _traced(room, game):
            return None
        entry = game.round.entry(seat.player) if game.round is not None else None
        if entry is None:
            return None
        dealt_at = _dealt_at(game, seat.player)
        _side, task = rules.entry_task(game, entry)
        return TraceNote(
            player=seat.player,
            round=room.round_no,
            card=entry.card,
            key=entry.key,
            pieces=len(task.pieces),
            difficulty=task.difficulty,
            seconds=now - dealt_at,
            fault=check(trace, placements, now - dealt_at, self.config.trace_seconds_per_move),
            steps=tuple(trace or ()),
        ).to_json()

    def skip(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """A player gives up their task (solo: draws the next one)."""
        seat = self._need_round(room, seat, round_no)
        self._act(room, rules.SkipTask(seat.player, now))

    def stop(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """An endless or practice run ends now (``stop``; an endless run ends only so)."""
        seat = self._need_round(room, seat, round_no)
        self._act(room, rules.StopRun(seat.player, now))

    def give_up(self, room: Room, seat: Seat | None, round_no: int, now: float) -> None:
        """Solo and practice: the player gives this task up; the ``gave_up`` event shows a
        solution of it, and the next task is dealt."""
        seat = self._need_round(room, seat, round_no)
        _need_help(room)
        self._act(room, rules.GiveUp(seat.player, now))

    def hint(
        self,
        room: Room,
        seat: Seat | None,
        round_no: int,
        placements: list[Placement],
        now: float,
        reply: Callable[[dict[str, Any]], None],
    ) -> None:
        """Solo and practice: the next piece to put down after ``placements`` (or which to
        move), computed here (:mod:`ubongo.puzzles.hints`) and sent to the asker by ``reply``
        once the rules have charged the hint (:class:`~ubongo.rules.Hint`, in the log) and the
        room is saved. Placements that cannot be a start (``bad_placement``) cost nothing."""
        seat = self._need_round(room, seat, round_no)
        _need_help(room, hint=True)
        game = room.game
        assert game is not None
        entry = game.round.entry(seat.player) if game.round is not None else None
        if entry is None or not entry.active or game.phase != "playing":
            # the rules say why (already finished, too late ...)
            self._act(room, rules.Hint(seat.player, now))
            return
        side, task = rules.entry_task(game, entry)
        pieces = game.deck.task_pieces(task)
        found = _hint_for(side.area, pieces, placements)
        answer = _hint_answer(round_no, found, pieces)
        if isinstance(found, Solved):
            reply(answer)  # nothing to hint: no cost
            return

        def charged() -> None:
            hinted = [e for e in (room.game.events if room.game else []) if e.kind == "hinted"]
            reply({**answer, "penalty": hinted[-1].data["penalty"] if hinted else 0.0})

        self._act(room, rules.Hint(seat.player, now), on_accept=charged)

    def _need_round(self, room: Room, seat: Seat | None, round_no: int) -> Seat:
        seat = need_seat(seat)
        need_phase(room, "playing")
        if round_no != room.round_no:
            raise ProtocolError("stale_round", f"this is round {room.round_no}, not {round_no}")
        return seat

    # --- what the timers ask for --------------------------------------------------------------

    def clock_rang(self, room: Room, call: ClockCall) -> None:
        """The round's clock: the next round starts, or the rules take their next step."""
        now = self.clock.now()
        game = room.game
        busy = room.preparing is not None and not room.preparing.done()
        if call == "start" and game is not None and not busy:
            # the round's cards not made yet (the worker is behind): the round starts when
            # they are, rather than making them here while every room waits
            waiting = self.cards.ready(game)
            if waiting is not None:
                room.preparing = asyncio.get_running_loop().create_task(
                    self._start_when_made(room, game, waiting)
                )
                return
        try:
            if call == "start":
                self._act(room, rules.StartRound(now))
            else:
                self._act(room, rules.Advance(now))
        except rules.RuleError:
            log.exception("room %s: the clock's %s was refused", room.code, call)

    async def _start_when_made(
        self, room: Room, game: rules.Game, waiting: asyncio.Future[None]
    ) -> None:
        try:
            await waiting
        finally:
            room.preparing = None
        if room.game is game and game.phase == "waiting" and self.feed.is_open(room):
            # (cards the worker failed to make are made by the game itself when shown)
            try:
                self._act(room, rules.StartRound(self.clock.now()))
            except rules.RuleError:
                log.exception("room %s: the clock's start was refused", room.code)

    def bot_moves(self, room: Room, seat: Seat, _turn: int) -> None:
        """A bot's thinking time is up: it submits the arrangement the rules know."""
        game = room.game
        if game is None or game.round is None or room.seats[seat.index] is not seat:
            return
        entry = game.round.entry(seat.player)
        if entry is None or not entry.active:
            return
        placements = list(bots.arrangement(game.deck, entry.card, entry.side, entry.key))
        try:
            self.submit(room, seat, room.round_no, placements, self.clock.now())
        except (rules.RuleError, ProtocolError) as e:
            log.info("room %s: bot %s was refused: %s", room.code, seat.index, e)

    # --- applying the rules -------------------------------------------------------------------

    def _act(
        self, room: Room, action: rules.Action, on_accept: Callable[[], None] | None = None
    ) -> None:
        """Apply an action with the rules, publish what it caused, set the next timers; the
        verdict (``on_accept``) and the events are delivered once the room is saved.

        A :class:`~ubongo.rules.RuleError` propagates with the room unchanged."""
        game = room.game
        assert game is not None
        new = rules.apply(game, action)
        if new is game:
            if on_accept is not None:
                on_accept()
            return
        # store, then answer: nothing this action causes is told before it is saved
        self.feed.hold(room)
        if on_accept is not None:
            self.feed.then(room, on_accept)
        was_phase = game.phase
        room.game = new
        new_turn, awards = self._publish_events(room, new.events[len(game.events) :])
        ended = was_phase == "playing" and new.phase != "playing" and new.round is not None
        if ended and new.round is not None and new.round.kind != "solo":
            self._round_ended(room, new, awards)
        if new.phase == "over":
            self.results.game_over(room)
            return
        if new_turn:
            self.timers.schedule_bots(room)
        self.timers.schedule_clock(room)
        # the next cards of a fresh game, made ahead in a worker while this round is played
        self.cards.ahead(new)

    def _publish_events(self, room: Room, events: list[rules.Event]) -> tuple[bool, dict[str, Any]]:
        """Publish the rules' new events; whether a turn began, and the round's awards."""
        new_turn = False
        awards: dict[str, Any] = {}
        for ev in events:
            if ev.kind in (EventKind.ROUND_STARTED, EventKind.TASK_DRAWN):
                room.turn += 1
                new_turn = True
                if ev.kind == EventKind.ROUND_STARTED:
                    room.round_no += 1
                    room.solutions = {}
                    room.next_round_at = None
                self._note_dealt(room)
            if ev.kind == EventKind.TASK_RATED:
                self.results.learn(room, ev)
            got = table.awards(ev)
            if got is not None:
                awards = got
            out = table.event(ev, room.round_no)
            if out is not None:
                if ev.kind == EventKind.GAVE_UP and "card" in ev.data:
                    out[1].update(_given_up(room, ev))
                self.feed.publish(room, out[0], out[1], at=ev.at)
        return new_turn, awards

    def _note_dealt(self, room: Room) -> None:
        """Note the tasks just dealt as in play (but in practice, whose hints are free) for as
        long as a room is kept without anybody in it: longer than any round or run lasts."""
        game = room.game
        if game is None or (game.solo is not None and room.settings.solo_goal == "practice"):
            return
        self.tasks.add(dealt(game), seconds=self.config.idle_room_seconds)

    def _round_ended(self, room: Room, game: rules.Game, awards: dict[str, Any]) -> None:
        r = game.round
        assert r is not None
        self.timers.cancel_bots(room)
        solutions: dict[str, list[dict[str, Any]]] = {}
        for e in r.entries:
            if e.finished_at is None:
                placements = list(bots.arrangement(game.deck, e.card, e.side, e.key))
                solutions[e.player] = [placement_to_json(p) for p in placements]
        room.solutions = solutions
        if game.phase == "waiting":
            room.next_round_at = (r.ended_at or self.clock.now()) + room.settings.between_seconds
        self.feed.publish(
            room,
            "round_ended",
            {
                "round": room.round_no,
                "kind": r.kind,
                "finish_order": [int(p) for p in r.finish_order],
                "awards": awards,
                "solutions": solutions,
                "next_round_at": self.clock.ms(room.next_round_at),
            },
            at=r.ended_at,
        )


def _players_to_start(room: Room, seat: Seat | None) -> list[Seat]:
    """The seats a game started now would have: the sender must be the host, in the lobby,
    with everybody else ready and a player count the edition allows."""
    need_host(room, seat)
    need_phase(room, "lobby")
    taken = room.occupied()
    waiting = [s for s in taken if s.kind == "person" and not s.ready and s is not seat]
    if waiting:
        names = ", ".join(s.name for s in waiting)
        raise ProtocolError("not_ready", f"waiting for {names} to be ready")
    st = room.settings
    lo, hi = (1, 1) if st.solo else st.record.players
    if not lo <= len(taken) <= hi:
        raise ProtocolError(
            "bad_seats", f"{st.edition} {st.mode} is for {lo}-{hi} players, not {len(taken)}"
        )
    return taken


def _traced(room: Room, game: rules.Game) -> bool:
    """Whether the room's play is rated or ranked, so that its finishes' traces are kept: a
    rated race, the daily, a solo run for the leaderboard (not practice, not endless, whose
    ratings are learned task by task)."""
    if game.solo is None:
        return room.settings.rated
    return game.settings.solo_goal not in ("practice", "endless")


def _dealt_at(game: rules.Game, player: str) -> float:
    """When the player's task in hand was dealt: its solo ``task_drawn``, or the round's
    start."""
    for ev in reversed(game.events):
        if ev.kind == EventKind.ROUND_STARTED:
            return ev.at
        if ev.kind == EventKind.TASK_DRAWN and ev.data.get("player") == player:
            return ev.at
    return game.round.started_at if game.round is not None else 0.0


def _need_help(room: Room, hint: bool = False) -> None:
    """Hints and giving up are for solo and practice runs; an endless run may give a task up
    (a lost task) but takes no hints (its rating would mean nothing)."""
    st = room.settings
    if hint and st.solo_goal == "endless" and st.solo:
        raise ProtocolError("no_help", "an endless run is rated: no hints (give the task up)")
    if not st.helped:
        what = "the daily challenge" if st.daily else "a race"
        raise ProtocolError(
            "no_help", f"hints and giving up are for solo and practice runs, not {what}"
        )


def _hint_for(
    area: Area, pieces: list[Piece], placements: list[Placement]
) -> Hint | Stuck | Solved:
    """The hint for these placements (``bad_placement`` for ones that cannot be a start)."""
    by_id = {p.id: p for p in pieces}
    placed: dict[str, frozenset[Cell]] = {}
    for pl in placements:
        piece = by_id.get(pl.piece)
        if piece is None:
            raise ProtocolError("bad_placement", f"piece {pl.piece} is not one of this task's")
        if pl.piece in placed:
            raise ProtocolError("bad_placement", f"piece {pl.piece} is placed twice")
        if pl.transform not in piece.allowed_transforms:
            raise ProtocolError("bad_placement", f"piece {pl.piece} has no such turn")
        if len(pl.offset) != piece.lattice.translation_dims:
            raise ProtocolError("bad_placement", f"piece {pl.piece}'s position has a wrong shape")
        placed[pl.piece] = pl.cells(piece)
    try:
        return hint(area, pieces, placed)
    except HintError as e:
        raise ProtocolError("bad_placement", str(e)[:200]) from None


def _hint_answer(
    round_no: int, found: Hint | Stuck | Solved, pieces: list[Piece]
) -> dict[str, Any]:
    """The ``hint`` message for what :func:`ubongo.puzzles.hints.hint` found (no cost yet)."""
    base: dict[str, Any] = {"type": "hint", "round": round_no, "penalty": 0.0}
    if isinstance(found, Solved):
        return {**base, "placement": None, "move": [], "solved": True, "message": "Ubongo!"}
    if isinstance(found, Stuck):
        names = ", ".join(found.move)
        return {
            **base,
            "placement": None,
            "move": list(found.move),
            "solved": False,
            "message": f"This cannot be finished as it is: move {names}.",
        }
    piece = next(p for p in pieces if p.id == found.piece)
    return {
        **base,
        "placement": placement_to_json(Placement.covering(piece, found.cells)),
        "move": [],
        "solved": False,
        "message": f"Try piece {found.piece} here.",
    }


def _given_up(room: Room, ev: rules.Event) -> dict[str, Any]:
    """What a solo ``gave_up`` event shows: the task given up and an arrangement of it."""
    game = room.game
    assert game is not None
    player = str(ev.data["player"])
    side = str(ev.data.get("side") or game.settings.level_of(player))
    entry = Entry(player, int(ev.data["card"]), side, str(ev.data["key"]))
    placements = bots.arrangement(game.deck, entry.card, entry.side, entry.key)
    return {
        "task": rules.task_json(game, entry),
        "solution": [placement_to_json(p) for p in placements],
    }
